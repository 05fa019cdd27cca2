/** Handlers of the payout endpoints. */
import { BigDecimal, Effect, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { iconUrl } from "../../../../core/catalog/Icons.ts"
import { EngineConfig } from "../../../../core/EngineConfig.ts"
import * as Money from "../../../../core/Money.ts"
import { type PayoutBalance, Payouts, payoutView } from "../../../../core/payouts/Payouts.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import { Api } from "../../api/Api.ts"
import { PayoutSwapResult, SendResult, TransferResult } from "../../api/PayoutsApi.ts"
import { makeIdempotent } from "../support/Idempotent.ts"
import { aliasedParameter } from "../support/QueryAliases.ts"
import { clampPage, pagination } from "../support/Paging.ts"
import { documented } from "../../api/OperationErrors.ts"

const n = Money.toJsonNumber
const balanceView = (b: PayoutBalance) => ({ currency: b.currency, available: n(b.available), pending: n(b.pending), reserved: n(b.reserved) })

export const PayoutHandlers = HttpApiBuilder.group(Api, "payouts", (handlers) =>
  Effect.gen(function*() {
    const payouts = yield* Payouts
    const scopes = yield* Scopes
    const config = yield* EngineConfig
    const idempotent = (yield* makeIdempotent).value
    const scope = Effect.flatMap(CurrentPrincipal, (p) => scopes.resolve(p))
    const icon = (id: string) => iconUrl(config.publicUrl, id)

    // Each handler is checked at compile time against the codes its operation documents.
    return handlers.handleAll({
      balance: () =>
        documented("payouts.balance", Effect.gen(function*() {
          const { balances, transferableUsd } = yield* payouts.balances(yield* scope)
          return { balances: balances.map(balanceView), transferableFromPayin: { currency: "USD" as const, amount: n(transferableUsd) } }
        })),
      methods: () =>
        documented("payouts.methods", Effect.gen(function*() {
          const s = yield* scope
          const { balances } = yield* payouts.balances(s)
          return {
            items: payouts.routing(s.environment).map(({ driver, method: m, routable, unroutableReason }) => {
              const held = balances.find((b) => b.currency === m.currency)
              return {
                id: m.id,
                name: m.name,
                currency: m.currency,
                country: m.country,
                rail: m.rail,
                minUsd: Number(m.minUsd),
                maxUsd: Number(m.maxUsd),
                logoUrl: icon(m.id),
                iconUrl: icon(m.id),
                funded: held !== undefined && BigDecimal.isPositive(held.available),
                currencyAvailable: held === undefined ? 0 : n(held.available),
                routable,
                unroutableReason,
                driver,
                recipientFields: m.recipientFields.map((f) => ({
                  key: f.key,
                  label: f.label,
                  required: f.required,
                  type: f.type,
                  ...(f.options === undefined ? {} : { options: f.options }),
                  ...(f.description === undefined ? {} : { description: f.description })
                }))
              }
            })
          }
        })),
      currencies: () =>
        documented("payouts.currencies", Effect.gen(function*() {
          const s = yield* scope
          const { balances } = yield* payouts.balances(s)
          const methods = payouts.methods(s.environment)
          const codes = [...new Set(["USD", ...methods.map((m) => m.currency), ...balances.map((b) => b.currency)])]
          return {
            currencies: codes.sort((a, b) => a === "USD" ? -1 : b === "USD" ? 1 : a.localeCompare(b)).map((currency) => {
              const rails = methods.filter((m) => m.currency === currency)
              const held = balances.find((b) => b.currency === currency)
              return {
                currency,
                // Representative (spec 2.11): the United States for USD, else the first rail's country.
                country: currency === "USD" ? "US" : rails[0]?.country ?? null,
                funded: held !== undefined && BigDecimal.isPositive(held.available),
                available: held === undefined ? 0 : n(held.available),
                rails: rails.map((m) => ({ id: m.id, rail: m.rail, country: m.country }))
              }
            })
          }
        })),
      transfer: ({ headers, payload }) =>
        documented("payouts.transfer", Effect.gen(function*() {
          const s = yield* scope
          return yield* idempotent({
            operation: "POST /me/payout/transfer",
            atomic: true,
            scope: s,
            key: headers["idempotency-key"],
            request: { amount: Money.toText(payload.amount) },
            codec: TransferResult,
            execute: () => Effect.map(payouts.transfer(s, payload.amount), (t) => ({
              transfer: { id: t.id, amount: n(t.amount), currency: "USD" as const, payinAvailableAfter: n(t.payinAvailableAfter), payoutAvailableAfter: n(t.payoutAvailableAfter) }
            }))
          })
        })),
      swapQuote: ({ query }) =>
        documented("payouts.swapQuote", Effect.gen(function*() {
          const s = yield* scope
          const to = yield* aliasedParameter({ toCurrency: query.toCurrency, to: query.to }, "toCurrency", "to")
          const amount = yield* aliasedParameter({ amountUsd: query.amountUsd, amount: query.amount }, "amountUsd", "amount")
          const c = yield* payouts.quoteSwap(s, to.value, Schema.decodeSync(Money.Amount)(amount.value), { currency: to.name, amount: amount.name })
          return { quote: { fromCurrency: "USD" as const, toCurrency: c.to, amountUsd: n(c.amount), rate: n(c.rate), amount: n(c.converted), indicative: true as const } }
        })),
      swap: ({ headers, payload }) =>
        documented("payouts.swap", Effect.gen(function*() {
          const s = yield* scope
          return yield* idempotent({
            operation: "POST /me/payout/swap",
            atomic: true,
            scope: s,
            key: headers["idempotency-key"],
            request: { toCurrency: payload.toCurrency, amountUsd: Money.toText(payload.amountUsd) },
            codec: PayoutSwapResult,
            execute: () => Effect.map(payouts.swap(s, payload.toCurrency, payload.amountUsd), (r) => ({
              swap: {
                id: r.id,
                fromCurrency: "USD" as const,
                toCurrency: r.conversion.to,
                amountUsd: n(r.conversion.amount),
                rate: n(r.conversion.rate),
                amount: n(r.conversion.converted),
                usdAvailableAfter: n(r.usdAvailableAfter),
                localAvailableAfter: n(r.localAvailableAfter)
              }
            }))
          })
        })),
      send: ({ headers, payload }) =>
        documented("payouts.send", Effect.gen(function*() {
          const s = yield* scope
          return yield* idempotent({
            operation: "POST /me/payout/send",
            scope: s,
            key: headers["idempotency-key"],
            request: { methodId: payload.methodId, amount: Money.toText(payload.amount), recipient: payload.recipient },
            codec: SendResult,
            // A retry of an interrupted execution continues the payout it wrote ahead.
            execute: (key) => Effect.map(payouts.send(s, payload, key), ({ method, payout }) => ({
              payout: payoutView(payout),
              methodName: method.name,
              logoUrl: icon(method.id),
              iconUrl: icon(method.id)
            }))
          })
        })),
      list: ({ query }) =>
        documented("payouts.list", Effect.gen(function*() {
          const page = clampPage(query)
          const { rows, total } = yield* payouts.list(yield* scope, { status: query.status, methodId: query.methodId }, page)
          return { data: rows.map(payoutView), pagination: pagination(total, page) }
        })),
      get: ({ params }) => documented("payouts.get", Effect.map(Effect.flatMap(scope, (s) => payouts.get(s, params.id)), (p) => ({ payout: payoutView(p) }))),
      fundSandbox: ({ payload }) =>
        documented("payouts.fundSandbox", Effect.gen(function*() {
          const balances = yield* payouts.fundSandbox(yield* scope, payload.currency, payload.amount)
          return { currency: payload.currency.toUpperCase(), amount: n(payload.amount), balances: balances.map(balanceView) }
        })),
      simulate: ({ params, payload }) => documented("payouts.simulate", Effect.map(Effect.flatMap(scope, (s) => payouts.simulate(s, params.id, payload.action)), (p) => ({ payout: payoutView(p) })))
    })
  }))

export const PayoutAdminHandlers = HttpApiBuilder.group(Api, "payoutAdmin", (handlers) =>
  Effect.gen(function*() {
    const payouts = yield* Payouts
    return handlers.handleAll({
      resolve: ({ params, payload }) => documented("payoutAdmin.resolve", Effect.map(payouts.resolve(params.id, payload), (p) => ({ payout: payoutView(p) })))
    })
  }))
