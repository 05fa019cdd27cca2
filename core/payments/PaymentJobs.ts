/**
 * The background work of payments, as job handlers: expiry (asking the provider once more),
 * sandbox outcomes, settlement T+n, the rolling reserve release, and the 5-minute reconcile poll
 * (proposed on every worker tick, run once per slot whatever the number of replicas).
 */
import { BigDecimal, Clock, DateTime, Duration, Effect, Option, Schema } from "effect"
import type { ApiError } from "../ApiError.ts"
import { Claims } from "../claims/Claims.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { LedgerStore } from "../ports/LedgerStore.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { Transactions } from "../ports/Transactions.ts"
import { JobKinds, type Lifecycle, reconcileEvery } from "./Lifecycle.ts"
import type { Payment } from "./Payment.ts"
import * as Postings from "./Postings.ts"
import * as Pricing from "./Pricing.ts"
import { ProviderRegistry } from "./ProviderRegistry.ts"

const PaymentJobPayload = Schema.Struct({ paymentId: Schema.String })
const SandboxOutcomePayload = Schema.Struct({
  paymentId: Schema.String,
  status: Schema.Literals(["completed", "failed"])
})

export const registerPaymentJobs = (
  lifecycle: Lifecycle,
  resume: (payment: Payment) => Effect.Effect<unknown, ApiError>
) =>
  Effect.gen(function*() {
    const store = yield* PaymentStore
    const registry = yield* ProviderRegistry
    const jobs = yield* Jobs
    const ledger = yield* Ledger
    const ledgerStore = yield* LedgerStore
    const claims = yield* Claims
    const tx = yield* Transactions
    const { applyUpdate, save } = lifecycle

    const decodeJob = Schema.decodeUnknownEffect(PaymentJobPayload)

    // A record still being routed long after its creation was interrupted (a crash): continue it
    // with the same provider keys. A refusal is an answer too (the record ends failed).
    yield* jobs.handle(JobKinds.recover, (payload) =>
      Effect.flatMap(decodeJob(payload), ({ paymentId }) =>
        Effect.gen(function*() {
          const found = yield* store.findById(paymentId)
          if (Option.isNone(found) || found.value.status !== "initiated") return
          yield* resume(found.value).pipe(Effect.catchTag("ApiError", () => Effect.void))
        })))
    yield* jobs.handle(JobKinds.expire, (payload) =>
      Effect.flatMap(decodeJob(payload), ({ paymentId }) =>
        Effect.gen(function*() {
          const found = yield* store.findById(paymentId)
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
          yield* ledger.record(p, "payment.settled", p.id, Postings.settlement(net)).pipe(Effect.orDie)
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
          yield* ledger.record(p, "reserve.released", p.id, Postings.reserveRelease(amount)).pipe(Effect.orDie)
        }))))

    yield* jobs.handle(JobKinds.reconcile, () => Effect.asVoid(lifecycle.reconcile()))
    // Every worker tick proposes the poll of the current 5-minute slot; the dedupe key makes it
    // run once per slot whatever the number of replicas.
    yield* jobs.onTick(Effect.gen(function*() {
      const slot = Math.floor((yield* Clock.currentTimeMillis) / Duration.toMillis(reconcileEvery))
      yield* jobs.enqueue(JobKinds.reconcile, {}, { dedupeKey: `${JobKinds.reconcile}:${slot}` })
    }))
  })
