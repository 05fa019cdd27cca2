/**
 * Settlement batches through the library, as an embedder runs them, on TestClock.
 *
 * Property: whatever random history a sandbox shop lives (payments with every outcome, refunds
 * full and partial, chargebacks decided either way, withdrawals completed and failed, transfers
 * to the payout balance) over random days, with its default daily schedule closing batches:
 * - every journal entry that moved `payin_available` (but the sweeps) is a line of exactly one
 *   closed batch, or is still waiting in the open one;
 * - each closed batch's lines sum exactly to its net, and its summary adds up to the same net;
 * - each line goes from gross to net (gross - fees + reserve - owed recovered - refunds -
 *   chargebacks + other = net) exactly, and each column summed is the summary's figure;
 * - the sweeps took exactly the closed batches' nets, and what is paid left through `external`;
 * - the ledger balances as a whole (every entry balanced, cached = posted).
 *
 * Then the payout paths with a settlement payout plugin: a refusal fails the batch and returns its
 * money to available, where the next batch takes it (a `settlement_returned` line); a pending
 * transfer is polled until it completes; a retry never sends a second transfer.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { Withdrawals } from "../../core/balances/Withdrawals.ts"
import { Refunds } from "../../core/refunds/Refunds.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import { imbalance } from "../../core/ledger/Ledger.ts"
import * as Money from "../../core/Money.ts"
import { RefundStore } from "../../core/ports/RefundStore.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import type { SandboxSimulate } from "../../core/ports/PaymentProvider.ts"
import {
  type SettlementPayoutProvider,
  SettlementPayoutProviders,
  SettlementPayoutRejected,
  type SettlementPayoutRequest,
  SettlementPayoutUnavailable,
  type SettlementPayoutUpdate
} from "../../core/ports/SettlementPayoutProvider.ts"
import { SettlementStore } from "../../core/ports/SettlementStore.ts"
import { Payments } from "../../core/payments/Payments.ts"
import { Payouts } from "../../core/payouts/Payouts.ts"
import { lineTotal, summaryTotal } from "../../core/settlements/Lines.ts"
import { Settlements } from "../../core/settlements/Settlements.ts"
import { linesTotal } from "../../core/settlements/Statement.ts"
import type { ShopScope } from "../../core/tenancy/Scopes.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { EngineTest, EngineTestWith, newScope } from "../support/Engine.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { prng } from "../support/Random.ts"


const drain = Effect.gen(function*() {
  const jobs = yield* Jobs
  while ((yield* jobs.runDue) > 0) {
    // everything due
  }
})

const account = (scope: ShopScope) => ({ environment: scope.environment, merchantId: scope.merchant.id, shopId: scope.shop.id })
const text = (d: BigDecimal.BigDecimal) => BigDecimal.format(BigDecimal.normalize(d))

const allBatches = (scope: ShopScope) => Effect.map(Effect.flatMap(Settlements, (s) => s.list(account(scope), { limit: 10_000, offset: 0 })), (r) => r.rows)

const outcomes: ReadonlyArray<SandboxSimulate | undefined> = ["paid", "paid", "paid", "paid", "failed", "chargeback", undefined]
const destination = { accountHolder: "Acme SA", bankName: "BBVA", accountNumber: "032180000118359719" }

const history = (seed: number) =>
  Effect.gen(function*() {
    const random = prng(seed)
    const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(random() * xs.length)]!
    const scope = yield* newScope("sandbox", { tier: pick(["starter", "standard", "premium"] as const) })
    const payments = yield* Payments
    const claims = yield* Refunds
    const claimStore = yield* RefundStore
    const withdrawals = yield* Withdrawals
    const payouts = yield* Payouts
    const ids: Array<string> = []
    for (let day = 0; day < 12; day++) {
      for (let step = 0; step < 6; step++) {
        const op = random()
        if (op < 0.5) {
          const created = yield* Effect.result(payments.create(scope, {
            amount: Money.decimal((5 + random() * 400).toFixed(2)),
            paymentMethodId: pick(["sbx_pix", "sbx_spei", "sbx_card", "sbx_cash"]),
            simulate: pick(outcomes)
          }))
          if (created._tag === "Success") ids.push(created.success.id)
        } else if (op < 0.7 && ids.length > 0) {
          const p = yield* payments.get(scope, pick(ids))
          const amount = random() < 0.5 ? Money.round(BigDecimal.multiply(p.amountLocal, Money.decimal(random().toFixed(2))), p.currencyLocal) : undefined
          yield* Effect.result(claims.refund(scope, p.id, { amount }))
        } else if (op < 0.8) {
          const open = (yield* Effect.forEach(ids, (id) => claimStore.forPayment(id))).flat().filter((c) => c.kind === "chargeback" && c.status === "open")
          if (open.length > 0) yield* Effect.result(claims.simulateChargeback(scope, pick(open).id, pick(["won", "lost"] as const)))
        } else if (op < 0.9) {
          const w = yield* Effect.result(withdrawals.request(scope, { amount: Money.decimal((10 + random() * 60).toFixed(2)), destination }))
          if (w._tag === "Success") yield* Effect.result(withdrawals.simulate(scope, w.success.id, pick(["completed", "failed"] as const)))
        } else {
          yield* Effect.result(payouts.transfer(scope, Money.decimal((1 + random() * 40).toFixed(2))))
        }
        yield* drain
        yield* TestClock.adjust(`${1 + Math.floor(random() * 4)} hours`)
      }
      yield* TestClock.adjust("1 day")
      yield* drain
    }
    return scope
  })

/** The invariants of a shop's batches against its journal. */
const checkBatches = (scope: ShopScope, label: string) =>
  Effect.gen(function*() {
    const ledger = yield* LedgerStore
    const store = yield* SettlementStore
    const settlements = yield* Settlements
    const { entries } = yield* ledger.entries(scope.environment, scope.shop.id, { limit: 100_000, offset: 0 })
    const movesAvailable = entries.filter((e) => e.postings.some((p) => p.book === "payin_available" && p.currency === "USD"))
    const sweeps = movesAvailable.filter((e) => e.kind === "settlement.closed")
    const movements = movesAvailable.filter((e) => e.kind !== "settlement.closed")
    const batches = yield* allBatches(scope)
    const closed = batches.filter((b) => b.status !== "open")
    assert.strictEqual(batches.filter((b) => b.status === "open").length, 1, `${label}: one open batch`)

    // Every movement in exactly one batch: the closed batches' lines and the open batch's
    // waiting entries together are the movements, each once.
    const seen = new Map<string, number>()
    const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1)
    let swept = Money.zero
    for (const b of closed) {
      const lines = yield* store.lines(b.id)
      assert.strictEqual(lines.length, b.lineCount, `${label}: ${b.id} line count`)
      assert.strictEqual(text(linesTotal(lines)), text(b.summary!.net), `${label}: ${b.id} lines sum to net`)
      assert.strictEqual(text(summaryTotal(b.summary!)), text(b.summary!.net), `${label}: ${b.id} summary adds up`)
      assert.isTrue(BigDecimal.isPositive(b.summary!.net), `${label}: ${b.id} pays something`)
      // Each line goes from gross to net exactly, and its columns add up to the summary's.
      for (const l of lines) assert.strictEqual(text(lineTotal(l)), text(l.amountUsd), `${label}: ${l.kind} ${l.reference} gross to net`)
      const column = (f: (l: typeof lines[number]) => BigDecimal.BigDecimal) => text(BigDecimal.sumAll(lines.map(f)))
      const s = b.summary!
      assert.deepStrictEqual(
        [column((l) => l.grossUsd), column((l) => l.feesUsd), column((l) => l.reserveUsd), column((l) => l.owedRecoveredUsd), column((l) => l.refundsUsd), column((l) => l.chargebacksUsd), column((l) => l.otherUsd)],
        [
          text(s.gross),
          text(BigDecimal.sumAll([s.fees.platform, s.fees.provider, s.fees.chargeback])),
          text(BigDecimal.subtract(s.reserveReleased, s.reserveHeld)),
          text(s.owedRecovered),
          text(s.refunds),
          text(s.chargebacks),
          text(s.other)
        ],
        `${label}: ${b.id} columns = summary`
      )
      for (const l of lines) count(`${l.reference}|${l.kind}|${DateTime.formatIso(l.at)}|${text(l.amountUsd)}`)
      swept = BigDecimal.sum(swept, b.summary!.net)
      // The statement renders (checked) for every closed batch.
      const statement = yield* settlements.statement(account(scope), b.id)
      assert.strictEqual(statement.lines.length, b.lineCount)
    }
    const waiting = yield* store.unbatched(scope.environment, scope.shop.id)
    const moved = (e: typeof entries[number]) =>
      text(BigDecimal.sumAll(e.postings.filter((p) => p.book === "payin_available" && p.currency === "USD").map((p) => p.amount)))
    const lineKey = (e: typeof entries[number]) => e.reference
    assert.strictEqual(seen.size + waiting.length <= movements.length, true, `${label}: no line without its entry`)
    const linesTotalCount = [...seen.values()].reduce((a, b) => a + b, 0)
    assert.strictEqual(linesTotalCount + waiting.length, movements.length, `${label}: every movement in exactly one batch`)
    for (const [key, n] of seen) assert.strictEqual(n, 1, `${label}: ${key} in ${n} batches`)
    for (const e of waiting) assert.isTrue(movements.some((m) => m.id === e.id), `${label}: waiting ${lineKey(e)} ${moved(e)}`)

    // The sweeps took exactly the closed batches' nets; what was paid left through `external`.
    const sweptByLedger = BigDecimal.negate(BigDecimal.sumAll(sweeps.flatMap((e) => e.postings.filter((p) => p.book === "payin_available").map((p) => p.amount))))
    assert.strictEqual(text(sweptByLedger), text(swept), `${label}: sweeps = nets`)
    const inFlight = yield* ledger.balance(scope.environment, scope.shop.id, "settlements_in_flight", "USD")
    // (A batch paid to a bank is in flight as its withdrawal's money.)
    const paying = BigDecimal.sumAll(closed.filter((b) => b.status === "paying" && b.destination.kind === "usdc").map((b) => b.summary!.net))
    assert.strictEqual(text(inFlight), text(paying), `${label}: in flight = paying batches`)
    // The ledger as a whole: every entry balanced; cached balances = postings.
    for (const e of entries) assert.deepStrictEqual(imbalance(e), [], `${label}: ${e.kind} ${e.reference}`)
    const cached = yield* ledger.balances(scope.environment, scope.shop.id)
    for (const s of yield* ledger.postingSums(scope.environment, scope.shop.id)) {
      const c = cached.find((x) => x.book === s.book && x.currency === s.currency)
      assert.isTrue(c !== undefined && BigDecimal.equals(c.balance, s.balance), `${label}: ${s.book} ${s.currency}`)
    }
    return { batches, closed }
  })

