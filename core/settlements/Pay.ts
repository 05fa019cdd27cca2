/**
 * Paying a closed settlement batch, exactly once. The batch was written ahead as
 * `paying` with its payer in the close's transaction; the pay job asks the payer with the batch's
 * own idempotency key (`<batchId>:<providerId>`, the same on every retry), so asking again after a
 * crash or an outage answers the same transfer, never a second one.
 *
 * - `sandbox` (the sandbox chain) completes at once with a sandbox reference: no money moves
 *   anywhere but in the sandbox's own books.
 * - A provider's answer moves the batch: `complete` pays it (`settlements_in_flight` to
 *   `external`), `failed` or a refusal fails it and returns its net to `payin_available` (entry
 *   `settlement.failed`: the next batch takes it again, as a `settlement_returned` line), and
 *   `pending` keeps it `paying` with the provider's reference, polled (1, 5, 15 minutes, 1 hour,
 *   then every 6 hours for 30 days) until a notification or a poll answers.
 * - A provider that could not be asked leaves the batch `paying`: it is asked again with the same
 *   key, every 5 minutes for a day, then hourly for 30 days.
 *
 * There is no `settlement.failed` event in the spec: a merchant sees a failed payout as the
 * batch's `status: failed` with `payout.failureReason`, and its money back in the balance's
 * movements (`settlement.failed`), then in the next batch.
 */
import { DateTime, Effect, Option, Schema } from "effect"
import { apiError, type ApiErrorOf, notFound } from "../ApiError.ts"
import { ShopClocks } from "../clock/ShopClocks.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { SettlementPayoutProviders, type SettlementPayoutUpdate } from "../ports/SettlementPayoutProvider.ts"
import { SettlementStore } from "../ports/SettlementStore.ts"
import { Conflict, Transactions } from "../ports/Transactions.ts"
import { JobKinds } from "./Close.ts"
import type { SettlementBatch } from "./Settlement.ts"
import * as Money from "../Money.ts"
import type { Withdrawal } from "../balances/Withdrawal.ts"
import { Ids } from "../Ids.ts"
import { WithdrawalStore } from "../ports/WithdrawalStore.ts"
import type { BankDestination } from "./Schedule.ts"

/** Minutes from one status poll of a pending transfer to the next, by round; then every 6 hours. */
const pollMinutes = [1, 5, 15, 60]
const pollRounds = pollMinutes.length + 4 * 30
/** Asks of an unreachable provider: every 5 minutes for a day (288), then hourly for 29 more days. */
const maxPayAttempts = 288 + 24 * 29

const decodeJob = Schema.decodeUnknownEffect(Schema.Struct({ settlementId: Schema.String, round: Schema.optionalKey(Schema.Int) }))

/** A sandbox stand-in for a transaction hash: 0x and 64 hex digits of the batch id, plainly not a real chain's. */
const sandboxHash = (id: string) => `0x${Array.from(new TextEncoder().encode(id), (b) => b.toString(16).padStart(2, "0")).join("").padEnd(64, "0").slice(0, 64)}`

