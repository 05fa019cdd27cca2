/**
 * The steps of a create from its write-ahead on: the write-ahead itself (`writeAhead`), the
 * cascade (`route`), the outcome it records (`accept`, `giveUp`) and answers (`outcome`), and a
 * record continued after an interruption (`continueRecord`, `resume`, `abandon`). Each takes the
 * services it names (`CreateServices`).
 */
import { DateTime, Duration, Effect, Option, Result } from "effect"
import { type ApiErrorOf, catchCode } from "../ApiError.ts"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import { completionOf, type KeyHandle } from "../idempotency/Idempotency.ts"
import * as Money from "../Money.ts"
import type { KeyCompletion } from "../ports/IdempotencyStore.ts"
import type { ChargeAccepted } from "../ports/PaymentProvider.ts"
import { Conflict } from "../ports/Transactions.ts"
import { cascadeError, open, outcomeUnknownError, type Route, tryProvider } from "./Cascade.ts"
import type { PaymentKey, RouteCode, Routed, StoredView } from "./CreateInput.ts"
import type { CreateServices } from "./CreateServices.ts"
import { expireJob, JobKinds } from "./Lifecycle.ts"
import type { Attempt, Payment } from "./Payment.ts"
import * as PaymentState from "./PaymentState.ts"
import type { PaymentChanges, PaymentEvent } from "./PaymentState.ts"
import { createdViewJson, createView } from "./PaymentView.ts"
import { acceptedChanges, attemptAhead, challengeExpiryJob, chargeReturnUrl, retryAttempt, wantsRetry } from "./ThreeDSecure.ts"
import { callbackUrlOf, chargeRequestOf, type Forwarded } from "./Upstream.ts"

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

/**
 * Write ahead: the record, its first attempt, its timers and the client's key commit together
 * before any provider is called (one statement on SQL); a crash from here on is continued,
 * never started again.
 */
export const writeAhead = (s: Pick<CreateServices, "tx" | "store" | "jobs">, payment: Payment, key: KeyHandle | undefined) =>
  s.tx.batch(Effect.gen(function*() {
    yield* s.store.insert(payment)
    if (key !== undefined) yield* key.bind(payment.id)
    yield* s.jobs.enqueueAll([
      {
        kind: JobKinds.recover,
        payload: { paymentId: payment.id },
        runAt: DateTime.add(payment.createdAt, { milliseconds: Duration.toMillis(recoverAfter) }),
        dedupeKey: `${JobKinds.recover}:${payment.id}`
      },
      ...(timersAtAccept(payment) ? [] : [expireJob(payment)])
    ])
  }))

/** The next version of a record still being routed (`routed` and `failed` move its status). */
const nextVersion = (p: Payment, changes: PaymentChanges, event?: PaymentEvent) =>
  Effect.flatMap(DateTime.now, (now) => Effect.orDie(Effect.fromResult(PaymentState.advance(p, now, changes, event))))

/** Writes the next version of a record still being routed. */
const advance = (s: Pick<CreateServices, "lifecycle">, p: Payment, changes: PaymentChanges, event?: PaymentEvent) =>
  Effect.flatMap(nextVersion(p, changes, event), (next) => Effect.as(s.lifecycle.save(next), next))

/** Writes the next version of a payment completing its key with `completion` in the same write, or fails with `Conflict`. */
const saveCompletingKey = (s: Pick<CreateServices, "store">, next: Payment, completion: KeyCompletion) =>
  Effect.flatMap(s.store.updateCompletingKey(next, completion), (written) => written ? Effect.void : Effect.fail(new Conflict()))

/** The payment's create view, and the key's response that stores it. */
export const storedView = (s: Pick<CreateServices, "config">, key: KeyHandle, p: Payment): StoredView => {
  const view = createView(p, s.config)
  return { view, completion: completionOf(key, createdViewJson(view)) }
}

const withLast = (attempts: ReadonlyArray<Attempt>, last: Attempt) => [...attempts.slice(0, -1), last]

/** A record the request answers for without having stored the key's response in its write. */
const unstored = (payment: Payment): Routed => ({ payment, stored: undefined })

type RouteServices = Pick<CreateServices, "config" | "learn" | "lifecycle" | "tx" | "jobs" | "store">

/**
 * The cascade, from the attempt in flight on: each provider is written ahead as the attempt
 * in flight before it is called, and its answer is written before the next one is tried.
 */
