/**
 * Creating a payment: checks, pricing, the routing cascade and the record; and recording money
 * that already arrived (a transfer to a deposit account) as a completed pay-in.
 */
import { BigDecimal, DateTime, Effect, Option } from "effect"
import { apiError, invalidRequest } from "../ApiError.ts"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import * as Country from "../Country.ts"
import { baseUrlOf, EngineConfig } from "../EngineConfig.ts"
import { Fx } from "../fx/Fx.ts"
import { Ids } from "../Ids.ts"
import { Jobs } from "../jobs/Jobs.ts"
import * as Money from "../Money.ts"
import type { SandboxSimulate } from "../ports/PaymentProvider.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { Transactions } from "../ports/Transactions.ts"
import type { Scope } from "../tenancy/Scopes.ts"
import { missingFor } from "./BuyerData.ts"
import { cascade } from "./Cascade.ts"
import { limitError, makeChecks } from "./Checks.ts"
import { JobKinds, type Lifecycle } from "./Lifecycle.ts"
import type { Payment } from "./Payment.ts"
import * as Pricing from "./Pricing.ts"
import { noProviderReason, Routing } from "./Routing.ts"

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

export const makeCreate = (lifecycle: Lifecycle) =>
  Effect.gen(function*() {
    const store = yield* PaymentStore
    const routing = yield* Routing
    const fx = yield* Fx
    const ids = yield* Ids
    const jobs = yield* Jobs
    const tx = yield* Transactions
    const config = yield* EngineConfig
    const { headline, checkLimits, resolveMethod } = yield* makeChecks
    const { applyUpdate, moveOnce } = lifecycle

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

    return { create, recordIncoming, headline }
  })