describe("settlement batches", () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it.effect(`random history, seed ${seed}: every movement in exactly one batch, lines sum to net`, () =>
      Effect.gen(function*() {
        const scope = yield* history(seed)
        const { closed } = yield* checkBatches(scope, `seed ${seed}`)
        assert.isAtLeast(closed.length, 3, `seed ${seed}: closes happened`)
        // Sandbox batches on the sandbox chain are paid at once.
        for (const b of closed) assert.strictEqual(b.status, "paid", `seed ${seed}: ${b.id}`)
      }).pipe(Effect.provide(EngineTest)))
  }

  it.effect("a week of daily closes, money every day: seven batches, each with its day's payments, and one event each", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      const payments = yield* Payments
      // Sandbox pix settles T+1 here? Whatever its delay, after it every day brings one payment.
      for (let day = 0; day < 12; day++) {
        yield* Effect.result(payments.create(scope, { amount: Money.decimal("100"), paymentMethodId: "sbx_pix", simulate: "paid" }))
        yield* drain
        yield* TestClock.adjust("1 day")
        yield* drain
      }
      const { closed } = yield* checkBatches(scope, "week")
      assert.isAtLeast(closed.length, 7)
      const events = yield* (yield* OutboxStore).list(scope.environment, scope.shop.id)
      const closedEvents = events.filter((e) => e.type === "settlement.closed")
      const ready = events.filter((e) => e.type === "settlement.pdf_ready")
      assert.strictEqual(closedEvents.length, closed.length)
      assert.strictEqual(ready.length, closed.length)
      assert.sameMembers(closedEvents.map((e) => e.relatedId), closed.map((b) => b.id))
    }).pipe(Effect.provide(EngineTest)))
})

