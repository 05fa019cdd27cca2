/** Handlers of the pay-in endpoints: payments (and their legacy aliases), catalog, callbacks, balance. */
import { DateTime, Effect, Option, Schema } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { catchCode, invalidRequest } from "../../../../core/ApiError.ts"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { Balances } from "../../../../core/balances/Balances.ts"
import { Catalog } from "../../../../core/catalog/Catalog.ts"
import { Refunds, refundableOf } from "../../../../core/refunds/Refunds.ts"
import * as Money from "../../../../core/Money.ts"
import { iconPath, iconUrl } from "../../../../core/catalog/Icons.ts"
import * as Country from "../../../../core/Country.ts"
import { EngineConfig } from "../../../../core/EngineConfig.ts"
import type { SandboxSimulate } from "../../../../core/ports/PaymentProvider.ts"
import { Payments } from "../../../../core/payments/Payments.ts"
import { Payouts } from "../../../../core/payouts/Payouts.ts"
import type { PaymentStatus } from "../../../../core/payments/PaymentState.ts"
import { buyerView, CreatedView, detailView, readView } from "../../../../core/payments/PaymentView.ts"
import { Scopes, type ShopScope } from "../../../../core/tenancy/Scopes.ts"
import { Api } from "../../api/Api.ts"
import { CreatePaymentBody } from "../../api/PaymentsApi.ts"
import { makeIdempotent } from "../support/Idempotent.ts"
import { clampPage, pagination } from "../support/Paging.ts"
import { rangeFilter } from "../support/PaymentListQuery.ts"
import { documented } from "../../api/OperationErrors.ts"

const encodeCreateBody = Schema.encodeSync(CreatePaymentBody)

/** The address the request came from, for `userIp` when the merchant sent none. */
const remoteAddress = Effect.map(HttpServerRequest.HttpServerRequest, (request) => Option.getOrUndefined(request.remoteAddress))

export const PaymentHandlers = HttpApiBuilder.group(Api, "payments", (handlers) =>
  Effect.gen(function*() {
    const payments = yield* Payments
    const scopes = yield* Scopes
    const idempotent = yield* makeIdempotent
    const claims = yield* Refunds

    type CreateHeaders = { readonly "idempotency-key"?: string | undefined; readonly "sandbox-simulate"?: SandboxSimulate | undefined }
    const create = (payload: typeof CreatePaymentBody.Type, headers: CreateHeaders) =>
      Effect.flatMap(CurrentPrincipal, (principal) =>
        scopes.within(principal, { merchantId: payload.merchantId, shopId: payload.shopId }, (scope) => createOn(scope, payload, headers)))
    const createOn = Effect.fnUntraced(function*(scope: ShopScope, payload: typeof CreatePaymentBody.Type, headers: CreateHeaders) {
      const simulate = headers["sandbox-simulate"]
      const userIp = payload.userIp ?? (yield* remoteAddress)
      // The key is claimed by the payment's write-ahead, not before. A retry of an interrupted
      // execution continues the payment it wrote ahead. The key keeps the core's create view of
      // the payment (a payment left pending stores it in its last write); the answer is that
      // view: with a key, the very bytes the key holds, the first time as on every replay.
      return yield* idempotent.respond({
        operation: "POST /payments",
        scope,
        key: headers["idempotency-key"],
        request: { body: encodeCreateBody(payload), simulate: simulate ?? null },
        codec: CreatedView,
        claimInWriteAhead: true,
        // Buyer data is `Redacted` from the body's decode (`Fields.ts` `Buyer`): nothing past here prints it.
        execute: (key) => payments.createAnswering(scope, { ...payload, userIp, simulate, id: key?.resume }, key)
      }, 201)
    })

    type ListQuery = {
      readonly limit?: number | undefined
      readonly offset?: number | undefined
      readonly status?: PaymentStatus | undefined
      readonly paymentMethodId?: string | undefined
      readonly country?: string | undefined
      readonly merchantOrderId?: string | undefined
      readonly transactionId?: string | undefined
      readonly userEmail?: string | undefined
      readonly method?: string | undefined
      readonly createdFrom?: string | undefined
      readonly createdTo?: string | undefined
      readonly amountMin?: string | undefined
      readonly amountMax?: string | undefined
      readonly startingAfter?: string | undefined
      readonly shopId?: string | undefined
    }
    // A named shop the credential does not cover is a 404, never another shop's list.
    const list = (query: ListQuery) =>
      Effect.flatMap(CurrentPrincipal, (principal) => scopes.within(principal, { shopId: query.shopId }, (scope) => listOn(scope, query)))
    const listOn = Effect.fnUntraced(function*(scope: ShopScope, query: ListQuery) {
      const country = yield* Country.requestedCountry(query.country)
      const range = yield* rangeFilter(query)
      if (query.startingAfter !== undefined && query.offset !== undefined) {
        return yield* invalidRequest("offset cannot be combined with startingAfter", [{ path: "offset", message: "Page with startingAfter alone" }])
      }
      const after = query.startingAfter === undefined ? undefined : yield* payments.get(scope, query.startingAfter).pipe(
        Effect.map((p) => ({ createdAt: p.createdAt, id: p.id })),
        catchCode("not_found", () =>
          Effect.fail(invalidRequest(`No payment '${query.startingAfter}' to page after`, [{ path: "startingAfter", message: "Expected the id of a payment of this list" }])))
      )
      const page = clampPage(query)
      const { rows, total } = yield* payments.list(scope, {
        status: query.status,
        paymentMethodId: query.paymentMethodId,
        country,
        merchantOrderId: query.merchantOrderId,
        id: query.transactionId,
        userEmail: query.userEmail,
        method: query.method,
        ...range,
        after
      }, page)
      return { data: rows.map((p) => ({ ...readView(p), buyer: buyerView(p) })), pagination: pagination(total, page) }
    })

    const get = Effect.fnUntraced(function*(id: string) {
      const principal = yield* CurrentPrincipal
      const { claims: of, payment } = yield* scopes.withinOwning(principal, yield* payments.shopOf(principal.environment, id), (scope) => claims.ofPayment(scope, id))
      return { ...detailView(payment), buyer: buyerView(payment), refundable: Money.toJsonNumber(refundableOf(payment, of)) }
    })

    const ledgerEntries = Effect.fnUntraced(function*(id: string) {
      const principal = yield* CurrentPrincipal
      const entries = yield* scopes.withinOwning(principal, yield* payments.shopOf(principal.environment, id), (scope) => claims.ledgerOf(scope, id))
      return {
        data: entries.map((e) => ({
          id: e.id,
          type: e.kind,
          reference: e.reference,
          createdAt: DateTime.formatIso(e.createdAt),
          postings: e.postings.map((p) => ({ book: p.book, currency: p.currency, amount: Money.toJsonNumber(p.amount) }))
        }))
      }
    })

    // Each handler is checked at compile time against the codes its operation documents.
    return handlers.handleAll({
      create: ({ headers, payload }) => documented("payments.create", create(payload, headers)),
      createTransaction: ({ headers, payload }) => documented("payments.createTransaction", create(payload, headers)),
      list: ({ query }) => documented("payments.list", list(query)),
      listTransactions: ({ query }) => documented("payments.listTransactions", list(query)),
      get: ({ params }) => documented("payments.get", get(params.id)),
      getTransaction: ({ params }) => documented("payments.getTransaction", get(params.id)),
      ledgerEntries: ({ params }) => documented("payments.ledgerEntries", ledgerEntries(params.id))
    })
  }))

