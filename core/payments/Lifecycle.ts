/**
 * A payment's life after creation: a provider's word (signed callback, the reconcile poll, the
 * sandbox) moves it through the pure state machine, and the next version is written with an
 * optimistic check in one transaction together with its ledger entry, its events and its
 * follow-up jobs.
 */
import * as Metrics from "../Metrics.ts"
import { BigDecimal, DateTime, Duration, Effect, Option, Result } from "effect"
import { apiError, notFound } from "../ApiError.ts"
import { Refunds } from "../refunds/Refunds.ts"
import { realNow } from "../clock/RealClock.ts"
import { ShopClocks } from "../clock/ShopClocks.ts"
import { Jobs, type NewJob } from "../jobs/Jobs.ts"
import { makeLearning } from "./Learn.ts"
import { Ledger } from "../ledger/Ledger.ts"
import * as Money from "../Money.ts"
import type { ChargeUpdate } from "../ports/PaymentProvider.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { Conflict, retryOnConflict, Transactions } from "../ports/Transactions.ts"
import { Events, paymentEvent } from "../webhooks/Events.ts"
import type { Payment } from "./Payment.ts"
import { advance, type PaymentChanges, type PaymentEvent, transition } from "./PaymentState.ts"
import { readView } from "./PaymentView.ts"
import * as Postings from "./Postings.ts"
import { ProviderRegistry } from "../ports/ProviderRegistry.ts"
import { sandboxProviderId } from "../ports/SandboxForm.ts"

/** Pending payments older than this are asked about by the reconcile poll. */
export const reconcileAfter = Duration.minutes(2)
export const reconcileEvery = Duration.minutes(5)

export const JobKinds = {
  expire: "payment.expire",
  settle: "payment.settle",
  releaseReserve: "payment.release_reserve",
  reconcile: "payment.reconcile",
  recover: "payment.recover",
  sandboxOutcome: "payment.sandbox_outcome",
  /** An authorization (`capture: false`) still held at its `authorizationExpiresAt` lapses. */
  authorizationExpire: "payment.authorization_expire"
} as const

/** How long a provider that does not say holds an authorization (`PaymentProvider.authorizationWindow`). */
export const defaultAuthorizationWindow = Duration.days(7)

/** The job that expires a pending payment at its `expiresAt` (it waits while the record is still being routed). */
export const expireJob = (p: Payment): NewJob => ({
  kind: JobKinds.expire,
  payload: { paymentId: p.id },
  runAt: p.expiresAt,
  dedupeKey: `${JobKinds.expire}:${p.id}`
})

