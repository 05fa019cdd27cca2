/**
 * The background work of payments, as job handlers: expiry (asking the provider once more),
 * sandbox outcomes, settlement T+n and the rolling reserve release (each moving exactly what is
 * left of the payment's own share, see `Shares.ts`), and the 5-minute reconcile poll
 * (proposed on every worker tick, run once per slot whatever the number of replicas).
 */
import { BigDecimal, Clock, DateTime, Duration, Effect, Option, Schema } from "effect"
import { type ApiErrorOf, catchCode } from "../ApiError.ts"
import * as Owed from "../balances/Owed.ts"
import { Refunds } from "../refunds/Refunds.ts"
import { Jobs } from "../jobs/Jobs.ts"
import type { Transfer } from "../ledger/Journal.ts"
import { Ledger } from "../ledger/Ledger.ts"
import * as Money from "../Money.ts"
import { LedgerStore } from "../ports/LedgerStore.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { Transactions } from "../ports/Transactions.ts"
import { RoutingStore } from "../ports/RoutingStore.ts"
import { expireJob, JobKinds, type Lifecycle, reconcileEvery } from "./Lifecycle.ts"
import type { RouteCode } from "./CreateInput.ts"
import type { Payment } from "./Payment.ts"
import { advance } from "./PaymentState.ts"
import * as Postings from "./Postings.ts"
import { ProviderRegistry } from "../ports/ProviderRegistry.ts"
import * as Shares from "./Shares.ts"
import { abandonedReason } from "./ThreeDSecure.ts"

const PaymentJobPayload = Schema.Struct({ paymentId: Schema.String })
const SandboxOutcomePayload = Schema.Struct({
  paymentId: Schema.String,
  status: Schema.Literals(["completed", "failed"])
})

