/**
 * Property: whatever random sequence of money operations runs (payments with every outcome,
 * refunds full and partial, chargebacks, sandbox funding, swaps, settlements, transfers to the
 * payout balance, payout swaps and funding, payouts accepted and rejected, withdrawals completed and failed),
 * every journal entry balances per currency, no guarded book is ever negative, the cached balances
 * equal the sums of the postings, and the balance endpoints report those sums.
 *
 * Per payment: after every step, what the payment's own entries and its claims' entries did to
 * `pending` and `reserve` is never negative (nothing else's money is spent on it); and once time
 * has run far enough, every completed payment is settled, its reserve released, and what it put
 * in `pending` and `reserve` equals what settled + what was released + what its claims took, to
 * the cent. Open chargebacks are decided at random (won or lost, by the sandbox or the provider).
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { TestClock } from "effect/testing"
import { Balances } from "../../core/balances/Balances.ts"
import { Swaps } from "../../core/balances/Swaps.ts"
import { Withdrawals } from "../../core/balances/Withdrawals.ts"
import { Refunds } from "../../core/refunds/Refunds.ts"
import type { JournalEntry } from "../../core/ledger/Journal.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import { isGuarded } from "../../core/ledger/Journal.ts"
import { imbalance } from "../../core/ledger/Ledger.ts"
import * as Money from "../../core/Money.ts"
import { RefundStore } from "../../core/ports/RefundStore.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import type { SandboxSimulate } from "../../core/ports/PaymentProvider.ts"
import { Payments } from "../../core/payments/Payments.ts"
import * as Shares from "../../core/payments/Shares.ts"
import { Payouts } from "../../core/payouts/Payouts.ts"
import { EngineTest, newScope } from "../support/Engine.ts"
import { prng } from "../support/Random.ts"


const outcomes: ReadonlyArray<SandboxSimulate | undefined> = ["paid", "paid", "paid", "failed", "expired", "chargeback", undefined]
const methods = ["sbx_pix", "sbx_spei", "sbx_pse", "sbx_card", "sbx_cash"]
const recipient = (name: string) => ({ name, documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719" })
const destination = { accountHolder: "Acme SA", bankName: "BBVA", accountNumber: "032180000118359719" }

/** Every kind of journal entry the seeds produced, so the last test can check the mix was rich. */
const seen = new Set<string>()
/** Claims opened on payments before they settled, by kind, over all seeds. */
const claimsBeforeSettlement = { user_dispute: 0, chargeback: 0 }

const sumOf = (xs: ReadonlyArray<BigDecimal.BigDecimal>) => xs.reduce(BigDecimal.sum, Money.zero)
const booked = (entries: ReadonlyArray<JournalEntry>, book: string, kinds?: ReadonlyArray<string>) =>
  sumOf(entries.filter((e) => kinds === undefined || kinds.includes(e.kind)).flatMap((e) =>
    e.postings.filter((p) => p.book === book && p.currency === "USD").map((p) => p.amount)
  ))