export const route = Effect.fnUntraced(function*(
  s: RouteServices,
  start: Payment,
  method: PaymentMethodDef,
  planned: ReadonlyArray<Route>,
  forwarded: Forwarded,
  key: PaymentKey | undefined
): Effect.fn.Return<Routed, Conflict> {
  let p = start
  for (const { provider, routing: why, again } of planned) {
    const last = p.attempts.at(-1)
    if (last?.outcome !== "in_flight" || last.provider !== provider.id) {
      p = yield* advance(s, p, { provider: provider.id, attempts: [...p.attempts, attemptAhead(last, provider.id, yield* DateTime.now, why)] })
    }
    for (;;) {
      // A card payment presents the same token to every provider it tries (`chargeRequestOf`).
      const request = chargeRequestOf(p, method, provider, forwarded, callbackUrlOf(s.config, provider.id), chargeReturnUrl(s.config, p))
      const tried = yield* tryProvider(provider, method.id, provider.charge(request), p.card === undefined ? undefined : { brand: p.card.brand })
      const { result } = tried
      // The answer completes the attempt written ahead, which keeps why routing chose it.
      const attempt: Attempt = { ...p.attempts.at(-1)!, ...tried.attempt }
      yield* s.learn.attempt(p, attempt)
      if (Result.isSuccess(result)) return yield* accept(s, p, attempt, result.success, key)
      const attempts = withLast(p.attempts, attempt)
      if (attempt.outcome === "declined") return unstored(yield* giveUp(s, p, attempts, `declined by ${provider.id}: ${attempt.reason}`))
      // No answer about the charge: this provider may hold it, and no other may be tried.
      if (attempt.outcome === "unknown" || again === true) {
        // Asked again, a refusal says nothing of the first call: no decline is recorded for it.
        const unknown: Attempt = { ...attempt, outcome: "unknown", ...(attempt.decline === undefined ? {} : { decline: null }) }
        return unstored(yield* advance(s, p, { attempts: withLast(p.attempts, unknown) }))
      }
      // The issuer wants 3-D Secure: this provider once more, with it, written ahead with its own key (`ThreeDSecure.ts`).
      if (wantsRetry(attempt)) {
        p = yield* advance(s, p, { attempts: [...attempts, retryAttempt(attempt, yield* DateTime.now)] })
        continue
      }
      p = { ...p, attempts }
      break
    }
  }
  return unstored(yield* giveUp(s, p, p.attempts, "every provider failed"))
})

/**
 * A provider took the charge: the payment is pending with it, and its timers start. Pending is
 * the last write of the request: with a key that answers the create view, that view is the key's
 * response, stored in the same write, and comes back with the payment.
 */
export const accept = Effect.fnUntraced(function*(
  s: Pick<CreateServices, "config" | "lifecycle" | "tx" | "jobs" | "store">,
  p: Payment,
  attempt: Attempt,
  accepted: ChargeAccepted,
  key: PaymentKey | undefined
): Effect.fn.Return<Routed, Conflict> {
  const next = yield* nextVersion(p, {
    provider: attempt.provider,
    providerRef: accepted.providerRef,
    paymentFormUrl: accepted.paymentFormUrl,
    paymentData: accepted.paymentData,
    attempts: withLast(p.attempts, attempt),
    ...acceptedChanges(p, accepted, yield* DateTime.now)
  }, "routed")
  const challenged = next.nextAction !== null
  const stored = accepted.status === "pending" && key?.answersView === true ? storedView(s, key.handle, next) : undefined
  const pending = stored === undefined ? s.lifecycle.save(next) : saveCompletingKey(s, next, stored.completion)
  // The expiry timer was written ahead with the record; only a sandbox simulation and a 3-D
  // Secure challenge (its window, `ThreeDSecure.ts`) add jobs here, in the transaction of the
  // state change. Otherwise the change is one statement.
  const simulated = p.simulate === "paid" || p.simulate === "chargeback" ? "completed" : p.simulate === "failed" ? "failed" : undefined
  yield* (timersAtAccept(p) || simulated !== undefined || challenged
    ? s.tx.run(Effect.tap(pending, () =>
      s.jobs.enqueueAll([
        ...(timersAtAccept(p) ? [expireJob(p)] : []),
        ...(challenged ? [challengeExpiryJob(next)] : []),
        ...(simulated === undefined ? [] : [{
          kind: JobKinds.sandboxOutcome,
          payload: { paymentId: p.id, status: simulated },
          dedupeKey: `${JobKinds.sandboxOutcome}:${p.id}`
        }])
      ])))
    : pending)
  if (accepted.status === "pending") return { payment: next, stored }
  return unstored(Option.getOrElse(yield* s.lifecycle.applyUpdate(p.id, { providerRef: accepted.providerRef, status: accepted.status }), () => next))
})

/** No provider took the charge: the record ends `failed` with every attempt. */
export const giveUp = (s: Pick<CreateServices, "tx" | "lifecycle">, p: Payment, attempts: ReadonlyArray<Attempt>, reason: string, code = "cascade_exhausted") =>
  s.tx.run(Effect.gen(function*() {
    const next = yield* advance(s, p, {
      attempts,
      failureReason: `${code}: ${reason}`,
      settlement: { ...p.settlement, status: "none", reserve: Money.zero }
    }, "failed")
    yield* s.lifecycle.emit(next, "payment.failed")
    return next
  }))

/**
 * What the request answers for a routed record: the payment, the cascade's error, or (a record
 * still open) that the provider gave no answer about the charge.
 */
