/** Handlers of the merchant's own account: balances and their history, swaps, sandbox funding. */
import { Effect, Schema } from "effect"
import { Catalog } from "../../../../core/catalog/Catalog.ts"
import { type CurrencyBalance, Swaps } from "../../../../core/balances/Swaps.ts"
import { Balances } from "../../../../core/balances/Balances.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import { Settlements } from "../../../../core/settlements/Settlements.ts"
import * as Money from "../../../../core/Money.ts"
import { SwapView } from "../../api/IdentityApi.ts"
import { makeIdempotent } from "../support/Idempotent.ts"
import { aliasedParameter } from "../support/QueryAliases.ts"
import { BalanceHandler } from "./PayinHandlers.ts"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"

export const IdentityHandlers = HttpApiBuilder.group(Api, "identity", (handlers) =>
  Effect.gen(function*() {
    const balance = yield* BalanceHandler
    const balances = yield* Balances
    const catalog = yield* Catalog
    const scopes = yield* Scopes
    const swaps = yield* Swaps
    const settlements = yield* Settlements
    const idempotent = (yield* makeIdempotent).value
    const n = Money.toJsonNumber
    const balanceView = (b: CurrencyBalance) => ({ currency: b.currency, available: n(b.available), pending: n(b.pending), reserved: n(b.reserved) })
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers
      .handle("swapQuote", ({ query }) =>
        documented("identity.swapQuote", Effect.gen(function*() {
          const scope = yield* scopes.resolve(yield* CurrentPrincipal)
          const from = yield* aliasedParameter({ from: query.from, fromCurrency: query.fromCurrency }, "from", "fromCurrency")
          const amount = Schema.decodeSync(Money.Amount)(query.amount)
          const { available, conversion } = yield* swaps.quote(scope, from.value, amount, { currency: from.name, amount: "amount" })
          return {
            quote: {
              fromCurrency: conversion.from,
              toCurrency: "USD" as const,
              amount: n(amount),
              rate: n(conversion.rate),
              amountUsd: n(conversion.converted),
              available: n(available),
              indicative: true as const
            }
          }
        })))
      .handle("swap", ({ headers, payload }) =>
        documented("identity.swap", Effect.gen(function*() {
          const scope = yield* scopes.resolve(yield* CurrentPrincipal)
          return yield* idempotent({
            operation: "POST /me/balance/swap",
            atomic: true,
            scope,
            key: headers["idempotency-key"],
            request: { fromCurrency: payload.fromCurrency, amount: Money.toText(payload.amount) },
            codec: Schema.Struct({ swap: SwapView }),
            execute: () => Effect.map(swaps.swap(scope, payload.fromCurrency, payload.amount), (s) => ({
              swap: {
                id: s.id,
                fromCurrency: s.fromCurrency,
                toCurrency: s.toCurrency,
                amount: n(s.amount),
                rate: n(s.rate),
                amountUsd: n(s.amountUsd),
                localAvailableAfter: n(s.localAvailableAfter),
                usdAvailableAfter: n(s.usdAvailableAfter)
              }
            }))
          })
        })))
      .handle("fundSandbox", ({ payload }) =>
        documented("identity.fundSandbox", Effect.gen(function*() {
          const scope = yield* scopes.resolve(yield* CurrentPrincipal)
          const balances = yield* swaps.fundSandbox(scope, payload.currency, payload.amount)
          return { currency: payload.currency.toUpperCase(), amount: n(payload.amount), balances: balances.map(balanceView) }
        })))
      .handle("balanceHistory", ({ query }) =>
        documented("identity.balanceHistory", Effect.gen(function*() {
          const history = yield* scopes.within(yield* CurrentPrincipal, { shopId: query.shopId }, (scope) => balances.history(scope, query.days ?? 30))
          return {
            book: "available" as const,
            days: history.days,
            currencies: history.currencies.map((c) => ({ currency: c.currency, closing: c.closing.map((d) => n(Money.round(d, c.currency))) }))
          }
        })))
      .handle("balance", (request) => documented("identity.balance", balance(request)))
      .handle("me", () =>
      documented("identity.me", Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const { environment, merchant } = principal
        const scope = yield* scopes.resolve(principal)
        const { entries } = yield* catalog.listing(environment, scope.shop.id, {})
        const crypto = yield* settlements.crypto({ environment, shopId: scope.shop.id })
        return {
          id: merchant.id,
          name: merchant.name,
          email: merchant.email,
          industry: merchant.industry,
          tier: merchant.tier,
          trustScore: merchant.trustScore,
          environment,
          // Each flag turns on with its feature in this build; `methods` lists the method slugs
          // the shop can charge now (routable rails of its default shop); `crypto` the
          // stablecoins its settlement batches are paid in (none without a schedule).
          capabilities: {
            checkout: true,
            directCharge: true,
            refunds: true,
            webhooks: true,
            crypto,
            methods: [...new Set(entries.filter((e) => e.routable).map((e) => e.method.method))].sort()
          }
        }
      })))
  }))
