/**
 * Pay-ins: create a payment through the routing cascade, read and list payments, and move them
 * through their life cycle (provider callbacks, the reconcile poll, expiry, sandbox outcomes,
 * settlement). Every status change goes through the pure state machine and is written with an
 * optimistic version check in one transaction together with its ledger entry, its events and
 * its follow-up jobs.
 */
import { BigDecimal, Clock, Context, DateTime, Duration, Effect, Layer, Option, Result, Schema } from "effect"
import { type ApiError, apiError, invalidRequest, notFound } from "../ApiError.ts"
import { Catalog } from "../catalog/Catalog.ts"
import { missingFor } from "./BuyerData.ts"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import * as Country from "../Country.ts"
import { baseUrlOf, EngineConfig } from "../EngineConfig.ts"
import { type Conversion, Fx } from "../fx/Fx.ts"
import { Ids } from "../Ids.ts"
import { Jobs } from "../jobs/Jobs.ts"
import type { JournalEntry } from "../ledger/Journal.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { LedgerStore } from "../ports/LedgerStore.ts"
import * as Money from "../Money.ts"
import {
  type ChargeAccepted,
  type ChargeUpdate,
  type PaymentProvider,
  ProviderError,
  type SandboxSimulate
} from "../ports/PaymentProvider.ts"
import { type PaymentFilter, PaymentStore } from "../ports/PaymentStore.ts"
import { Conflict, Transactions } from "../ports/Transactions.ts"
import { Events, paymentEvent } from "../webhooks/Events.ts"
import { Claims } from "../claims/Claims.ts"
import { ProviderRegistry } from "./ProviderRegistry.ts"
import type { Scope } from "../tenancy/Scopes.ts"
import type { Attempt, Payment } from "./Payment.ts"
import { type PaymentEvent, transition } from "./PaymentState.ts"
import { readView } from "./PaymentView.ts"
import * as Pricing from "./Pricing.ts"
import { noProviderReason, Routing } from "./Routing.ts"

/** The USD headline of one payment may not exceed this (spec 8). */
export const maxPaymentUsd = Money.decimal("100000")

/** Pending payments older than this are asked about by the reconcile poll. */
export const reconcileAfter = Duration.minutes(2)
export const reconcileEvery = Duration.minutes(5)

export interface CreatePayment {
  /** The transaction id to use (hosted checkout reserves it before charging); new when absent. */
  readonly id?: string | undefined
  readonly amount: BigDecimal.BigDecimal
  readonly currency?: string | undefined
  readonly paymentMethodId?: string | undefined
  readonly paymentMethod?: string | undefined
  readonly country?: string | undefined
  readonly userName?: string | undefined
  readonly userEmail?: string | undefined
  readonly documentId?: string | undefined
  readonly userPhone?: string | undefined
  readonly userIp?: string | undefined
  readonly merchantOrderId?: string | undefined
  readonly tag1?: string | undefined
  readonly tag2?: string | undefined
  readonly tag3?: string | undefined
  readonly hostedCheckout?: boolean | undefined
  readonly returnUrl?: string | undefined
  readonly simulate?: SandboxSimulate | undefined
}

export interface IncomingPayment {
  readonly amountLocal: BigDecimal.BigDecimal
  readonly currencyLocal: string
  /** The catalog rail whose pricing applies (e.g. Mexico SPEI for a CLABE deposit). */
  readonly method: PaymentMethodDef
  /** Who received the money (`provider` on the payment), and its reference for the transfer. */
  readonly receiver: string
  readonly reference: string
  readonly userName: string
  readonly userEmail: string
}

export const JobKinds = {
  expire: "payment.expire",
  settle: "payment.settle",
  releaseReserve: "payment.release_reserve",
  reconcile: "payment.reconcile",
  sandboxOutcome: "payment.sandbox_outcome"
} as const

const PaymentJobPayload = Schema.Struct({ paymentId: Schema.String })
const SandboxOutcomePayload = Schema.Struct({
  paymentId: Schema.String,
  status: Schema.Literals(["completed", "failed"])
})

