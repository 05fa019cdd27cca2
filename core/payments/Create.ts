/**
 * Creating a payment, exactly once (docs/architecture.md, "Exactly-once with upstreams"): checks and pricing,
 * then (1) one transaction writes the record `initiated` with its first attempt in flight and
 * binds the client's `Idempotency-Key` to it; (2) the routing cascade calls each provider with
 * the key `<transactionId>:<providerId>`, writing each attempt ahead; (3) one transaction applies
 * the answer (pending with its timers, or failed). A retry of the key, or the recovery job,
 * continues an interrupted record with the same keys (`resume`).
 *
 * The cascade moves to the next provider only after an answer that left nothing behind. A
 * provider that gave no answer about the charge (a timeout) may hold it: the record stays
 * `initiated` with that attempt `unknown`, the request answers 503 `provider_outcome_unknown`
 * with its key kept, and only that provider is asked again, with the same key, until it says
 * accepted or declined (or the payment expires: `abandon`).
 */
import * as Metrics from "../Metrics.ts"
import { BigDecimal, DateTime, Duration, Effect, Option, Result } from "effect"
import { apiError, type ApiErrorOf, catchCode, invalidRequest } from "../ApiError.ts"
import { merchantUrlProblem } from "../MerchantUrl.ts"
import { Catalog } from "../catalog/Catalog.ts"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import * as Country from "../Country.ts"
import { EngineConfig } from "../EngineConfig.ts"
import { Fx } from "../fx/Fx.ts"
import { completionOf, Executed } from "../idempotency/Idempotency.ts"
import { Ids } from "../Ids.ts"
import { Jobs } from "../jobs/Jobs.ts"
import * as Money from "../Money.ts"
import type { KeyCompletion } from "../ports/IdempotencyStore.ts"
import type { ChargeAccepted, PaymentProvider } from "../ports/PaymentProvider.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { makeLearning } from "./Learn.ts"
import { type Conflict, Transactions } from "../ports/Transactions.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { checkDocument } from "../DocumentNumbers.ts"
import { type BuyerData, lacking, missingFor, neededByAll, providerNeeds } from "./BuyerData.ts"
import { callbackUrlOf, chargeRequestOf, type Forwarded } from "./Upstream.ts"
import { cascadeError, inFlight, open, outcomeUnknownError, type Route, tryProvider } from "./Cascade.ts"
import type { CreatePayment, PaymentKey, RouteCode } from "./CreateInput.ts"

export type { CreatePayment, PaymentKey, RouteCode } from "./CreateInput.ts"
import { limitError, makeChecks } from "./Checks.ts"
import { expireJob, JobKinds, type Lifecycle } from "./Lifecycle.ts"
import type { Attempt, Payment } from "./Payment.ts"
import * as PaymentState from "./PaymentState.ts"
import type { PaymentChanges, PaymentEvent } from "./PaymentState.ts"
import { linkTokenBytes } from "./PaymentView.ts"
import * as Pricing from "./Pricing.ts"
import { ProviderRegistry } from "../ports/ProviderRegistry.ts"
import { noProviderReason, type Planned, Routing } from "../routing/Routing.ts"
import type { Skipped } from "../routing/Skips.ts"

/**
 * A record still `initiated` this long after its creation has no execution left (a cascade is
 * bounded by 30 s per provider): the recovery job continues it.
 */
export const recoverAfter = Duration.minutes(5)

/**
 * Whether the expiry timer is enqueued when a provider accepts rather than written ahead: only for
 * a payment that expires at once (the sandbox's `simulate: expired`), which must not find itself
 * still being routed.
 */
const timersAtAccept = (p: Payment) => !DateTime.isGreaterThan(p.expiresAt, p.createdAt)