export const makePay = Effect.gen(function*() {
  const store = yield* SettlementStore
  const ledger = yield* Ledger
  const jobs = yield* Jobs
  const tx = yield* Transactions
  const clocks = yield* ShopClocks
  const providers = yield* SettlementPayoutProviders
  const withdrawals = yield* WithdrawalStore
  const ids = yield* Ids

  const netOf = (b: SettlementBatch) => b.summary === null ? Money.zero : b.summary.net

  /** Moves a `paying` batch by the provider's word; anything but `complete` or `failed` only records the reference. */
  const apply = (b: SettlementBatch, update: SettlementPayoutUpdate) =>
    tx.run(Effect.gen(function*() {
      const found = yield* store.findById(b.id)
      if (Option.isNone(found)) return b
      const current = found.value
      if (current.status !== "paying") return current
      const now = yield* DateTime.now
      const base: SettlementBatch = {
        ...current,
        // A refusal has no transfer: the batch keeps no reference rather than an empty one.
        providerRef: update.providerRef === "" ? current.providerRef : update.providerRef,
        transactionHash: update.transactionHash ?? current.transactionHash,
        updatedAt: now,
        version: current.version + 1
      }
      if (update.status === "pending") {
        if (current.providerRef === update.providerRef && current.transactionHash === base.transactionHash) return current
        if (!(yield* store.update(base))) return yield* new Conflict()
        return base
      }
      const net = netOf(current)
      const next: SettlementBatch = update.status === "complete"
        ? { ...base, status: "paid", paidAt: now }
        : { ...base, status: "failed", failureReason: update.detail ?? "the provider reported the transfer failed" }
      if (!(yield* store.update(next))) return yield* new Conflict()
      yield* ledger.record(current, `settlement.${next.status}`, current.id, next.status === "paid"
        ? [
          { from: "settlements_in_flight", to: "external", currency: "USD", amount: net }
        ]
        : [
          { from: "settlements_in_flight", to: "payin_available", currency: "USD", amount: net }
        ]).pipe(Effect.orDie)
      return next
    })).pipe(Effect.retry({ while: (e) => e._tag === "Conflict", times: 5 }), Effect.orDie)

  const schedulePoll = Effect.fnUntraced(function*(b: SettlementBatch, round: number) {
    if (round > pollRounds) {
      return yield* Effect.logError("settlement payout still pending after 30 days: the batch needs the operator").pipe(
        Effect.annotateLogs({ settlementId: b.id, provider: b.provider, providerRef: b.providerRef })
      )
    }
    const minutes = pollMinutes[round - 1] ?? 360
    yield* jobs.enqueue(JobKinds.poll, { settlementId: b.id, round }, {
      runAt: DateTime.add(yield* DateTime.now, { minutes }),
      dedupeKey: `${JobKinds.poll}:${b.id}:${round}`
    })
  })

  /**
   * A batch paid to a bank account becomes a withdrawal (no fee: the batch is the merchant's
   * scheduled payout), written with the batch in one transaction: its net moves from
   * `settlements_in_flight` to `withdrawals_in_flight`, and the batch names the withdrawal. The
   * withdrawal is then confirmed as every withdrawal is (the operator, or the sandbox
   * simulation), and moves the batch with it (`Withdrawals`); its failure returns the money.
   */
  const payByWithdrawal = (b: SettlementBatch, destination: BankDestination) =>
    tx.run(Effect.gen(function*() {
      const found = yield* store.findById(b.id)
      if (Option.isNone(found) || found.value.status !== "paying" || found.value.providerRef !== null) return
      const current = found.value
      const now = yield* DateTime.now
      const net = netOf(current)
      const withdrawal: Withdrawal = {
        id: yield* ids.next("withdrawal"),
        environment: current.environment,
        merchantId: current.merchantId,
        shopId: current.shopId,
        amount: net,
        fee: Money.zero,
        status: "processing",
        destination: { accountHolder: destination.accountHolder, bankName: destination.bankName, accountNumber: destination.accountNumber, swiftCode: destination.swiftCode },
        failureReason: null,
        settlementId: current.id,
        createdAt: now,
        updatedAt: now,
        completedAt: null,
        version: 1
      }
      if (!(yield* store.update({ ...current, providerRef: withdrawal.id, updatedAt: now, version: current.version + 1 }))) return yield* new Conflict()
      yield* withdrawals.insert(withdrawal)
      yield* ledger.record(current, "settlement.withdrawal", current.id, [
        { from: "settlements_in_flight", to: "withdrawals_in_flight", currency: "USD", amount: net }
      ]).pipe(Effect.orDie)
    })).pipe(Effect.retry({ while: (e) => e._tag === "Conflict", times: 5 }), Effect.orDie)

  /** Carries out the payout of a batch written ahead; safe to run again (same key, same transfer). */
  /**
   * A provider that could not be asked is asked again with the same key: every 5 minutes for a
   * day, then every hour for 30 days (the batch stays `paying`, its money in flight); then the
   * batch is the operator's. A job's own retries would give up after hours.
   */
  const retryLater = Effect.fnUntraced(function*(b: SettlementBatch, attempt: number, reason: string) {
    yield* Effect.logWarning("settlement payout provider unavailable: the batch stays paying and is asked again").pipe(
      Effect.annotateLogs({ settlementId: b.id, provider: b.provider, attempt, reason })
    )
    if (attempt >= maxPayAttempts) {
      return yield* Effect.logError("settlement payout provider unreachable for 30 days: the batch needs the operator").pipe(
        Effect.annotateLogs({ settlementId: b.id, provider: b.provider })
      )
    }
    yield* jobs.enqueue(JobKinds.pay, { settlementId: b.id, round: attempt + 1 }, {
      runAt: DateTime.add(yield* DateTime.now, { minutes: attempt < 288 ? 5 : 60 }),
      dedupeKey: `${JobKinds.pay}:${b.id}:${attempt + 1}`
    })
  })

  const pay = Effect.fnUntraced(function*(settlementId: string, attempt = 1) {
    const found = yield* store.findById(settlementId)
    if (Option.isNone(found) || found.value.status !== "paying" || found.value.providerRef !== null) return
    const b = found.value
    if (b.destination.kind === "bank") return yield* payByWithdrawal(b, b.destination)
    if (b.provider === "sandbox") {
      yield* apply(b, { providerRef: `sbx_${b.id}`, status: "complete", transactionHash: sandboxHash(b.id) })
      return
    }
    const provider = b.provider === null ? undefined : providers.byId(b.provider)
    if (provider === undefined) {
      // The payer was configured at the close and is not now: whether it was asked is unknown,
      // so the batch stays paying and the job retries (the operator restores the connector).
      return yield* Effect.fail(`settlement payout provider '${b.provider}' is not configured`)
    }
    const sent = yield* provider.send({
      batchId: b.id,
      idempotencyKey: `${b.id}:${provider.id}`,
      environment: b.environment,
      amountUsd: Money.round(netOf(b), "USD"),
      destination: { chain: b.destination.chain, address: b.destination.address }
    }).pipe(
      Effect.map((update): Option.Option<SettlementPayoutUpdate> => Option.some(update)),
      Effect.catchTag("SettlementPayoutRejected", (e) => Effect.succeed(Option.some<SettlementPayoutUpdate>({ providerRef: "", status: "failed", detail: `refused: ${e.reason}` }))),
      Effect.catchTag("SettlementPayoutUnavailable", (e) => Effect.as(retryLater(b, attempt, e.reason), Option.none<SettlementPayoutUpdate>()))
    )
    if (Option.isNone(sent)) return
    const after = yield* apply(b, sent.value)
    if (after.status === "paying") yield* schedulePoll(after, 1)
  })

  yield* jobs.handle(JobKinds.pay, (payload) => Effect.flatMap(decodeJob(payload), ({ round, settlementId }) => pay(settlementId, round ?? 1)))

  yield* jobs.handle(JobKinds.poll, Effect.fnUntraced(function*(payload: unknown) {
    const { round = 1, settlementId } = yield* decodeJob(payload)
    const found = yield* store.findById(settlementId)
    if (Option.isNone(found) || found.value.status !== "paying" || found.value.providerRef === null) return
    const b = found.value
    const provider = b.provider === null ? undefined : providers.byId(b.provider)
    if (provider === undefined) return yield* Effect.fail(`settlement payout provider '${b.provider}' is not configured`)
    const update = yield* provider.status(b.providerRef!).pipe(Effect.result)
    const after = update._tag === "Success" ? yield* apply(b, update.success) : b
    if (after.status === "paying") yield* schedulePoll(after, round + 1)
  }))

  /** A provider's notification, verified by its plugin; each transfer it names moves its batch on the batch's shop clock. */
  const callback = Effect.fn("Settlements.callback")(function*(providerId: string, headers: Readonly<Record<string, string | undefined>>, rawBody: string): Effect.fn.Return<number, ApiErrorOf<"not_found" | "authentication_failed">> {
    const provider = providers.byId(providerId)
    if (provider === undefined) return yield* notFound("settlement payout provider", providerId)
    const updates = yield* provider.verifyCallback(headers, rawBody).pipe(
      Effect.mapError((e) => apiError("authentication_failed", `The notification was rejected: ${e.reason}`))
    )
    let moved = 0
    for (const update of updates) {
      const byRef = yield* store.findByProviderRef(providerId, update.providerRef)
      const found = Option.isSome(byRef) || update.batchId === undefined ? byRef : yield* store.findById(update.batchId)
      if (Option.isNone(found) || found.value.provider !== providerId) continue
      yield* clocks.within(found.value.environment, found.value.shopId, apply(found.value, update))
      moved++
    }
    return moved
  })

  return { pay, callback }
})