const toEvent = (status: ChargeUpdate["status"]): PaymentEvent | undefined => {
  switch (status) {
    case "completed":
      return "confirmed"
    case "authorized":
      return "authorized"
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

export const makeLifecycle = Effect.gen(function*() {
  const store = yield* PaymentStore
  const registry = yield* ProviderRegistry
  const jobs = yield* Jobs
  const ledger = yield* Ledger
  const events = yield* Events
  const claims = yield* Refunds
  const tx = yield* Transactions
  const clocks = yield* ShopClocks
  const learn = yield* makeLearning

  const emit = (p: Payment, type: string) => events.emit(paymentEvent(p, type, readView(p)))

  /** Writes the next version of a payment, or fails with `Conflict`. */
  const save = (next: Payment) => Effect.flatMap(store.update(next), (written) => written ? Effect.void : Effect.fail(new Conflict()))

  /** Counted for the metrics (in the transaction: a rolled-back move, rare, is counted too). */
  const finalized = (p: Payment) =>
    Metrics.count(Metrics.paymentsFinalized, { status: p.status, provider: p.provider, rail: p.paymentMethodId, country: p.country })

  /**
   * What a completion books and schedules, in the transaction that wrote `next` completed (a
   * provider's confirmation, or a capture: `Capture.ts`): its ledger entry, its events, and its
   * settlement and reserve release timers.
   */
  const booked = (next: Payment, at: DateTime.Utc) =>
    Effect.gen(function*() {
      yield* ledger.record(next, "payment.completed", next.id, Postings.completion(next)).pipe(Effect.orDie)
      yield* emit(next, "payment.completed")
      yield* learn.conversion(next, true)
      yield* finalized(next)
      // Spec 6: the sandbox simulator's alias of payment.completed, nobody else's (not a
      // deposit credit, not a real connector's sandbox).
      if (next.environment === "sandbox" && next.provider === sandboxProviderId) yield* emit(next, "payment.captured")
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
      return next
    })

  const moveOnce = (paymentId: string, update: ChargeUpdate) =>
    tx.run(Effect.gen(function*() {
      const found = yield* store.findById(paymentId)
      if (Option.isNone(found)) return Option.none<Payment>()
      const p = found.value
      if (update.status === "chargeback_won" || update.status === "chargeback_lost") {
        const outcome = update.status === "chargeback_won" ? "won" : "lost"
        yield* claims.chargebackOutcome(p.id, outcome, update.detail ?? `chargeback ${outcome}, reported by ${p.provider}`)
        return yield* store.findById(p.id)
      }
      const event = toEvent(update.status)
      if (event === undefined) return Option.some(p)
      const step = transition(p.status, event)
      if (Result.isFailure(step)) {
        yield* Effect.logWarning(`payment ${p.id}: ${update.status} refused in status ${p.status}`)
        return Option.some(p)
      }
      if (step.success._tag === "Unchanged") return Option.some(p)
      const at = yield* DateTime.now
      /** The next version through the state machine (the event was just checked to move it). */
      const moved = (changes: PaymentChanges) => Effect.orDie(Effect.fromResult(advance(p, at, changes, event)))
      switch (event) {
        case "confirmed": {
          const next = yield* moved({ completedAt: at })
          yield* save(next)
          return Option.some(yield* booked(next, at))
        }
        case "authorized": {
          const provider = yield* registry.get(p.provider)
          const window = Option.match(provider, { onNone: () => defaultAuthorizationWindow, onSome: (pr) => pr.authorizationWindow ?? defaultAuthorizationWindow })
          const expiresAt = DateTime.addDuration(at, window)
          const next = yield* moved({
            authorization: { amountLocal: p.amountLocal, amountUsd: p.amount, operation: null, ...p.authorization, expiresAt }
          })
          yield* save(next)
          yield* emit(next, "payment.authorized")
          yield* jobs.enqueue(JobKinds.authorizationExpire, { paymentId: next.id }, {
            runAt: expiresAt,
            dedupeKey: `${JobKinds.authorizationExpire}:${next.id}`
          })
          return Option.some(next)
        }
        case "failed":
        case "expired": {
          const next = yield* moved({
            settlement: { ...p.settlement, status: "none", reserve: Money.zero },
            failureReason: update.detail ?? (event === "expired" ? "expired" : "failed")
          })
          yield* save(next)
          yield* emit(next, "payment.failed")
          yield* learn.conversion(next, false)
          yield* finalized(next)
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

  /**
   * Applies a provider's word about a charge (callback, poll or sandbox); idempotent. It runs on
   * the clock of the payment's shop, whoever calls: a callback's completion of a sandbox payment
   * schedules its settlement in that shop's time.
   */
  const applyUpdate = (paymentId: string, update: ChargeUpdate) =>
    Effect.flatMap(store.findById(paymentId), (found) => {
      const move = moveOnce(paymentId, update).pipe(
        retryOnConflict(`payment ${paymentId}`, 5),
        // Refunds the provider reported with the charge: settled or failed at once.
        Effect.tap(() => Effect.forEach(update.refunds ?? [], (refund) => claims.refundOutcome(paymentId, refund), { discard: true }))
      )
      return Option.isNone(found) ? move : clocks.within(found.value.environment, found.value.shopId, move)
    }).pipe(Effect.withSpan("Payments.applyUpdate"))

  const handleCallback = Effect.fn("Payments.handleCallback")(function*(
    providerId: string,
    headers: Readonly<Record<string, string | undefined>>,
    rawBody: string,
    query: Readonly<Record<string, string>> = {}
  ) {
    const provider = yield* registry.get(providerId)
    if (Option.isNone(provider)) return yield* notFound("provider", providerId)
    const updates = yield* provider.value.verifyCallback(headers, rawBody, query).pipe(
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

  /**
   * One pass of the reconcile poll: asks providers about pending payments older than `olderThan`
   * (a sandbox payment's age on its shop's clock); with `sandboxShopId`, that shop's only.
   */
  const reconcile = Effect.fn("Payments.reconcile")(function*(olderThan: Duration.Duration = reconcileAfter, sandboxShopId?: string) {
    const cutoff = DateTime.subtract(yield* realNow, { milliseconds: Duration.toMillis(olderThan) })
    const pending = yield* store.pendingCreatedBefore(cutoff, 200, sandboxShopId)
    let moved = 0
    for (const p of pending) {
      const after = yield* poll(p)
      if (Option.isSome(after) && after.value.status !== p.status) moved++
    }
    return moved
  })

  /**
   * Asks a pending payment's provider how its charge stands and applies the answer: the poll of
   * one payment (the reconcile poll's step, and the 3-D Secure return page's). Answers the payment
   * as it is after, or none when nothing moved (not pending, no provider, no answer, still pending).
   */
  const poll = (p: Payment) =>
    Effect.gen(function*() {
      if (p.status !== "pending") return Option.none<Payment>()
      const provider = yield* registry.get(p.provider)
      if (Option.isNone(provider)) return Option.none<Payment>()
      // Asked on the shop's clock: a sandbox provider's charge lives in the shop's time too.
      const status = yield* clocks.within(p.environment, p.shopId, provider.value.status(p.providerRef, p.id)).pipe(
        Effect.tapError((e) => Effect.logWarning(`status poll ${p.id}: ${e.message}`)),
        Effect.option
      )
      if (Option.isNone(status) || status.value.status === "pending") return Option.none<Payment>()
      return yield* applyUpdate(p.id, status.value)
    })

  /** `poll` of the payment `paymentId` (any shop): for the 3-D Secure return page, which a stranger may open too, and which only reads. */
  const refresh = Effect.fn("Payments.refresh")(function*(paymentId: string) {
    const found = yield* store.findById(paymentId)
    if (Option.isNone(found)) return Option.none<Payment>()
    yield* poll(found.value)
    return yield* store.findById(paymentId)
  })

  return { emit, save, booked, moveOnce, applyUpdate, handleCallback, reconcile, refresh }
})

export type Lifecycle = Effect.Success<typeof makeLifecycle>