const run = (seed: number) =>
  Effect.gen(function*() {
    const random = prng(seed)
    const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(random() * xs.length)]!
    const scope = yield* newScope("sandbox", { tier: pick(["starter", "standard", "premium"] as const) })
    const payments = yield* Payments
    const claims = yield* Refunds
    const swaps = yield* Swaps
    const jobs = yield* Jobs
    const ledger = yield* LedgerStore
    const payouts = yield* Payouts
    const withdrawals = yield* Withdrawals
    const claimStore = yield* RefundStore
    const ids: Array<string> = []
    const pendingWithdrawals: Array<string> = []
    /** The journal entries of each payment: its own and its claims'. */
    const entriesOf = Effect.gen(function*() {
      const { entries } = yield* ledger.entries("sandbox", scope.shop.id, { limit: 10_000, offset: 0 })
      const byPayment = new Map<string, Array<JournalEntry>>()
      for (const id of ids) {
        const refs = new Set([id, ...(yield* claimStore.forPayment(id)).map((c) => c.id)])
        byPayment.set(id, entries.filter((e) => refs.has(e.reference)))
      }
      return byPayment
    })
    /**
     * No payment's pending or reserve share is ever spent by something else than itself: what a
     * payment's entries (its own and its claims') did to each pooled book is its share on the
     * record, never negative, and the pooled book is the sum of the shares.
     */
    const checkShares = (step: number) =>
      Effect.gen(function*() {
        const shares = { payin_pending: Shares.pendingShare, payin_reserve: Shares.reserveShare }
        const totals = { payin_pending: Money.zero, payin_reserve: Money.zero }
        for (const [id, mine] of yield* entriesOf) {
          const p = yield* payments.get(scope, id)
          for (const book of ["payin_pending", "payin_reserve"] as const) {
            const share = shares[book](p)
            assert.isFalse(BigDecimal.isNegative(booked(mine, book)), `seed ${seed} step ${step}: ${id} ${book} share negative`)
            assert.strictEqual(Money.toText(booked(mine, book)), Money.toText(share), `seed ${seed} step ${step}: ${id} ${book} share`)
            totals[book] = BigDecimal.sum(totals[book], share)
          }
        }
        for (const book of ["payin_pending", "payin_reserve"] as const) {
          assert.strictEqual(Money.toText(yield* ledger.balance("sandbox", scope.shop.id, book, "USD")), Money.toText(totals[book]), `seed ${seed} step ${step}: ${book} pool`)
        }
      })
    const usd = (max: number) => Money.decimal((1 + random() * max).toFixed(2))
    for (let step = 0; step < 50; step++) {
      const op = random()
      if (op < 0.4) {
        const amount = Money.decimal((1 + random() * 500).toFixed(2))
        const created = yield* Effect.result(payments.create(scope, { amount, paymentMethodId: pick(methods), simulate: pick(outcomes) }))
        if (created._tag === "Success") ids.push(created.success.id)
      } else if (op < 0.6 && ids.length > 0) {
        const id = pick(ids)
        const partial = random() < 0.5
        const p = yield* payments.get(scope, id)
        const amount = partial ? Money.round(BigDecimal.multiply(p.amountLocal, Money.decimal(random().toFixed(2))), p.currencyLocal) : undefined
        yield* Effect.result(claims.refund(scope, id, { amount }))
      } else if (op < 0.7) {
        yield* Effect.result(swaps.fundSandbox(scope, pick(["BRL", "MXN", "CLP"]), Money.decimal(String(Math.floor(random() * 5000) + 1))))
      } else if (op < 0.75) {
        yield* Effect.result(swaps.swap(scope, pick(["BRL", "MXN", "CLP"]), Money.decimal(String(Math.floor(random() * 3000) + 1))))
      } else if (op < 0.8) {
        yield* Effect.result(payouts.transfer(scope, usd(300)))
      } else if (op < 0.9) {
        const funding = random()
        if (funding < 0.4) yield* Effect.result(payouts.swap(scope, "MXN", usd(200)))
        else if (funding < 0.6) yield* Effect.result(payouts.fundSandbox(scope, "MXN", usd(2000)))
        const name = random() < 0.3 ? "REJECT Ana Lopez" : "Ana Lopez"
        yield* Effect.result(payouts.send(scope, { methodId: "po_mx_spei", amount: Money.decimal((20 + random() * 800).toFixed(2)), recipient: recipient(name) }))
      } else if (op < 0.94) {
        const w = yield* Effect.result(withdrawals.request(scope, { amount: Money.decimal((10 + random() * 200).toFixed(2)), destination }))
        if (w._tag === "Success") pendingWithdrawals.push(w.success.id)
        const id = pendingWithdrawals.shift()
        if (id !== undefined) yield* Effect.result(withdrawals.simulate(scope, id, pick(["completed", "failed"] as const)))
      } else if (op < 0.97) {
        yield* TestClock.adjust(`${Math.floor(random() * 72)} hours`)
      } else {
        // The card network decides an open chargeback (sandbox), or the provider reports it.
        const open = (yield* Effect.forEach(ids, (id) => claimStore.forPayment(id))).flat().filter((c) => c.kind === "chargeback" && c.status === "open")
        if (open.length > 0) {
          const claim = pick(open)
          const outcome = pick(["won", "lost"] as const)
          if (random() < 0.5) yield* claims.simulateChargeback(scope, claim.id, outcome)
          else yield* payments.applyUpdate(claim.transactionId, { providerRef: "", status: outcome === "won" ? "chargeback_won" : "chargeback_lost" })
        }
      }
      yield* jobs.runDue
      yield* checkShares(step)
    }
    // Far enough for every settlement (T+n) and reserve release (at most 90 days), retries included.
    for (let day = 0; day < 100; day++) {
      yield* TestClock.adjust("1 day")
      while ((yield* jobs.runDue) > 0) {
        // drain what came due
      }
    }

    // Every completed payment settled and released, whatever its claims; per payment, what it put
    // in pending and reserve = settled + released + taken by its claims, to the cent.
    const byPayment = yield* entriesOf
    for (const id of ids) {
      const p = yield* payments.get(scope, id)
      if (p.completedAt === null) continue
      const mine = byPayment.get(id)!
      assert.strictEqual(p.settlement.status, "settled", `seed ${seed}: ${id} (${p.status}) never settled`)
      if (BigDecimal.isPositive(p.settlement.reserve)) assert.isNotNull(p.settlement.reserveReleasedAt, `seed ${seed}: ${id} reserve never released`)
      const put = BigDecimal.sum(booked(mine, "payin_pending", ["payment.completed"]), booked(mine, "payin_reserve", ["payment.completed"]))
      const settled = BigDecimal.negate(booked(mine, "payin_pending", ["payment.settled"]))
      const released = BigDecimal.negate(booked(mine, "payin_reserve", ["reserve.released"]))
      const claimKinds = [...new Set(mine.map((e) => e.kind))].filter((k) => !["payment.completed", "payment.settled", "reserve.released"].includes(k))
      const taken = BigDecimal.negate(BigDecimal.sum(booked(mine, "payin_pending", claimKinds), booked(mine, "payin_reserve", claimKinds)))
      assert.strictEqual(Money.toText(put), Money.toText(BigDecimal.sumAll([settled, released, taken])), `seed ${seed}: ${id} conservation`)
      const settledAt = p.settlement.settledAt!
      for (const c of yield* claimStore.forPayment(id)) {
        if (c.createdAt.epochMilliseconds < settledAt.epochMilliseconds) claimsBeforeSettlement[c.kind]++
      }
    }

    const { entries, total } = yield* ledger.entries("sandbox", scope.shop.id, { limit: 10_000, offset: 0 })
    assert.strictEqual(entries.length, total)
    for (const entry of entries) {
      seen.add(entry.kind)
      assert.deepStrictEqual(imbalance(entry), [], `seed ${seed}: ${entry.kind} ${entry.reference}`)
    }
    const cached = yield* ledger.balances("sandbox", scope.shop.id)
    const sums = yield* ledger.postingSums("sandbox", scope.shop.id)
    assert.strictEqual(cached.length, sums.length, `seed ${seed}`)
    for (const s of sums) {
      const c = cached.find((x) => x.book === s.book && x.currency === s.currency)
      assert.isTrue(c !== undefined && BigDecimal.equals(c.balance, s.balance), `seed ${seed}: ${s.book} ${s.currency}`)
      if (isGuarded(s.book)) assert.isFalse(BigDecimal.isNegative(s.balance), `seed ${seed}: ${s.book} ${s.currency} negative`)
    }
    const sum = (book: string, currency: string) => sums.find((s) => s.book === book && s.currency === currency)?.balance ?? Money.zero
    const summary = yield* (yield* Balances).summary(scope)
    assert.strictEqual(summary.balance.available, Money.toJsonNumber(Money.round(sum("payin_available", "USD"), "USD")), `seed ${seed}`)
    // What the shop owes is never over-repaid, and netBalance subtracts it.
    assert.isFalse(BigDecimal.isPositive(sum("merchant_receivable", "USD")), `seed ${seed}: merchant_receivable positive`)
    const books = BigDecimal.sumAll(["payin_available", "payin_pending", "payin_frozen", "payin_reserve"].map((b) => sum(b, "USD")))
    assert.strictEqual(summary.feeSummary.netBalance, Money.toJsonNumber(Money.round(BigDecimal.sum(books, sum("merchant_receivable", "USD")), "USD")), `seed ${seed}`)
    for (const b of (yield* payouts.balances(scope)).balances) {
      assert.isTrue(BigDecimal.equals(b.available, sum("payout_available", b.currency)), `seed ${seed}: payout ${b.currency}`)
    }
    return entries.length
  }).pipe(Effect.provide(EngineTest))

describe("ledger invariants over random operation sequences", () => {
  for (let seed = 1; seed <= 25; seed++) {
    it.effect(`seed ${seed}`, () => Effect.map(run(seed), (n) => assert.isAbove(n, 0)))
  }
  it("the seeds together exercised every kind of money movement", () => {
    assert.isAbove(claimsBeforeSettlement.user_dispute, 10, "refunds before settlement")
    assert.isAbove(claimsBeforeSettlement.chargeback, 5, "chargebacks before settlement")
    for (const kind of ["chargeback.opened", "chargeback.won", "chargeback.lost", "refund.completed", "payment.settled", "reserve.released", "payout.transfer", "payout.swap", "payout.debit", "payout.completed", "payout.failed", "withdrawal.requested", "withdrawal.completed", "withdrawal.failed", "balance.swap"]) {
      assert.isTrue(seen.has(kind), `no ${kind} in any seed: ${[...seen].sort().join(", ")}`)
    }
  })
})