const toEvent = (status: ChargeUpdate["status"]): PaymentEvent | undefined => {
  switch (status) {
    case "completed":
      return "confirmed"
    case "failed":
      return "failed"
    case "expired":
      return "expired"
    case "chargeback":
      return "chargeback_opened"
    default:
      // `pending` changes nothing; refunds are driven by the engine's own refund flow.
      return undefined
  }
}

export class Payments extends Context.Service<Payments, {
  readonly create: (scope: Scope, input: CreatePayment) => Effect.Effect<Payment, ApiError>
  /**
   * Records money that already arrived (a bank transfer to a deposit account) as a completed
   * pay-in: the payment, its ledger entry and its events, in the caller's transaction.
   */
  readonly recordIncoming: (scope: Scope, input: IncomingPayment) => Effect.Effect<Payment, ApiError>
  /** Validates an amount in a presentment currency (default USD) and converts it to the USD headline. */
  readonly headline: (
    amount: BigDecimal.BigDecimal,
    currency: string | undefined
  ) => Effect.Effect<{ readonly currency: string; readonly conversion: Conversion }, ApiError>
  readonly get: (scope: Pick<Scope, "environment" | "shop">, id: string) => Effect.Effect<Payment, ApiError>
  readonly list: (
    scope: Pick<Scope, "environment" | "shop">,
    filter: PaymentFilter,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Payment>; readonly total: number }>
  /** Applies a provider's word about a charge (callback, poll or sandbox); idempotent. */
  readonly applyUpdate: (paymentId: string, update: ChargeUpdate) => Effect.Effect<Option.Option<Payment>>
  /** Verifies and applies a provider callback; `CallbackRejected` (401) changes nothing. */
  readonly handleCallback: (
    providerId: string,
    headers: Readonly<Record<string, string | undefined>>,
    rawBody: string
  ) => Effect.Effect<number, ApiError>
  /**
   * One pass of the reconcile poll: asks providers about pending payments created more than
   * `olderThan` ago (default 2 minutes); answers how many moved.
   */
  readonly reconcile: (olderThan?: Duration.Duration) => Effect.Effect<number>
}>()("core/payments/Payments") {
  static readonly layer = Layer.effect(
    Payments,
    Effect.gen(function*() {
      const store = yield* PaymentStore
      const catalog = yield* Catalog
      const routing = yield* Routing
      const registry = yield* ProviderRegistry
      const fx = yield* Fx
      const ids = yield* Ids
      const jobs = yield* Jobs
      const ledger = yield* Ledger
      const ledgerStore = yield* LedgerStore
      const events = yield* Events
      const claims = yield* Claims
      const tx = yield* Transactions
      const config = yield* EngineConfig

      const emit = (p: Payment, type: string) => events.emit(paymentEvent(p, type, readView(p)))

      // ---- creation -------------------------------------------------------------------------

      const resolveMethod = Effect.fnUntraced(function*(scope: Scope, input: CreatePayment, countryIso3: string | undefined) {
        if (input.paymentMethodId !== undefined) {
          const method = catalog.find(scope.environment, input.paymentMethodId)
          if (method === undefined) {
            return yield* apiError("cascade_exhausted", `Unknown payment method '${input.paymentMethodId}': take ids from GET /payment-methods`, {
              reason: "unknown_payment_method",
              paymentMethodEnabledForShop: false
            })
          }
          return method
        }
        if (input.paymentMethod !== undefined) {
          // Legacy: route by slug within the country bucket, to the first rail a provider serves.
          const iso2 = Option.getOrUndefined(Country.toIso2(countryIso3 ?? "USA"))
          const bucket = catalog.methods(scope.environment).filter((m) => m.method === input.paymentMethod && m.country === iso2)
          const route = yield* routing.routerFor(scope.environment, scope.shop.id)
          const method = bucket.find((m) => route(m).length > 0)
          if (method === undefined) {
            return yield* apiError("cascade_exhausted", `No provider serves '${input.paymentMethod}' in ${countryIso3 ?? "USA"}`, {
              reason: noProviderReason,
              paymentMethodEnabledForShop: false
            })
          }
          return method
        }
        return yield* invalidRequest("paymentMethodId is required", [{ path: "paymentMethodId", message: "Missing key" }], [
          "paymentMethodId"
        ])
      })

      const limitError = (message: string, details: Record<string, unknown>) => apiError("amount_out_of_limits", message, details)

      const checkLimits = (method: PaymentMethodDef, usd: BigDecimal.BigDecimal, local: BigDecimal.BigDecimal, localCurrency: string) =>
        Effect.gen(function*() {
          const limit = method.currencyLimits.find((l) => l.currency === localCurrency)
          if (limit !== undefined && !BigDecimal.between(local, { minimum: Money.decimal(limit.min), maximum: Money.decimal(limit.max) })) {
            return yield* limitError(
              `${method.name} accepts ${limit.min} to ${limit.max} ${localCurrency}; this payment is ${Money.toText(local)} ${localCurrency}`,
              { currency: localCurrency, min: Number(limit.min), max: Number(limit.max), amountLocal: Money.toJsonNumber(local) }
            )
          }
          const minUsd = method.minTxUsd === null ? undefined : Money.decimal(method.minTxUsd)
          const maxUsd = method.maxTxUsd === null ? undefined : Money.decimal(method.maxTxUsd)
          if ((minUsd !== undefined && BigDecimal.isLessThan(usd, minUsd)) || (maxUsd !== undefined && BigDecimal.isGreaterThan(usd, maxUsd))) {
            return yield* limitError(`${method.name} accepts ${method.minTxUsd ?? "0"} to ${method.maxTxUsd ?? "any"} USD`, {
              currency: "USD",
              min: minUsd === undefined ? null : Money.toJsonNumber(minUsd),
              max: maxUsd === undefined ? null : Money.toJsonNumber(maxUsd),
              amountUsd: Money.toJsonNumber(usd)
            })
          }
        })

      /** Validates an amount in a presentment currency and converts it to the USD headline. */
      const headline = Effect.fnUntraced(function*(amount: BigDecimal.BigDecimal, currencyInput: string | undefined) {
        const currency = currencyInput === undefined ? Option.some("USD") : Money.normalizeCurrency(currencyInput)
        if (Option.isNone(currency)) {
          return yield* invalidRequest(`Unknown currency '${currencyInput}'`, [{ path: "currency", message: "Expected an ISO 4217 currency code" }])
        }
        if (!BigDecimal.isPositive(amount)) {
          return yield* invalidRequest("amount must be greater than 0", [{ path: "amount", message: "Expected a number greater than 0" }])
        }
        if (!Money.fitsExponent(amount, currency.value)) {
          return yield* invalidRequest(`amount has more decimals than ${currency.value} allows`, [{
            path: "amount",
            message: `Expected at most ${Money.exponent(currency.value)} decimals`
          }])
        }
        const conversion = yield* fx.toUsd(amount, currency.value)
        if (BigDecimal.isGreaterThan(conversion.converted, maxPaymentUsd)) {
          return yield* limitError(`The USD amount ${Money.toText(conversion.converted)} is above the limit of 100000 USD`, {
            amountUsd: Money.toJsonNumber(conversion.converted),
            maxUsd: 100000
          })
        }
        return { currency: currency.value, conversion }
      })

      /** Tries the providers in order; moves on after a retryable failure only. */
      const cascade = Effect.fnUntraced(function*(
        providers: ReadonlyArray<PaymentProvider>,
        charge: (provider: PaymentProvider) => Effect.Effect<ChargeAccepted, ProviderError>
      ) {
        const attempts: Array<Attempt> = []
        for (const provider of providers) {
          const started = yield* Clock.currentTimeMillis
          const result = yield* charge(provider).pipe(
            Effect.timeoutOrElse({
              duration: Duration.seconds(30),
              orElse: () =>
                Effect.fail(new ProviderError({ providerId: provider.id, retryable: true, reason: "timeout", message: "no answer in 30 s" }))
            }),
            Effect.result
          )
          const latencyMs = (yield* Clock.currentTimeMillis) - started
          const at = yield* DateTime.now
          if (Result.isSuccess(result)) {
            attempts.push({ provider: provider.id, outcome: "accepted", latencyMs, reason: null, at })
            return { provider, accepted: result.success, attempts }
          }
          const error = result.failure
          attempts.push({ provider: provider.id, outcome: error.retryable ? "failed" : "declined", latencyMs, reason: error.reason, at })
          yield* Effect.logWarning(`provider ${provider.id} ${error.retryable ? "failed" : "declined"}: ${error.reason}`)
          if (!error.retryable) {
            return yield* apiError("cascade_exhausted", `The provider declined the payment: ${error.message}`, {
              reason: "provider_declined",
              providerReason: error.reason,
              paymentMethodEnabledForShop: true,
              attempts: attempts.map((a) => ({ provider: a.provider, outcome: a.outcome, latencyMs: a.latencyMs, reason: a.reason }))
            })
          }
        }
        return yield* apiError("cascade_exhausted", "Every provider for this method failed; retry later", {
          reason: "all_providers_failed",
          paymentMethodEnabledForShop: true,
          attempts: attempts.map((a) => ({ provider: a.provider, outcome: a.outcome, latencyMs: a.latencyMs, reason: a.reason }))
        })
      })

      const create = Effect.fn("Payments.create")(function*(scope: Scope, input: CreatePayment) {
        const country = input.country === undefined ? undefined : Country.toIso3(input.country)
        if (country !== undefined && Option.isNone(country)) {
          return yield* invalidRequest(`Unknown country '${input.country}'`, [{ path: "country", message: "Expected an ISO-2 or ISO-3 country code" }])
        }
        const countryIso3 = country === undefined ? undefined : country.value
        const method = yield* resolveMethod(scope, input, countryIso3)
        if (input.hostedCheckout === true) {
          const missing = missingFor({
            userName: input.userName ?? null,
            email: input.userEmail ?? null,
            documentId: input.documentId ?? null,
            phone: input.userPhone ?? null
          }, method)
          if (missing.length > 0) {
            return yield* apiError("missing_required_fields", `The hosted-checkout flow needs ${missing.join(", ")}`, { missingFields: missing })
          }
        }
        const methodCountry = Option.getOrThrow(Country.toIso3(method.country))
        if (countryIso3 !== undefined && countryIso3 !== methodCountry) {
          return yield* invalidRequest(`Payment method ${method.id} is in ${methodCountry}, not ${countryIso3}`, [{
            path: "country",
            message: `Expected ${methodCountry} (the payment method's country) or nothing`
          }])
        }

        const { conversion: toUsd, currency } = yield* headline(input.amount, input.currency)
        const usd = toUsd.converted
        const localCurrency = method.currencies[0]!
        const toLocal = yield* fx.fromUsd(usd, localCurrency)
        yield* checkLimits(method, usd, toLocal.converted, localCurrency)
        const fees = Pricing.fees(usd, method, scope.merchant.tier)
        const settlement = Pricing.settlement(usd, method, scope.merchant.tier)
        if (!BigDecimal.isPositive(Pricing.net(usd, fees, settlement))) {
          return yield* limitError(`${Money.toText(usd)} USD does not cover the fees of ${Money.toText(fees.total)} USD`, {
            amountUsd: Money.toJsonNumber(usd),
            feesUsd: Money.toJsonNumber(fees.total)
          })
        }

        const providers = yield* routing.candidates(scope.environment, scope.shop.id, method)
        if (providers.length === 0) {
          return yield* apiError("cascade_exhausted", `No provider is configured for ${method.name} (${method.id}) on this shop`, {
            reason: noProviderReason,
            paymentMethodEnabledForShop: false
          })
        }

        const id = input.id ?? (yield* ids.next("transaction"))
        const createdAt = yield* DateTime.now
        const simulate = scope.environment === "sandbox" ? input.simulate : undefined
        const expiresAt = simulate === "expired" ? createdAt : DateTime.add(createdAt, { minutes: method.expiresInMinutes })
        const routed = yield* cascade(providers, (provider) =>
          provider.charge({
            transactionId: id,
            idempotencyKey: `${id}:${provider.id}`,
            environment: scope.environment,
            method,
            amount: toLocal.converted,
            currency: localCurrency,
            country: method.country,
            customer: { name: input.userName, email: input.userEmail, documentId: input.documentId, phone: input.userPhone, ip: input.userIp },
            expiresAt: DateTime.toDateUtc(expiresAt),
            callbackUrl: `${baseUrlOf(config)}/providers/${encodeURIComponent(provider.id)}/callbacks`,
            simulate
          }))

        const payment: Payment = {
          id,
          environment: scope.environment,
          merchantId: scope.merchant.id,
          shopId: scope.shop.id,
          status: "pending",
          amount: usd,
          inputCurrency: currency === "USD" ? null : currency,
          inputAmount: currency === "USD" ? null : input.amount,
          amountLocal: toLocal.converted,
          currencyLocal: localCurrency,
          paymentMethodId: method.id,
          method: method.method,
          methodName: method.name,
          channel: method.channel,
          country: methodCountry,
          provider: routed.provider.id,
          providerRef: routed.accepted.providerRef,
          paymentFormUrl: routed.accepted.paymentFormUrl,
          paymentData: routed.accepted.paymentData,
          fees,
          settlement,
          fx: {
            presentment: currency === "USD" ? null : { currency, midPerUsd: toUsd.midPerUsd, rate: toUsd.rate },
            local: { currency: localCurrency, midPerUsd: toLocal.midPerUsd, rate: toLocal.rate },
            markupPct: config.fxMarkupPct
          },
          attempts: routed.attempts,
          merchantOrderId: input.merchantOrderId ?? null,
          tag1: input.tag1 ?? null,
          tag2: input.tag2 ?? null,
          tag3: input.tag3 ?? null,
          userName: input.userName ?? null,
          userEmail: input.userEmail ?? null,
          userPhone: input.userPhone ?? null,
          userIp: input.userIp ?? null,
          hostedCheckout: input.hostedCheckout === true,
          returnUrl: input.returnUrl ?? null,
          simulate: simulate ?? null,
          failureReason: null,
          expiresAt,
          createdAt,
          updatedAt: createdAt,
          completedAt: null,
          version: 1
        }

        yield* tx.run(Effect.gen(function*() {
          yield* store.insert(payment)
          yield* jobs.enqueue(JobKinds.expire, { paymentId: id }, { runAt: expiresAt, dedupeKey: `${JobKinds.expire}:${id}` })
          const outcome = simulate === "paid" || simulate === "chargeback" ? "completed" : simulate === "failed" ? "failed" : undefined
          if (outcome !== undefined) {
            yield* jobs.enqueue(JobKinds.sandboxOutcome, { paymentId: id, status: outcome }, { dedupeKey: `${JobKinds.sandboxOutcome}:${id}` })
          }
        }))
        if (routed.accepted.status !== "pending") {
          return Option.getOrElse(yield* applyUpdate(id, { providerRef: routed.accepted.providerRef, status: routed.accepted.status }), () => payment)
        }
        return payment
      })

      const recordIncoming = Effect.fn("Payments.recordIncoming")(function*(scope: Scope, input: IncomingPayment) {
        const toUsd = yield* fx.toUsd(input.amountLocal, input.currencyLocal)
        const usd = toUsd.converted
        const fees = Pricing.fees(usd, input.method, scope.merchant.tier)
        const settlement = Pricing.settlement(usd, input.method, scope.merchant.tier)
        if (!BigDecimal.isPositive(Pricing.net(usd, fees, settlement))) {
          return yield* limitError(`${Money.toText(input.amountLocal)} ${input.currencyLocal} does not cover the fees`, {
            amountUsd: Money.toJsonNumber(usd),
            feesUsd: Money.toJsonNumber(fees.total)
          })
        }
        const id = yield* ids.next("transaction")
        const at = yield* DateTime.now
        const payment: Payment = {
          id,
          environment: scope.environment,
          merchantId: scope.merchant.id,
          shopId: scope.shop.id,
          status: "pending",
          amount: usd,
          inputCurrency: null,
          inputAmount: null,
          amountLocal: input.amountLocal,
          currencyLocal: input.currencyLocal,
          paymentMethodId: input.method.id,
          method: input.method.method,
          methodName: input.method.name,
          channel: input.method.channel,
          country: Option.getOrThrow(Country.toIso3(input.method.country)),
          provider: input.receiver,
          providerRef: input.reference,
          paymentFormUrl: "",
          paymentData: { method: input.method.method, reference: input.reference },
          fees,
          settlement,
          fx: {
            presentment: null,
            local: { currency: input.currencyLocal, midPerUsd: toUsd.midPerUsd, rate: toUsd.rate },
            markupPct: config.fxMarkupPct
          },
          attempts: [],
          merchantOrderId: null,
          tag1: null,
          tag2: null,
          tag3: null,
          userName: input.userName,
          userEmail: input.userEmail,
          userPhone: null,
          userIp: null,
          hostedCheckout: false,
          returnUrl: null,
          simulate: null,
          failureReason: null,
          expiresAt: at,
          createdAt: at,
          updatedAt: at,
          completedAt: null,
          version: 1
        }
        return yield* tx.run(Effect.gen(function*() {
          yield* store.insert(payment)
          const completed = yield* moveOnce(id, { providerRef: input.reference, status: "completed" })
          return Option.getOrElse(completed, () => payment)
        })).pipe(Effect.catchTag("Conflict", () => Effect.die(new Error(`payment ${id}: concurrent update while recording`))))
      })

      // ---- reads ----------------------------------------------------------------------------

      const get = Effect.fn("Payments.get")(function*(scope: Pick<Scope, "environment" | "shop">, id: string) {
        const found = yield* store.find(scope.environment, scope.shop.id, id)
        if (Option.isNone(found)) return yield* notFound("payment", id)
        return found.value
      })

      const list = (scope: Pick<Scope, "environment" | "shop">, filter: PaymentFilter, page: { readonly limit: number; readonly offset: number }) =>
        store.list(scope.environment, scope.shop.id, filter, page)

      // ---- life cycle -----------------------------------------------------------------------

      const completionEntry = (p: Payment, createdAt: DateTime.Utc): Effect.Effect<JournalEntry> =>
        Effect.map(ids.next("journal"), (id) => {
          const net = Pricing.net(p.amount, p.fees, p.settlement)
          const platformPercent = BigDecimal.subtract(p.fees.platform, p.fees.platformFlat)
          return {
            id,
            environment: p.environment,
            shopId: p.shopId,
            kind: "payment.completed",
            reference: p.id,
            createdAt,
            postings: [
              { book: "provider_clearing", currency: "USD", amount: BigDecimal.negate(p.amount) },
              { book: "payin_pending", currency: "USD", amount: net },
              { book: "payin_reserve", currency: "USD", amount: p.settlement.reserve },
              { book: "fees_platform", currency: "USD", amount: platformPercent },
              { book: "fees_flat", currency: "USD", amount: p.fees.platformFlat },
              { book: "fees_provider", currency: "USD", amount: BigDecimal.sum(p.fees.provider, p.fees.network) }
            ]
          }
        })

      /** Writes the next version of a payment, or fails with `Conflict`. */
      const save = (next: Payment) =>
        Effect.flatMap(store.update(next), (written) => written ? Effect.void : Effect.fail(new Conflict()))

      const moveOnce = (paymentId: string, update: ChargeUpdate) =>
        tx.run(Effect.gen(function*() {
          const found = yield* store.findById(paymentId)
          if (Option.isNone(found)) return Option.none<Payment>()
          const p = found.value
          const event = toEvent(update.status)
          if (event === undefined) return Option.some(p)
          const step = transition(p.status, event)
          if (Result.isFailure(step)) {
            yield* Effect.logWarning(`payment ${p.id}: ${update.status} refused in status ${p.status}`)
            return Option.some(p)
          }
          if (step.success._tag === "Unchanged") return Option.some(p)
          const at = yield* DateTime.now
          const base: Payment = { ...p, status: step.success.to, updatedAt: at, version: p.version + 1 }
          switch (event) {
            case "confirmed": {
              const next: Payment = { ...base, completedAt: at }
              yield* save(next)
              yield* ledger.post(yield* completionEntry(next, at)).pipe(Effect.orDie)
              yield* emit(next, "payment.completed")
              if (next.environment === "sandbox") yield* emit(next, "payment.captured")
              yield* jobs.enqueue(JobKinds.settle, { paymentId: next.id }, {
                runAt: DateTime.add(at, { days: next.settlement.delayDays }),
                dedupeKey: `${JobKinds.settle}:${next.id}`
              })
              if (BigDecimal.isPositive(next.settlement.reserve)) {
                yield* jobs.enqueue(JobKinds.releaseReserve, { paymentId: next.id }, {
                  runAt: DateTime.add(at, { days: next.settlement.reserveReleaseDays }),
                  dedupeKey: `${JobKinds.releaseReserve}:${next.id}`
                })
              }
              return Option.some(next)
            }
            case "failed":
            case "expired": {
              const next: Payment = {
                ...base,
                settlement: { ...base.settlement, status: "none", reserve: Money.zero },
                failureReason: update.detail ?? (event === "expired" ? "expired" : "failed")
              }
              yield* save(next)
              yield* emit(next, "payment.failed")
              return Option.some(next)
            }
            case "chargeback_opened": {
              yield* claims.openChargeback(p.id, update.detail ?? `chargeback reported by ${p.provider}`)
              return yield* store.findById(p.id)
            }
            default: {
              // Refunds move money through the engine's own refund claims, not on a provider's word.
              yield* Effect.logWarning(`payment ${p.id}: ${event} from a provider is not applied`)
              return Option.some(p)
            }
          }
        }))

      const applyUpdate = (paymentId: string, update: ChargeUpdate) =>
        moveOnce(paymentId, update).pipe(
          Effect.retry({ while: (e) => e._tag === "Conflict", times: 5 }),
          Effect.catchTag("Conflict", () => Effect.die(new Error(`payment ${paymentId}: too many concurrent updates`))),
          Effect.withSpan("Payments.applyUpdate")
        )

      const handleCallback = Effect.fn("Payments.handleCallback")(function*(
        providerId: string,
        headers: Readonly<Record<string, string | undefined>>,
        rawBody: string
      ) {
        const provider = yield* registry.get(providerId)
        if (Option.isNone(provider)) return yield* notFound("provider", providerId)
        const updates = yield* provider.value.verifyCallback(headers, rawBody).pipe(
          Effect.mapError((e) => apiError("authentication_failed", `Callback rejected: ${e.reason}`))
        )
        let applied = 0
        for (const update of updates) {
          if (update.transactionId === undefined) continue
          const found = yield* store.findById(update.transactionId)
          // Only the provider that holds the charge may speak about it.
          if (Option.isNone(found) || found.value.provider !== providerId || found.value.providerRef !== update.providerRef) continue
          yield* applyUpdate(update.transactionId, update)
          applied++
        }
        return applied
      })

      const reconcile = (olderThan: Duration.Duration = reconcileAfter) => Effect.gen(function*() {
        const cutoff = DateTime.subtract(yield* DateTime.now, { milliseconds: Duration.toMillis(olderThan) })
        const pending = yield* store.pendingCreatedBefore(cutoff, 200)
        let moved = 0
        for (const p of pending) {
          const provider = yield* registry.get(p.provider)
          if (Option.isNone(provider)) continue
          const status = yield* provider.value.status(p.providerRef, p.id).pipe(
            Effect.tapError((e) => Effect.logWarning(`reconcile ${p.id}: ${e.message}`)),
            Effect.option
          )
          if (Option.isNone(status) || status.value.status === "pending") continue
          const after = yield* applyUpdate(p.id, status.value)
          if (Option.isSome(after) && after.value.status !== p.status) moved++
        }
        return moved
      }).pipe(Effect.withSpan("Payments.reconcile"))

      // ---- jobs -----------------------------------------------------------------------------

      const decodeJob = Schema.decodeUnknownEffect(PaymentJobPayload)
      yield* jobs.handle(JobKinds.expire, (payload) =>
        Effect.flatMap(decodeJob(payload), ({ paymentId }) =>
          Effect.gen(function*() {
            const found = yield* store.findById(paymentId)
            if (Option.isNone(found) || found.value.status !== "pending") return
            // The provider may have been paid at the last moment: ask before expiring.
            const provider = yield* registry.get(found.value.provider)
            const status = Option.isNone(provider) ? Option.none() : yield* provider.value.status(found.value.providerRef, paymentId).pipe(Effect.option)
            if (Option.isSome(status) && status.value.status === "completed") {
              yield* applyUpdate(paymentId, status.value)
              return
            }
            yield* applyUpdate(paymentId, { providerRef: found.value.providerRef, status: "expired", detail: "expired" })
          })))

      yield* jobs.handle(JobKinds.sandboxOutcome, (payload) =>
        Effect.flatMap(Schema.decodeUnknownEffect(SandboxOutcomePayload)(payload), ({ paymentId, status }) =>
          Effect.gen(function*() {
            const found = yield* store.findById(paymentId)
            if (Option.isNone(found)) return
            const after = yield* applyUpdate(paymentId, {
              providerRef: found.value.providerRef,
              status,
              detail: status === "failed" ? "sandbox: simulated failure" : undefined
            })
            if (found.value.simulate === "chargeback" && Option.isSome(after) && after.value.status === "completed") {
              yield* claims.openChargeback(paymentId, "sandbox: simulated chargeback")
            }
          })))

      yield* jobs.handle(JobKinds.settle, (payload) =>
        Effect.flatMap(decodeJob(payload), ({ paymentId }) =>
          tx.run(Effect.gen(function*() {
            const found = yield* store.findById(paymentId)
            if (Option.isNone(found) || found.value.settlement.status !== "pending" || found.value.completedAt === null) return
            const p = found.value
            const at = yield* DateTime.now
            const net = Pricing.net(p.amount, p.fees, p.settlement)
            yield* save({ ...p, settlement: { ...p.settlement, status: "settled", settledAt: at }, updatedAt: at, version: p.version + 1 })
            yield* ledger.post({
              id: yield* ids.next("journal"),
              environment: p.environment,
              shopId: p.shopId,
              kind: "payment.settled",
              reference: p.id,
              createdAt: at,
              postings: [
                { book: "payin_pending", currency: "USD", amount: BigDecimal.negate(net) },
                { book: "payin_available", currency: "USD", amount: net }
              ]
            }).pipe(Effect.orDie)
          }))))

      // The rolling reserve of a payment goes to available after the tier's holding period; what
      // a refund or chargeback already took from the reserve is not released twice.
      yield* jobs.handle(JobKinds.releaseReserve, (payload) =>
        Effect.flatMap(decodeJob(payload), ({ paymentId }) =>
          tx.run(Effect.gen(function*() {
            const found = yield* store.findById(paymentId)
            if (Option.isNone(found) || found.value.settlement.reserveReleasedAt !== null) return
            const p = found.value
            const at = yield* DateTime.now
            const held = yield* ledgerStore.balance(p.environment, p.shopId, "payin_reserve", "USD")
            const amount = BigDecimal.min(held, p.settlement.reserve)
            yield* save({ ...p, settlement: { ...p.settlement, reserveReleasedAt: at }, updatedAt: at, version: p.version + 1 })
            yield* ledger.post({
              id: yield* ids.next("journal"),
              environment: p.environment,
              shopId: p.shopId,
              kind: "reserve.released",
              reference: p.id,
              createdAt: at,
              postings: [
                { book: "payin_reserve", currency: "USD", amount: BigDecimal.negate(amount) },
                { book: "payin_available", currency: "USD", amount }
              ]
            }).pipe(Effect.orDie)
          }))))

      yield* jobs.handle(JobKinds.reconcile, () => Effect.asVoid(reconcile()))
      // Every worker tick proposes the poll of the current 5-minute slot; the dedupe key makes it
      // run once per slot whatever the number of replicas.
      yield* jobs.onTick(Effect.gen(function*() {
        const slot = Math.floor((yield* Clock.currentTimeMillis) / Duration.toMillis(reconcileEvery))
        yield* jobs.enqueue(JobKinds.reconcile, {}, { dedupeKey: `${JobKinds.reconcile}:${slot}` })
      }))

      return Payments.of({ create, recordIncoming, headline, get, list, applyUpdate, handleCallback, reconcile })
    })
  )
}