/** A settlement payout plugin whose answers a test scripts, recording what it was asked. */
const scripted = () => {
  const sent: Array<SettlementPayoutRequest> = []
  const transfers = new Map<string, SettlementPayoutUpdate>()
  const state = { answer: "pending" as "pending" | "complete" | "reject" | "unavailable", statusAnswer: "pending" as "pending" | "complete" | "failed" }
  const provider: SettlementPayoutProvider = {
    id: "usdc-test",
    environments: ["production", "sandbox"],
    chains: ["ETH"],
    send: (request) =>
      Effect.suspend((): Effect.Effect<SettlementPayoutUpdate, SettlementPayoutRejected | SettlementPayoutUnavailable> => {
        sent.push(request)
        if (state.answer === "reject") return Effect.fail(new SettlementPayoutRejected({ reason: "address not allowed" }))
        if (state.answer === "unavailable") return Effect.fail(new SettlementPayoutUnavailable({ reason: "503 from upstream" }))
        const existing = transfers.get(request.idempotencyKey)
        if (existing !== undefined) return Effect.succeed(existing)
        const update: SettlementPayoutUpdate = { providerRef: `tr_${transfers.size + 1}`, batchId: request.batchId, status: state.answer === "complete" ? "complete" : "pending" }
        transfers.set(request.idempotencyKey, update)
        return Effect.succeed(update)
      }),
    status: (providerRef) =>
      Effect.sync(() => ({ providerRef, status: state.statusAnswer, transactionHash: state.statusAnswer === "complete" ? "0xabc" : undefined })),
    verifyCallback: () => Effect.succeed([])
  }
  return { sent, state, layer: SettlementPayoutProviders.layer([provider]) }
}