export const registerPaymentJobs = Effect.fnUntraced(function*(
  lifecycle: Lifecycle,
  routing: {
    /** Continues a record still being routed (`Create.ts`). */
    readonly resume: (payment: Payment) => Effect.Effect<unknown, ApiErrorOf<RouteCode>>
    /** Asks once more about a charge still unknown at the payment's expiry, then ends the payment. */
    readonly abandon: (payment: Payment) => Effect.Effect<unknown, ApiErrorOf<RouteCode>>
  }
) {
  const store = yield* PaymentStore
  const registry = yield* ProviderRegistry
  const jobs = yield* Jobs
  const routingOutcomes = yield* RoutingStore
  const ledger = yield* Ledger
  const ledgerStore = yield* LedgerStore
  const claims = yield* Refunds
  const tx = yield* Transactions
  const { applyUpdate, save } = lifecycle

  const decodeJob = Schema.decodeUnknownEffect(PaymentJobPayload)

  // A record still being routed long after its creation was interrupted (a crash), or its
  // provider gave no answer: continue it with the same provider keys. A refusal is an answer too
  // (the record ends failed); no answer again is this job's failure, retried with backoff.
  yield* jobs.handle(JobKinds.recover, (payload) =>
    Effect.flatMap(decodeJob(payload), ({ paymentId }) =>
      Effect.gen(function*() {
        const found = yield* store.findById(paymentId)
        // A record an earlier engine wrote ahead without its expiry timer gets it now.
        if (Option.isSome(found) && found.value.status === "pending") yield* jobs.enqueueAll([expireJob(found.value)])
        if (Option.isNone(found) || found.value.status !== "initiated") return
        yield* routing.resume(found.value).pipe(
          catchCode("provider_outcome_unknown", (e) => Effect.fail(`payment ${paymentId}: ${e.message}`)),
          catchCode("cascade_exhausted", () => Effect.void)
        )
      })))
  yield* jobs.handle(JobKinds.expire, (payload) =>
    Effect.flatMap(decodeJob(payload), ({ paymentId }) =>
      Effect.gen(function*() {
        let found = yield* store.findById(paymentId)
        // Written ahead with the record: one still being routed is expired once it is pending
        // (the job is retried; the cascade or the recovery job settles the record first). One
        // whose provider never answered about the charge is asked once more, and ends failed
        // if it still does not answer.
        if (Option.isSome(found) && found.value.status === "initiated") {
          if (found.value.attempts.at(-1)?.outcome !== "unknown") return yield* Effect.fail(`payment ${paymentId} is still being routed`)
          yield* routing.abandon(found.value).pipe(Effect.catchTag("ApiError", () => Effect.void))
          found = yield* store.findById(paymentId)
        }
        if (Option.isNone(found) || found.value.status !== "pending") return
        // The provider may have been paid at the last moment: ask before expiring.
        const provider = yield* registry.get(found.value.provider)
        const status = Option.isNone(provider)
          ? Option.none()
          : yield* provider.value.status(found.value.providerRef, paymentId).pipe(Effect.option)
        if (Option.isSome(status) && status.value.status === "completed") {
          yield* applyUpdate(paymentId, status.value)
          return
        }
        // A payment still waiting for its 3-D Secure challenge expires as abandoned.
        const detail = found.value.nextAction === null ? "expired" : abandonedReason
        yield* applyUpdate(paymentId, { providerRef: found.value.providerRef, status: "expired", detail })
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

  /**
   * Moves exactly what is left of one payment's share of a pooled book (`payin_pending` at
   * settlement, `payin_reserve` at release) to the shop: what it owes is repaid first
   * (`Owed.ts`), the rest goes to available, in one entry. The shares are kept so that the book
   * always holds them; only a payment written before they were tracked could find less, and
   * then it moves what is there rather than fail forever.
   */
  const closeShare = (paymentId: string, step: {
    readonly due: (p: Payment) => boolean
    readonly share: (p: Payment) => BigDecimal.BigDecimal
    readonly book: "payin_pending" | "payin_reserve"
    readonly kind: string
    readonly close: (p: Payment, at: DateTime.Utc) => Payment["settlement"]
    readonly transfers: (amount: BigDecimal.BigDecimal, owed: BigDecimal.BigDecimal) => ReadonlyArray<Transfer>
  }) =>
    tx.run(Effect.gen(function*() {
      const found = yield* store.findById(paymentId)
      if (Option.isNone(found) || !step.due(found.value)) return
      const p = found.value
      const at = yield* DateTime.now
      const share = step.share(p)
      const pooled = yield* ledgerStore.balance(p.environment, p.shopId, step.book, "USD")
      if (BigDecimal.isLessThan(pooled, share)) {
        yield* Effect.logWarning(`payment ${p.id}: ${step.book} holds ${Money.toText(pooled)}, less than its share ${Money.toText(share)}`)
      }
      yield* save(yield* Effect.orDie(Effect.fromResult(advance(p, at, { settlement: step.close(p, at) }))))
      const owed = yield* Owed.lockOwed(ledgerStore, p)
      yield* ledger.record(p, step.kind, p.id, step.transfers(BigDecimal.min(share, pooled), owed)).pipe(Effect.orDie)
    })).pipe(Effect.retry({ while: (e) => e._tag === "Conflict", times: 5 }))

  yield* jobs.handle(JobKinds.settle, (payload) =>
    Effect.flatMap(decodeJob(payload), ({ paymentId }) =>
      closeShare(paymentId, {
        due: (p) => p.settlement.status === "pending" && p.completedAt !== null,
        share: Shares.pendingShare,
        book: "payin_pending",
        kind: "payment.settled",
        close: (p, at) => ({ ...p.settlement, status: "settled", settledAt: at }),
        transfers: Postings.settlement
      })))

  // The rolling reserve of a payment goes to available after the tier's holding period; what
  // its refunds or chargeback took from it is not released.
  const releaseReserve = (paymentId: string) =>
    closeShare(paymentId, {
      due: (p) => p.settlement.reserveReleasedAt === null && p.completedAt !== null,
      share: Shares.reserveShare,
      book: "payin_reserve",
      kind: "reserve.released",
      close: (p, at) => ({ ...p.settlement, reserveReleasedAt: at }),
      transfers: Postings.reserveRelease
    })
  yield* jobs.handle(JobKinds.releaseReserve, (payload) => Effect.flatMap(decodeJob(payload), ({ paymentId }) => releaseReserve(paymentId)))

  // The poll also forgets routing outcomes older than a week: routing looks at the latest few
  // hundred per provider and rail, and the table must not grow forever.
  yield* jobs.handle(JobKinds.reconcile, Effect.fnUntraced(function*() {
    yield* lifecycle.reconcile()
    yield* routingOutcomes.prune((yield* Clock.currentTimeMillis) - Duration.toMillis(Duration.days(7)))
  }))
  // Every worker tick proposes the poll of the current 5-minute slot; the dedupe key makes it
  // run once per slot whatever the number of replicas.
  yield* jobs.onTick(Effect.gen(function*() {
    const slot = Math.floor((yield* Clock.currentTimeMillis) / Duration.toMillis(reconcileEvery))
    yield* jobs.enqueue(JobKinds.reconcile, {}, { dedupeKey: `${JobKinds.reconcile}:${slot}` })
  }))
  return { releaseReserve }
})