export const makeCreate = Effect.fnUntraced(function*(lifecycle: Lifecycle) {
  const store = yield* PaymentStore
  const routing = yield* Routing
  const fx = yield* Fx
  const ids = yield* Ids
  const jobs = yield* Jobs
  const tx = yield* Transactions
  const config = yield* EngineConfig
  const { headline, checkLimits, resolveMethod } = yield* makeChecks
  const { applyUpdate } = lifecycle
  const catalog = yield* Catalog
  const registry = yield* ProviderRegistry
  const learn = yield* makeLearning

  const chargeRequest = (p: Payment, method: PaymentMethodDef, provider: PaymentProvider, forwarded: Forwarded) =>
    chargeRequestOf(p, method, provider, forwarded, callbackUrlOf(config, provider.id))

  /**
   * Writes the next version of a record still being routed (`routed` and `failed` move its
   * status), with the key's response when it is the last write.
   */
  const advance = Effect.fnUntraced(function*(p: Payment, changes: PaymentChanges, options: { readonly event?: PaymentEvent; readonly completes?: ((next: Payment) => KeyCompletion) | undefined } = {}) {
    const next = yield* Effect.orDie(Effect.fromResult(PaymentState.advance(p, yield* DateTime.now, changes, options.event)))
    yield* lifecycle.save(next, options.completes?.(next))
    return next
  })

  const withLast = (attempts: ReadonlyArray<Attempt>, last: Attempt) => [...attempts.slice(0, -1), last]

  /**
   * The cascade, from the attempt in flight on: each provider is written ahead as the attempt
   * in flight before it is called, and its answer is written before the next one is tried.
   */
  const route = Effect.fnUntraced(function*(
    start: Payment,
    method: PaymentMethodDef,
    planned: ReadonlyArray<Route>,
    forwarded: Forwarded,
    key: PaymentKey | undefined
  ): Effect.fn.Return<Executed<Payment>, Conflict> {
    let p = start
    for (const { provider, routing: why, again } of planned) {
      const last = p.attempts.at(-1)
      if (last?.outcome !== "in_flight" || last.provider !== provider.id) {
        p = yield* advance(p, { provider: provider.id, attempts: [...p.attempts, inFlight(provider.id, yield* DateTime.now, why)] })
      }
      const tried = yield* tryProvider(provider, method.id, provider.charge(chargeRequest(p, method, provider, forwarded)))
      const { result } = tried
      // The answer completes the attempt written ahead, which keeps why routing chose it.
      const attempt: Attempt = { ...p.attempts.at(-1)!, ...tried.attempt }
      yield* learn.attempt(p, attempt)
      if (Result.isSuccess(result)) return yield* accept(p, attempt, result.success, key)
      const attempts = withLast(p.attempts, attempt)
      if (attempt.outcome === "declined") return unstored(yield* giveUp(p, attempts, `declined by ${provider.id}: ${attempt.reason}`))
      // No answer about the charge: this provider may hold it, and no other may be tried.
      if (attempt.outcome === "unknown" || again === true) {
        return unstored(yield* advance(p, { attempts: withLast(p.attempts, { ...attempt, outcome: "unknown" }) }))
      }
      p = { ...p, attempts }
    }
    return unstored(yield* giveUp(p, p.attempts, "every provider failed"))
  })

  /**
   * A provider took the charge: the payment is pending with it, and its timers start. Pending is
   * the last write of the request: the key's response rides it, and comes back with the payment.
   */
  const accept = Effect.fnUntraced(function*(p: Payment, attempt: Attempt, accepted: ChargeAccepted, key: PaymentKey | undefined) {
    const answer = accepted.status === "pending" ? key?.answer : undefined
    let completion: KeyCompletion | undefined
    const completes = key === undefined || answer === undefined
      ? undefined
      : (next: Payment): KeyCompletion => (completion = completionOf(key.handle, answer(next)))
    const pending = advance(p, {
      provider: attempt.provider,
      providerRef: accepted.providerRef,
      paymentFormUrl: accepted.paymentFormUrl,
      paymentData: accepted.paymentData,
      attempts: withLast(p.attempts, attempt)
    }, { event: "routed", completes })
    // The expiry timer was written ahead with the record; only a sandbox simulation adds jobs
    // here, in the transaction of the state change. Otherwise the change is one statement.
    const simulated = p.simulate === "paid" || p.simulate === "chargeback" ? "completed" : p.simulate === "failed" ? "failed" : undefined
    const routed = yield* (timersAtAccept(p) || simulated !== undefined
      ? tx.run(Effect.tap(pending, () =>
        jobs.enqueueAll([
          ...(timersAtAccept(p) ? [expireJob(p)] : []),
          ...(simulated === undefined ? [] : [{
            kind: JobKinds.sandboxOutcome,
            payload: { paymentId: p.id, status: simulated },
            dedupeKey: `${JobKinds.sandboxOutcome}:${p.id}`
          }])
        ])))
      : pending)
    if (accepted.status === "pending") return new Executed(routed, completion)
    return unstored(Option.getOrElse(yield* applyUpdate(p.id, { providerRef: accepted.providerRef, status: accepted.status }), () => routed))
  })

  /** A record the request answers for without having stored the key's response in its write. */
  const unstored = (p: Payment) => new Executed(p, undefined)

  /** No provider took the charge: the record ends `failed` with every attempt. */
  const giveUp = (p: Payment, attempts: ReadonlyArray<Attempt>, reason: string, code = "cascade_exhausted") =>
    tx.run(Effect.gen(function*() {
      const next = yield* advance(p, {
        attempts,
        failureReason: `${code}: ${reason}`,
        settlement: { ...p.settlement, status: "none", reserve: Money.zero }
      }, { event: "failed" })
      yield* lifecycle.emit(next, "payment.failed")
      return next
    }))

  /**
   * What the request answers for a routed record: the payment, the cascade's error, or (a record
   * still open) that the provider gave no answer about the charge.
   */
  const outcome = (p: Payment): Effect.Effect<Payment, ApiErrorOf<RouteCode>> =>
    p.status === "initiated"
      ? Effect.fail(outcomeUnknownError(p))
      : p.status === "failed" && !p.attempts.some((a) => a.outcome === "accepted")
      ? Effect.fail(cascadeError(p.id, p.attempts, p.skipped))
      : Effect.succeed(p)

  /**
   * Continues a record an interrupted execution wrote ahead, or one whose provider gave no
   * answer (a retry with its key, or the recovery job): the provider that may hold the charge is
   * asked again with the same idempotency key, and only a refusal from it lets the providers
   * not tried yet be tried. A record already routed answers as it stands.
   */
  const resume = (p: Payment, forwarded: Forwarded = {}): Effect.Effect<Payment, ApiErrorOf<RouteCode>> =>
    Effect.map(continueRecord(p, forwarded, undefined), (done) => done.value)

  const continueRecord = Effect.fnUntraced(function*(p: Payment, forwarded: Forwarded, key: PaymentKey | undefined): Effect.fn.Return<Executed<Payment>, ApiErrorOf<RouteCode> | Conflict> {
    if (p.status !== "initiated") return unstored(yield* outcome(p))
    const method = catalog.find(p.environment, p.paymentMethodId)
    const asked = open(p.attempts.at(-1)) ? Option.getOrUndefined(yield* registry.get(p.provider)) : undefined
    if (method === undefined || asked === undefined) {
      // The provider that may hold the charge cannot be asked (its plugin is gone): charging
      // elsewhere could charge twice, so the payment ends here.
      const unasked = p.attempts.map((a) => open(a) ? { ...a, outcome: "unknown" as const, reason: "provider no longer configured" } : a)
      return unstored(yield* outcome(yield* giveUp(p, unasked, `${p.provider} may hold the charge and can no longer be asked`, "provider_outcome_unknown")))
    }
    const candidates = yield* routing.candidates(p.environment, p.shopId, method)
    // Not tried again: a provider tried already, nor one passed over for buyer data the request
    // lacked (a retry brings the same body; the recovery job has none of it).
    const tried = new Set([...p.attempts.map((a) => a.provider), ...(p.skipped ?? []).filter((s) => s.reason === "missing_required_fields").map((s) => s.provider)])
    const providers: ReadonlyArray<Route> = [
      { provider: asked, again: true },
      ...candidates.filter((c) => !tried.has(c.id)).map((provider) => ({ provider }))
    ]
    return yield* drive(p, method, providers, forwarded, key)
  }, (effect, p) => Effect.catchTag(effect, "Conflict", () => Effect.map(reread(p.id), unstored)))

  /**
   * Ends a payment whose provider never answered about the charge by its expiry (asked once more
   * first): it fails with `provider_outcome_unknown`. Any charge the provider made was never
   * shown to the buyer and expires with the payment; a late confirmation of it is a
   * discrepancy reconciliation reports.
   */
  const abandon = Effect.fnUntraced(function*(p: Payment): Effect.fn.Return<Payment, ApiErrorOf<RouteCode> | Conflict> {
    const asked = yield* resume(p).pipe(catchCode("provider_outcome_unknown", () => Effect.succeed(undefined)))
    if (asked !== undefined) return asked
    const current = Option.getOrUndefined(yield* store.findById(p.id))
    if (current === undefined || current.status !== "initiated") return yield* reread(p.id)
    return yield* giveUp(current, current.attempts, `no answer from ${current.provider} about the charge before the payment expired`, "provider_outcome_unknown")
  }, (effect, p) => Effect.catchTag(effect, "Conflict", () => reread(p.id)))

  /** Routes a record and answers for it. */
  const drive = (
    p: Payment,
    method: PaymentMethodDef,
    providers: ReadonlyArray<Route>,
    forwarded: Forwarded,
    key: PaymentKey | undefined
  ) =>
    Effect.flatMap(route(p, method, providers, forwarded, key), (done) => Effect.as(outcome(done.value), done)).pipe(
      Effect.catchTag("Conflict", () => Effect.map(reread(p.id), unstored))
    )

  /** Another execution (the recovery job, a concurrent retry) moved the record meanwhile: answer for it as it is now. */
  const reread = (id: string): Effect.Effect<Payment, ApiErrorOf<RouteCode>> =>
    Effect.flatMap(store.findById(id), (found) => Option.isNone(found) ? Effect.die(new Error(`payment ${id} vanished`)) : outcome(found.value))

  /**
   * Creates a payment, or continues the one `input.id` names (a retry of its key, a checkout's
   * reserved id); answers it with the key's response when its last write stored it.
   */
  const create = Effect.fn("Payments.create")(function*(scope: ShopScope, input: CreatePayment, key?: PaymentKey) {
    if (input.id !== undefined) {
      const existing = yield* store.find(scope.environment, scope.shop.id, input.id)
      if (Option.isSome(existing)) return yield* continueRecord(existing.value, { documentId: input.documentId, address: input.userAddress }, key)
    }
    const returnUrlProblem = input.returnUrl === undefined ? undefined : merchantUrlProblem(input.returnUrl, scope.environment)
    if (returnUrlProblem !== undefined) {
      return yield* invalidRequest(`returnUrl: ${returnUrlProblem}`, [{ path: "returnUrl", message: returnUrlProblem }])
    }
    const country = input.country === undefined ? undefined : Country.toIso3(input.country)
    if (country !== undefined && Option.isNone(country)) {
      return yield* invalidRequest(`Unknown country '${input.country}'`, [{ path: "country", message: "Expected an ISO-2 or ISO-3 country code" }])
    }
    const countryIso3 = country === undefined ? undefined : country.value
    const method = yield* resolveMethod(scope, input, countryIso3)
    const buyer: BuyerData = {
      userName: input.userName ?? null,
      email: input.userEmail ?? null,
      documentId: input.documentId ?? null,
      phone: input.userPhone ?? null,
      address: input.userAddress ?? null
    }
    if (input.hostedCheckout === true) {
      const missing = missingFor(buyer, method, neededByAll(yield* routing.candidates(scope.environment, scope.shop.id, method), method))
      if (missing.length > 0) {
        return yield* apiError("missing_required_fields", `The hosted-checkout flow needs ${missing.join(", ")}`, { missingFields: missing })
      }
    }
    if (input.documentId !== undefined && input.documentId.trim() !== "") {
      const document = checkDocument(method.country, input.documentId)
      if ("problem" in document) {
        return yield* invalidRequest(`documentId ${document.problem}`, [{ path: "documentId", message: document.problem }])
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
    // A price in the rail's currency is charged as priced; only the USD headline carries the markup.
    const toLocal = yield* fx.localOf(toUsd, localCurrency)
    yield* checkLimits(method, usd, toLocal.converted, localCurrency)
    const fees = Pricing.fees(usd, method, scope.merchant.tier)
    const settlement = Pricing.settlement(usd, method, scope.merchant.tier)
    if (!BigDecimal.isPositive(Pricing.net(usd, fees, settlement))) {
      return yield* limitError(`${Money.toText(usd)} USD does not cover the fees of ${Money.toText(fees.total)} USD`, {
        amountUsd: Money.toJsonNumber(usd),
        feesUsd: Money.toJsonNumber(fees.total)
      })
    }

    const planned = yield* routing.plan(scope.environment, scope.shop.id, method, {
      country: method.country,
      paymentMethodId: method.id,
      method: method.method,
      currency: localCurrency,
      amountUsd: usd,
      tags: { tag1: input.tag1, tag2: input.tag2, tag3: input.tag3 }
    })
    // A provider that cannot charge the rail without buyer data the request lacks is not tried:
    // it could only decline. Each provider passed over is kept with why, in the record's first
    // write (or in the error when nothing is left to try).
    const providers: Array<Planned> = []
    const skipped: Array<Skipped> = [...planned.skipped]
    let missingFirst: ReadonlyArray<string> | undefined
    for (const r of planned.providers) {
      const missing = lacking(buyer, providerNeeds(r.provider, method), method.country)
      if (missing.length === 0) providers.push(r)
      else {
        missingFirst ??= missing
        skipped.push({ provider: r.provider.id, reason: "missing_required_fields", missingFields: missing })
      }
    }
    if (planned.providers.length === 0) {
      return yield* apiError("cascade_exhausted", `No provider is configured for ${method.name} (${method.id}) on this shop`, {
        reason: noProviderReason,
        // The rail is in the shop's listing (not routable): enabled for it, with no provider.
        paymentMethodEnabledForShop: true,
        skipped
      })
    }
    // With none left, the merchant is told what routing's first choice needs.
    if (providers.length === 0) {
      const missing = missingFirst ?? []
      return yield* apiError("missing_required_fields", `${method.name} (${method.id}) needs ${missing.join(", ")} to be charged`, {
        missingFields: missing,
        skipped
      })
    }

    const id = input.id ?? (yield* ids.next("transaction"))
    const createdAt = yield* DateTime.now
    const simulate = scope.environment === "sandbox" ? input.simulate : undefined
    const payment: Payment = {
      id,
      environment: scope.environment,
      merchantId: scope.merchant.id,
      shopId: scope.shop.id,
      status: "initiated",
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
      provider: providers[0]!.provider.id,
      providerRef: "",
      paymentFormUrl: "",
      paymentData: {},
      fees,
      settlement,
      fx: {
        presentment: currency === "USD" ? null : { currency, midPerUsd: toUsd.midPerUsd, rate: toUsd.rate },
        local: { currency: localCurrency, midPerUsd: toLocal.midPerUsd, rate: toLocal.rate },
        markupPct: config.fxMarkupPct
      },
      attempts: [inFlight(providers[0]!.provider.id, createdAt, providers[0]!.routing)],
      ...(skipped.length === 0 ? {} : { skipped }),
      merchantOrderId: input.merchantOrderId ?? null,
      tag1: input.tag1 ?? null,
      tag2: input.tag2 ?? null,
      tag3: input.tag3 ?? null,
      userName: input.userName ?? null,
      userEmail: input.userEmail ?? null,
      userPhone: input.userPhone ?? null,
      userIp: input.userIp ?? null,
      hostedCheckout: input.hostedCheckout === true,
      linkToken: yield* ids.secret("", linkTokenBytes),
      returnUrl: input.returnUrl ?? null,
      simulate: simulate ?? null,
      failureReason: null,
      expiresAt: simulate === "expired" ? createdAt : DateTime.add(createdAt, { minutes: method.expiresInMinutes }),
      createdAt,
      updatedAt: createdAt,
      completedAt: null,
      version: 1
    }
    // Write ahead: the record, its first attempt, its timers and the client's key commit
    // together before any provider is called (one statement on SQL); a crash from here on is
    // continued, never started again.
    yield* tx.batch(Effect.gen(function*() {
      yield* store.insert(payment)
      if (key !== undefined) yield* key.handle.bind(id)
      yield* jobs.enqueueAll([
        {
          kind: JobKinds.recover,
          payload: { paymentId: id },
          runAt: DateTime.add(createdAt, { milliseconds: Duration.toMillis(recoverAfter) }),
          dedupeKey: `${JobKinds.recover}:${id}`
        },
        ...(timersAtAccept(payment) ? [] : [expireJob(payment)])
      ])
    }))
    yield* Metrics.count(Metrics.paymentsCreated, { rail: payment.paymentMethodId, country: payment.country })
    return yield* drive(payment, method, providers, { documentId: input.documentId, address: input.userAddress }, key)
  })

  return { create, headline, resume, abandon }
})