const withProvider = (p: ReturnType<typeof scripted>) =>
  EngineTestWith(Payouts.noProviders, MemoryStore.layer, p.layer)

const usdcEth = { frequency: "daily" as const, time: "00:00", destination: { kind: "usdc" as const, chain: "ETH", address: "0x1111222233334444555566667777888899990000" } }

const settledPayment = (scope: ShopScope) =>
  Effect.gen(function*() {
    const payments = yield* Payments
    yield* payments.create(scope, { amount: Money.decimal("200"), paymentMethodId: "sbx_pix", simulate: "paid" })
    yield* drain
    for (let i = 0; i < 5; i++) {
      yield* TestClock.adjust("1 day")
      yield* drain
    }
  })

describe("a schedule that does not keep reserves", () => {
  it.effect("the close releases every reserve first, the batch pays it, and the release jobs later release nothing twice", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      const settlements = yield* Settlements
      const ledger = yield* LedgerStore
      yield* settlements.setSchedule(account(scope), { frequency: "daily", time: "00:00", destination: { kind: "usdc", chain: "SANDBOX", address: "0xSANDBOXNORESERVE" }, keepReserve: false })
      yield* settledPayment(scope)
      const reserve = yield* ledger.balance("sandbox", scope.shop.id, "payin_reserve", "USD")
      assert.strictEqual(text(reserve), "0")
      const closed = (yield* allBatches(scope)).filter((b) => b.status !== "open")
      assert.isTrue(closed.some((b) => BigDecimal.isPositive(b.summary!.reserveReleased)))
      // Past every release date: the scheduled releases find the reserve released.
      for (let i = 0; i < 100; i++) {
        yield* TestClock.adjust("1 day")
        yield* drain
      }
      const after = yield* checkBatches(scope, "no reserve")
      const released = BigDecimal.sumAll(after.closed.map((b) => b.summary!.reserveReleased))
      const held = BigDecimal.sumAll(after.closed.map((b) => b.summary!.reserveHeld))
      assert.strictEqual(text(released), text(held), "released exactly what was held, once")
    }).pipe(Effect.provide(EngineTest)))
})

