/**
 * Closing a shop's open settlement batch, exactly once per scheduled close.
 *
 * One transaction: lock the shop's `payin_available` USD, take every journal entry that posted to
 * it and belongs to no batch yet (their sum is that balance: checked, a difference is a bug), and,
 * when the net reaches the schedule's minimum, sweep it in one balanced entry
 * (`payin_available` to `settlements_in_flight`), bind the entries to the batch as its lines, mark
 * the batch `paying` with the provider that will pay it (written ahead: the payout job asks the
 * provider with the batch's own key), open the next batch, emit `settlement.closed` and enqueue
 * the payout and the statement. Below the minimum (or nothing to pay) the batch stays open and its
 * period runs on to the next close.
 *
 * Money a withdrawal or a transfer in flight holds has already left `payin_available`, so a close
 * never takes it; an entry that commits while a close runs waits for the lock and belongs to the
 * next batch.
 */
import { BigDecimal, DateTime, Effect, Option } from "effect"
import { RefundStore } from "../ports/RefundStore.ts"
import { Ids } from "../Ids.ts"
import { Jobs } from "../jobs/Jobs.ts"
import type { JournalEntry } from "../ledger/Journal.ts"
import { Ledger } from "../ledger/Ledger.ts"
import * as Money from "../Money.ts"
import type { Payment } from "../payments/Payment.ts"
import { LedgerStore } from "../ports/LedgerStore.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { SettlementPayoutProviders } from "../ports/SettlementPayoutProvider.ts"
import { SettlementStore } from "../ports/SettlementStore.ts"
import { Conflict, Transactions } from "../ports/Transactions.ts"
import { Events } from "../webhooks/Events.ts"
import { availableDelta, type LineSource, lineOf, summaryOf } from "./Lines.ts"
import { type DestinationState, nextCloseOf, sandboxChain, type SettlementSchedule } from "./Schedule.ts"
import { type SettlementBatch, sweepKind } from "./Settlement.ts"
import { settlementView } from "./SettlementView.ts"

export const JobKinds = {
  close: "settlement.close",
  pay: "settlement.pay",
  poll: "settlement.poll",
  statement: "settlement.statement"
} as const

/**
 * Who pays a batch: `withdrawal` for a bank account, `sandbox` for the sandbox chain, else the
 * provider configured for the chain (null: none).
 */
export const payerOf = (providers: SettlementPayoutProviders["Service"], schedule: SettlementSchedule): string | null =>
  schedule.destination.kind === "bank"
    ? withdrawalPayer
    : schedule.environment === "sandbox" && schedule.destination.chain === sandboxChain
    ? "sandbox"
    : providers.forChain(schedule.environment, schedule.destination.chain)?.id ?? null

/** The payer of a batch paid to a bank account: a withdrawal, confirmed as withdrawals are. */
export const withdrawalPayer = "withdrawal"