export const outcome = (p: Payment): Effect.Effect<Payment, ApiErrorOf<RouteCode>> =>
  p.status === "initiated"
    ? Effect.fail(outcomeUnknownError(p))
    : p.status === "failed" && !p.attempts.some((a) => a.outcome === "accepted")
    ? Effect.fail(cascadeError(p.id, p.attempts, p.skipped))
    : Effect.succeed(p)

/** Another execution (the recovery job, a concurrent retry) moved the record meanwhile: answer for it as it is now. */
export const reread = (s: Pick<CreateServices, "store">, id: string): Effect.Effect<Payment, ApiErrorOf<RouteCode>> =>
  Effect.flatMap(s.store.findById(id), (found) => Option.isNone(found) ? Effect.die(new Error(`payment ${id} vanished`)) : outcome(found.value))

/** Routes a record and answers for it. */
export const drive = (
  s: RouteServices,
  p: Payment,
  method: PaymentMethodDef,
  providers: ReadonlyArray<Route>,
  forwarded: Forwarded,
  key: PaymentKey | undefined
) =>
  Effect.flatMap(route(s, p, method, providers, forwarded, key), (done) => Effect.as(outcome(done.payment), done)).pipe(
    Effect.catchTag("Conflict", () => Effect.map(reread(s, p.id), unstored))
  )

type ContinueServices = RouteServices & Pick<CreateServices, "catalog" | "registry" | "routing">

/**
 * Continues a record an interrupted execution wrote ahead, or one whose provider gave no
 * answer (a retry with its key, or the recovery job): the provider that may hold the charge is
 * asked again with the same idempotency key, and only a refusal from it lets the providers
 * not tried yet be tried. A record already routed answers as it stands.
 */
export const continueRecord = Effect.fnUntraced(function*(
  s: ContinueServices,
  p: Payment,
  forwarded: Forwarded,
  key: PaymentKey | undefined
): Effect.fn.Return<Routed, ApiErrorOf<RouteCode> | Conflict> {
  if (p.status !== "initiated") return unstored(yield* outcome(p))
  const method = s.catalog.find(p.environment, p.paymentMethodId)
  const asked = open(p.attempts.at(-1)) ? Option.getOrUndefined(yield* s.registry.get(p.provider)) : undefined
  if (method === undefined || asked === undefined) {
    // The provider that may hold the charge cannot be asked (its plugin is gone): charging
    // elsewhere could charge twice, so the payment ends here.
    const unasked = p.attempts.map((a) => open(a) ? { ...a, outcome: "unknown" as const, reason: "provider no longer configured" } : a)
    return unstored(yield* outcome(yield* giveUp(s, p, unasked, `${p.provider} may hold the charge and can no longer be asked`, "provider_outcome_unknown")))
  }
  const candidates = yield* s.routing.candidates(p.environment, p.shopId, method)
  // Not tried again: a provider tried already, nor one passed over for buyer data the request
  // lacked (a retry brings the same body; the recovery job has none of it).
  const tried = new Set([...p.attempts.map((a) => a.provider), ...(p.skipped ?? []).filter((s) => s.reason === "missing_required_fields").map((s) => s.provider)])
  const providers: ReadonlyArray<Route> = [
    { provider: asked, again: true },
    ...candidates.filter((c) => !tried.has(c.id)).map((provider) => ({ provider }))
  ]
  return yield* drive(s, p, method, providers, forwarded, key)
}, (effect, s, p) => Effect.catchTag(effect, "Conflict", () => Effect.map(reread(s, p.id), unstored)))

/** `continueRecord` without a key (the recovery job): the record as it is answered. */
export const resume = (s: ContinueServices, p: Payment, forwarded: Forwarded = {}): Effect.Effect<Payment, ApiErrorOf<RouteCode>> =>
  Effect.map(continueRecord(s, p, forwarded, undefined), (done) => done.payment)

/**
 * Ends a payment whose provider never answered about the charge by its expiry (asked once more
 * first): it fails with `provider_outcome_unknown`. Any charge the provider made was never
 * shown to the buyer and expires with the payment; a late confirmation of it is a
 * discrepancy reconciliation reports.
 */
export const abandon = Effect.fnUntraced(function*(s: ContinueServices, p: Payment): Effect.fn.Return<Payment, ApiErrorOf<RouteCode> | Conflict> {
  const asked = yield* resume(s, p).pipe(catchCode("provider_outcome_unknown", () => Effect.succeed(undefined)))
  if (asked !== undefined) return asked
  const current = Option.getOrUndefined(yield* s.store.findById(p.id))
  if (current === undefined || current.status !== "initiated") return yield* reread(s, p.id)
  return yield* giveUp(s, current, current.attempts, `no answer from ${current.provider} about the charge before the payment expired`, "provider_outcome_unknown")
}, (effect, s, p) => Effect.catchTag(effect, "Conflict", () => reread(s, p.id)))