describe("a schedule paying a bank account, through the withdrawal path", () => {
  it.effect("a batch becomes a withdrawal without fee; its completion pays the batch, its failure fails it and returns the money to the next batch", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      const settlements = yield* Settlements
      const withdrawals = yield* Withdrawals
      const ledger = yield* LedgerStore
      yield* settlements.setSchedule(account(scope), {
        frequency: "daily",
        time: "00:00",
        destination: { kind: "bank", accountHolder: "Acme SA", bankName: "BBVA", accountNumber: "0321-8000-0118-359719" }
      })
      yield* settledPayment(scope)
      const first = (yield* allBatches(scope)).filter((b) => b.status === "paying")
      assert.strictEqual(first.length, 1)
      const batch = first[0]!
      assert.match(batch.providerRef ?? "", /^wdr_/)
      const w = yield* withdrawals.get(scope, batch.providerRef!)
      assert.strictEqual(w.status, "processing")
      assert.strictEqual(text(w.amount), text(batch.summary!.net))
      assert.strictEqual(text(w.fee), "0")
      assert.strictEqual(w.destination.accountNumber, "032180000118359719")
      assert.strictEqual(text(yield* ledger.balance("sandbox", scope.shop.id, "withdrawals_in_flight", "USD")), text(batch.summary!.net))
      yield* withdrawals.simulate(scope, w.id, "completed")
      const paid = Option.getOrThrow(yield* (yield* SettlementStore).findById(batch.id))
      assert.strictEqual(paid.status, "paid")

      // The next one fails at the bank: the batch fails, and its money is back for the batch after.
      yield* (yield* Payments).create(scope, { amount: Money.decimal("80"), paymentMethodId: "sbx_pix", simulate: "paid" })
      for (let i = 0; i < 5; i++) {
        yield* TestClock.adjust("1 day")
        yield* drain
      }
      const second = (yield* allBatches(scope)).filter((b) => b.status === "paying")
      assert.strictEqual(second.length, 1)
      yield* withdrawals.simulate(scope, second[0]!.providerRef!, "failed")
      const failed = Option.getOrThrow(yield* (yield* SettlementStore).findById(second[0]!.id))
      assert.strictEqual(failed.status, "failed")
      assert.match(failed.failureReason ?? "", /withdrawal .* failed/)
      const waiting = yield* (yield* SettlementStore).unbatched("sandbox", scope.shop.id)
      assert.isTrue(waiting.some((e) => e.kind === "withdrawal.failed" && e.reference === second[0]!.providerRef))
      yield* checkBatches(scope, "bank")
      const statement = yield* settlements.statement(account(scope), batch.id)
      assert.deepStrictEqual(statement.batch.destination, { kind: "bank", label: "BBVA ****9719 (Acme SA)" })
    }).pipe(Effect.provide(EngineTest)))
})