export const CatalogHandlers = HttpApiBuilder.group(Api, "catalog", (handlers) =>
  Effect.gen(function*() {
    const catalog = yield* Catalog
    const scopes = yield* Scopes
    const config = yield* EngineConfig
    return handlers.handle("paymentMethods", ({ query }) =>
      documented("catalog.paymentMethods", Effect.gen(function*() {
        const scope = yield* scopes.resolve(yield* CurrentPrincipal)
        const iso3 = yield* Country.requestedCountry(query.country)
        // A known ISO-3 code always has its ISO-2 (the table is one to one).
        const iso2 = iso3 === undefined ? undefined : Option.getOrThrow(Country.toIso2(iso3))
        const { entries, totalAvailable } = yield* catalog.listing(scope.environment, scope.shop.id, {
          country: iso2,
          channel: query.channel,
          method: query.method
        })
        return {
          shop: { id: scope.shop.id, name: scope.shop.name },
          environment: scope.environment,
          filters: { country: iso2 ?? null, channel: query.channel ?? null, method: query.method ?? null },
          count: entries.length,
          totalAvailable,
          routableCount: entries.filter((e) => e.routable).length,
          methods: entries.map(({ method: m, providerFields, requiredFields, routable, unroutableReason }) => ({
            paymentMethodId: m.id,
            method: m.method,
            methodLabel: m.methodLabel,
            name: m.name,
            country: m.country,
            countryIso3: Option.getOrThrow(Country.toIso3(m.country)),
            channel: m.channel,
            imageUrl: iconPath(m.id),
            iconUrl: iconUrl(config.publicUrl, m.id),
            logoUrl: iconUrl(config.publicUrl, m.id),
            currencies: m.currencies,
            currencyLimits: m.currencyLimits.map((l) => ({ currency: l.currency, min: Number(l.min), max: Number(l.max) })),
            minTxUsd: m.minTxUsd === null ? null : Number(m.minTxUsd),
            maxTxUsd: m.maxTxUsd === null ? null : Number(m.maxTxUsd),
            fee: { percent: Number(m.fee.percent), flat: Number(m.fee.flat), currency: m.fee.currency },
            enabled: m.enabled,
            online: m.online,
            routable,
            unroutableReason,
            requiredFields,
            providers: providerFields
          }))
        }
      })))
  }))

/** The exact bytes and lowercase headers of a provider's callback. */
const callbackOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(
    request.text.pipe(Effect.mapError(() => invalidRequest("The callback body could not be read", []))),
    (rawBody) => ({
      rawBody,
      headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v])),
      // The first value of each name, as received (a provider may sign one: Mercado Pago's data.id).
      query: Object.fromEntries([...new URL(request.url, "http://callback").searchParams].reverse())
    })
  )

export const CallbackHandlers = HttpApiBuilder.group(Api, "callbacks", (handlers) =>
  Effect.gen(function*() {
    const payments = yield* Payments
    const payouts = yield* Payouts
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers
      .handleRaw("providerCallback", ({ params, request }) =>
        documented("callbacks.providerCallback", Effect.gen(function*() {
          const { headers, query, rawBody } = yield* callbackOf(request)
          return { received: true, applied: yield* payments.handleCallback(params.providerId, headers, rawBody, query) }
        })))
      .handleRaw("payoutCallback", ({ params, request }) =>
        documented("callbacks.payoutCallback", Effect.gen(function*() {
          const { headers, rawBody } = yield* callbackOf(request)
          return { received: true, applied: yield* payouts.handleCallback(params.providerId, headers, rawBody) }
        })))
  }))

export const BalanceHandler = Effect.gen(function*() {
  const balances = yield* Balances
  const scopes = yield* Scopes
  return ({ query }: { readonly query: { readonly shopId?: string | undefined } }) =>
    Effect.flatMap(CurrentPrincipal, (principal) => scopes.within(principal, { shopId: query.shopId }, (scope) => balances.summary(scope)))
})