export const makeClose = Effect.gen(function*() {
  const store = yield* SettlementStore
  const ledgerStore = yield* LedgerStore
  const ledger = yield* Ledger
  const payments = yield* PaymentStore
  const claims = yield* RefundStore
  const jobs = yield* Jobs
  const events = yield* Events
  const ids = yield* Ids
  const tx = yield* Transactions
  const providers = yield* SettlementPayoutProviders

  /** The payment each entry is about: its reference is the payment, or a claim on it. */
  const sourcesOf = Effect.fnUntraced(function*(entries: ReadonlyArray<JournalEntry>) {
    const found = new Map<string, Payment | undefined>()
    const paymentOf = (transactionId: string) =>
      found.has(transactionId)
        ? Effect.succeed(found.get(transactionId))
        : Effect.map(payments.findById(transactionId), (p) => {
          found.set(transactionId, Option.getOrUndefined(p))
          return Option.getOrUndefined(p)
        })
    return yield* Effect.forEach(entries, (entry) =>
      Effect.gen(function*() {
        if (entry.reference.startsWith("TXN-")) return { entry, payment: yield* paymentOf(entry.reference) } satisfies LineSource
        if (entry.reference.startsWith("CLM-")) {
          const claim = yield* claims.findById(entry.reference)
          return { entry, payment: Option.isSome(claim) ? yield* paymentOf(claim.value.transactionId) : undefined } satisfies LineSource
        }
        return { entry, payment: undefined } satisfies LineSource
      }))
  })

  /** A new open batch from `start` to the schedule's next close. */
  const openBatch = Effect.fnUntraced(function*(schedule: SettlementSchedule, merchantId: string, start: DateTime.Utc) {
    const batch: SettlementBatch = {
      id: yield* ids.next("settlement"),
      environment: schedule.environment,
      merchantId,
      shopId: schedule.shopId,
      status: "open",
      periodStart: start,
      periodEnd: nextCloseOf(schedule, start) ?? start,
      closedAt: null,
      destination: schedule.destination,
      summary: null,
      lineCount: 0,
      provider: null,
      providerRef: null,
      transactionHash: null,
      failureReason: null,
      statementReadyAt: null,
      createdAt: start,
      updatedAt: start,
      paidAt: null,
      version: 1
    }
    yield* store.insert(batch)
    return batch
  })

  /**
   * Closes the shop's open batch now. Answers the closed batch, or none when it stays open (below
   * the minimum, nothing to pay). Run it on the shop's clock.
   */
  /**
   * `held`: the payer's word that it will not pay the destination now (an address book entry its
   * administrator has not approved): the batch stays open and rolls over, nothing moves.
   */
  const close = (schedule: SettlementSchedule, held?: DestinationState | undefined) =>
    tx.run(Effect.gen(function*() {
      const found = yield* store.open(schedule.environment, schedule.shopId)
      if (Option.isNone(found)) return Option.none<SettlementBatch>()
      const open = found.value
      const now = yield* DateTime.now
      const next = nextCloseOf(schedule, now) ?? now
      const available = yield* ledgerStore.lockBalance(schedule.environment, schedule.shopId, "payin_available", "USD")
      const entries = yield* store.unbatched(schedule.environment, schedule.shopId)
      const net = BigDecimal.normalize(BigDecimal.sumAll(entries.map(availableDelta)))
      if (!BigDecimal.equals(net, BigDecimal.normalize(available))) {
        // The shop's first money ever reaching available can race the close: its balance row did
        // not exist to be locked yet. Read again; a difference that stays is a bug (below).
        yield* Effect.logWarning(`settlement ${open.id}: the unbatched entries sum to ${Money.toText(net)} but payin_available holds ${Money.toText(available)}; read again`)
        return yield* new Conflict()
      }
      const payer = payerOf(providers, schedule)
      if (!BigDecimal.isPositive(net) || BigDecimal.isLessThan(net, schedule.minimumUsd) || payer === null || held !== undefined) {
        if (payer === null && BigDecimal.isPositive(net)) {
          yield* Effect.logError("settlement close: no settlement payout provider pays on the destination's chain; the batch stays open").pipe(
            Effect.annotateLogs({ settlementId: open.id, destination: schedule.destination.kind === "usdc" ? schedule.destination.chain : "bank" })
          )
        } else if (held !== undefined && BigDecimal.isPositive(net)) {
          yield* Effect.logError("settlement close: the payer has not approved the destination; the batch stays open, nothing is sent").pipe(
            Effect.annotateLogs({ settlementId: open.id, provider: held.provider, approval: held.status, detail: held.detail })
          )
        }
        const extended: SettlementBatch = { ...open, periodEnd: next, destination: schedule.destination, updatedAt: now, version: open.version + 1 }
        if (!(yield* store.update(extended))) return yield* new Conflict()
        return Option.none<SettlementBatch>()
      }
      const sources = yield* sourcesOf(entries)
      const closed: SettlementBatch = {
        ...open,
        status: "paying",
        periodEnd: now,
        closedAt: now,
        destination: schedule.destination,
        summary: summaryOf(sources),
        lineCount: sources.length,
        provider: payer,
        updatedAt: now,
        version: open.version + 1
      }
      if (!(yield* store.update(closed))) return yield* new Conflict()
      yield* ledger.record(schedule, sweepKind, closed.id, [
        { from: "payin_available", to: "settlements_in_flight", currency: "USD", amount: net }
      ]).pipe(Effect.orDie)
      yield* store.addLines(closed.id, sources.map((source) => ({ entryId: source.entry.id, line: lineOf(source) })))
      yield* openBatch(schedule, open.merchantId, now)
      yield* events.emit({
        environment: closed.environment,
        merchantId: closed.merchantId,
        shopId: closed.shopId,
        type: "settlement.closed",
        data: settlementView(closed),
        relatedTxId: null,
        relatedId: closed.id
      })
      yield* jobs.enqueue(JobKinds.pay, { settlementId: closed.id }, { dedupeKey: `${JobKinds.pay}:${closed.id}` })
      yield* jobs.enqueue(JobKinds.statement, { settlementId: closed.id }, { dedupeKey: `${JobKinds.statement}:${closed.id}` })
      return Option.some(closed)
    })).pipe(
      Effect.retry({ while: (e) => e._tag === "Conflict", times: 5 }),
      Effect.catchTag("Conflict", () =>
        Effect.die(new Error(`settlement close of ${schedule.shopId}: the batch changed or the unbatched entries disagree with payin_available, 6 times`)))
    )

  return { close, openBatch }
})