describe("settlement payouts through a plugin", () => {
  it.effect("a refused payout fails the batch, returns its net to available, and the next batch takes it again", () => {
    const provider = scripted()
    provider.state.answer = "reject"
    return Effect.gen(function*() {
      const scope = yield* newScope()
      const settlements = yield* Settlements
      yield* settlements.setSchedule(account(scope), usdcEth)
      yield* settledPayment(scope)
      const failed = (yield* allBatches(scope)).filter((b) => b.status === "failed")
      assert.isAtLeast(failed.length, 1)
      assert.match(failed[0]!.failureReason ?? "", /address not allowed/)
      // Its money came back: available holds it, as a `settlement_returned` movement.
      provider.state.answer = "complete"
      yield* TestClock.adjust("1 day")
      yield* drain
      const { closed } = yield* checkBatches(scope, "refused")
      const paid = closed.filter((b) => b.status === "paid")
      assert.isAtLeast(paid.length, 1)
      const lines = yield* (yield* SettlementStore).lines(paid[paid.length - 1]!.id)
      assert.isTrue(lines.some((l) => l.kind === "settlement_returned" && l.reference === failed[0]!.id))
      // Every refused send was asked once per batch, with the batch's own key.
      assert.isTrue(provider.sent.every((r) => r.idempotencyKey === `${r.batchId}:usdc-test`))
    }).pipe(Effect.provide(withProvider(provider)))
  })

  it.effect("a pending transfer is polled until it completes; the batch is paid once, with its hash", () => {
    const provider = scripted()
    return Effect.gen(function*() {
      const scope = yield* newScope()
      yield* (yield* Settlements).setSchedule(account(scope), usdcEth)
      yield* settledPayment(scope)
      const paying = (yield* allBatches(scope)).filter((b) => b.status === "paying")
      assert.isAtLeast(paying.length, 1)
      assert.isNotNull(paying[0]!.providerRef)
      provider.state.statusAnswer = "complete"
      yield* TestClock.adjust("2 hours")
      yield* drain
      const after = Option.getOrThrow(yield* (yield* SettlementStore).findById(paying[0]!.id))
      assert.strictEqual(after.status, "paid")
      assert.strictEqual(after.transactionHash, "0xabc")
      // One send per batch: the poll never sends again.
      const batchesSent = provider.sent.map((r) => r.batchId)
      assert.strictEqual(new Set(batchesSent).size, batchesSent.length)
      yield* checkBatches(scope, "pending")
    }).pipe(Effect.provide(withProvider(provider)))
  })

  it.effect("a provider unreachable for hours: the batch stays paying, asked again with the same key until it answers, then paid once", () => {
    const provider = scripted()
    provider.state.answer = "unavailable"
    return Effect.gen(function*() {
      const scope = yield* newScope()
      yield* (yield* Settlements).setSchedule(account(scope), usdcEth)
      yield* settledPayment(scope)
      const paying = (yield* allBatches(scope)).filter((b) => b.status === "paying")
      assert.strictEqual(paying.length, 1)
      // Eight hours of outage, in 5-minute steps: more than a job's own retries would last.
      for (let i = 0; i < 96; i++) {
        yield* TestClock.adjust("5 minutes")
        yield* drain
      }
      assert.isAbove(provider.sent.length, 10, "asked again and again")
      provider.state.answer = "complete"
      for (let i = 0; i < 12; i++) {
        yield* TestClock.adjust("5 minutes")
        yield* drain
      }
      const after = Option.getOrThrow(yield* (yield* SettlementStore).findById(paying[0]!.id))
      assert.strictEqual(after.status, "paid")
      assert.isTrue(provider.sent.every((r) => r.idempotencyKey === `${paying[0]!.id}:usdc-test`), "one key: never a second transfer")
      yield* checkBatches(scope, "outage")
    }).pipe(Effect.provide(withProvider(provider)))
  })

  it.effect("production refuses a schedule on a chain no plugin pays on", () =>
    Effect.gen(function*() {
      const scope = yield* newScope("production")
      const refused = yield* Effect.flip((yield* Settlements).setSchedule(account(scope), { ...usdcEth, destination: { ...usdcEth.destination, chain: "SOL" } }))
      assert.strictEqual(refused.code, "settlement_destination_unavailable")
      assert.isTrue(Option.isNone(yield* (yield* SettlementStore).schedule("production", scope.shop.id)))
    }).pipe(Effect.provide(EngineTest)))
})

