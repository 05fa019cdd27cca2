/**
 * Settlement and reserve release are per payment, whatever claims a payment had before: a refund
 * or a chargeback takes from that payment's own pending share first, then its reserve share, then
 * the shop's available balance; each payment settles exactly what is left of its own share, on
 * its schedule, and never with another payment's money. Time is driven by TestClock and the job
 * runner.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import { Balances } from "../../core/balances/Balances.ts"
import { Refunds } from "../../core/refunds/Refunds.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import type { Book } from "../../core/ledger/Journal.ts"
import * as Money from "../../core/Money.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import type { SandboxSimulate } from "../../core/ports/PaymentProvider.ts"
import { PaymentJson } from "../../core/payments/Payment.ts"
import { Payments } from "../../core/payments/Payments.ts"
import * as Pricing from "../../core/payments/Pricing.ts"
import * as Shares from "../../core/payments/Shares.ts"
import type { ShopScope } from "../../core/tenancy/Scopes.ts"
import { EngineTest, keepAvailable, newScope } from "../support/Engine.ts"

const d = Money.decimal
const text = (x: BigDecimal.BigDecimal) => Money.toText(Money.round(x, "USD"))

const drain = Effect.gen(function*() {
  const jobs = yield* Jobs
  while ((yield* jobs.runDue) > 0) {
    // run everything that is due
  }
})

/** Moves the clock `days` forward one day at a time, running what came due each day. */
const days = (n: number) =>
  Effect.gen(function*() {
    for (let i = 0; i < n; i++) {
      yield* TestClock.adjust("1 day")
      yield* drain
    }
  })

const pay = (scope: ShopScope, simulate: SandboxSimulate = "paid", amount = "100") =>
  Effect.gen(function*() {
    const payments = yield* Payments
    const created = yield* payments.create(scope, { amount: d(amount), paymentMethodId: "sbx_pix", simulate })
    yield* drain
    return yield* payments.get(scope, created.id)
  })

const book = (scope: ShopScope, name: Book) => Effect.flatMap(LedgerStore, (l) => l.balance(scope.environment, scope.shop.id, name, "USD"))
const status = (scope: ShopScope, id: string) => Effect.map(Effect.flatMap(Payments, (p) => p.get(scope, id)), (p) => p.settlement)

describe("settlement with claims before it", () => {
  it.effect("a partial refund before settlement: the payment settles what is left of its net, on its schedule", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      yield* keepAvailable(scope)
      const p = yield* pay(scope)
      const net = Pricing.net(p.amount, p.fees, p.settlement)
      const refund = yield* (yield* Refunds).refund(scope, p.id, { amount: Money.round(BigDecimal.multiply(p.amountLocal, d("0.3")), p.currencyLocal) })
      yield* drain
      // The refund came out of this payment's pending net, not out of available.
      assert.strictEqual(text(yield* book(scope, "payin_pending")), text(BigDecimal.subtract(net, refund.amountUsd)))
      assert.strictEqual(text(yield* book(scope, "payin_available")), "0")

      yield* days(p.settlement.delayDays)
      assert.strictEqual((yield* status(scope, p.id)).status, "settled")
      assert.strictEqual(text(yield* book(scope, "payin_pending")), "0")
      assert.strictEqual(text(yield* book(scope, "payin_available")), text(BigDecimal.subtract(net, refund.amountUsd)))
      yield* days(90)
      assert.isNotNull((yield* status(scope, p.id)).reserveReleasedAt)
      assert.strictEqual(text(yield* book(scope, "payin_reserve")), "0")
      assert.strictEqual(text(yield* book(scope, "payin_available")), text(BigDecimal.sum(BigDecimal.subtract(net, refund.amountUsd), p.settlement.reserve)))
    }).pipe(Effect.provide(EngineTest)))

  it.effect("a refund above the pending share takes the rest from the payment's reserve; both still close", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      yield* keepAvailable(scope)
      const p = yield* pay(scope)
      const net = Pricing.net(p.amount, p.fees, p.settlement)
      // 90 % of a 100 USD payment: its whole pending net (86.x) and part of its 10 USD reserve.
      const refund = yield* (yield* Refunds).refund(scope, p.id, { amount: Money.round(BigDecimal.multiply(p.amountLocal, d("0.9")), p.currencyLocal) })
      yield* drain
      const fromReserve = BigDecimal.subtract(refund.amountUsd, net)
      assert.isTrue(BigDecimal.isPositive(fromReserve))
      assert.strictEqual(text(yield* book(scope, "payin_pending")), "0")
      assert.strictEqual(text(yield* book(scope, "payin_reserve")), text(BigDecimal.subtract(p.settlement.reserve, fromReserve)))
      // The reserve schedule lists what the release will move, not the reserve first held.
      const schedule = (yield* (yield* Balances).summary(scope)).reserveSchedule
      assert.deepStrictEqual(schedule.map((r) => [r.transactionId, r.amount]), [[p.id, Money.toJsonNumber(BigDecimal.subtract(p.settlement.reserve, fromReserve))]])

      yield* days(p.settlement.delayDays)
      assert.strictEqual((yield* status(scope, p.id)).status, "settled")
      yield* days(90)
      assert.isNotNull((yield* status(scope, p.id)).reserveReleasedAt)
      assert.strictEqual(text(yield* book(scope, "payin_reserve")), "0")
      assert.strictEqual(text(yield* book(scope, "payin_available")), text(BigDecimal.subtract(p.settlement.reserve, fromReserve)))
    }).pipe(Effect.provide(EngineTest)))

  it.effect("a chargeback before settlement never settles with another payment's money; the healthy one settles its full net", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      yield* keepAvailable(scope)
      const healthy = yield* pay(scope)
      const disputed = yield* pay(scope, "chargeback")
      assert.strictEqual((yield* (yield* Payments).get(scope, disputed.id)).status, "chargeback")
      const netHealthy = Pricing.net(healthy.amount, healthy.fees, healthy.settlement)
      // The chargeback took the disputed payment's own pending and reserve shares; the healthy
      // payment's money is untouched.
      assert.strictEqual(text(yield* book(scope, "payin_pending")), text(netHealthy))
      assert.strictEqual(text(yield* book(scope, "payin_reserve")), text(healthy.settlement.reserve))

      yield* days(healthy.settlement.delayDays)
      for (const p of [healthy, disputed]) assert.strictEqual((yield* status(scope, p.id)).status, "settled", p.id)
      assert.strictEqual(text(yield* book(scope, "payin_pending")), "0")
      yield* days(90)
      for (const p of [healthy, disputed]) assert.isNotNull((yield* status(scope, p.id)).reserveReleasedAt, p.id)
      assert.strictEqual(text(yield* book(scope, "payin_reserve")), "0")
    }).pipe(Effect.provide(EngineTest)))
})

describe("what the shop owes", () => {
  it.effect("is repaid first from the next settlement and reserve release, and netBalance subtracts it", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      yield* keepAvailable(scope)
      const balances = yield* Balances
      const disputed = yield* pay(scope, "chargeback")
      // The chargeback took the payment's shares (100 - fees) and owes the rest: its fees + 15.
      const owed = BigDecimal.sum(disputed.fees.total, d("15"))
      assert.strictEqual(text(BigDecimal.negate(yield* book(scope, "merchant_receivable"))), text(owed))
      const before = yield* balances.summary(scope)
      assert.deepStrictEqual(before.ledgerWarnings, [`The shop owes ${text(owed)} USD: refunds and chargebacks its balance could not cover; it is repaid from the next money that becomes available`])
      assert.strictEqual(before.feeSummary.netBalance, Money.toJsonNumber(BigDecimal.subtract(d("100"), owed)))

      const healthy = yield* pay(scope, "paid", "10")
      const net = Pricing.net(healthy.amount, healthy.fees, healthy.settlement)
      yield* days(healthy.settlement.delayDays)
      // Its net (8.x) repays part of the debt; nothing reaches available yet.
      assert.strictEqual(text(yield* book(scope, "payin_available")), "0")
      const left = BigDecimal.subtract(owed, net)
      assert.strictEqual(text(BigDecimal.negate(yield* book(scope, "merchant_receivable"))), text(left))
      assert.deepStrictEqual((yield* balances.summary(scope)).ledgerWarnings, [`The shop owes ${text(left)} USD: refunds and chargebacks its balance could not cover; it is repaid from the next money that becomes available`])

      const big = yield* pay(scope, "paid", "50")
      yield* days(big.settlement.delayDays)
      const bigNet = Pricing.net(big.amount, big.fees, big.settlement)
      assert.strictEqual(text(yield* book(scope, "merchant_receivable")), "0")
      assert.strictEqual(text(yield* book(scope, "payin_available")), text(BigDecimal.subtract(bigNet, left)))
      const after = yield* balances.summary(scope)
      assert.deepStrictEqual(after.ledgerWarnings, [])
      const movements = after.movements.filter((m) => m.type === "payment.settled")
      assert.strictEqual(movements.length, 2)
    }).pipe(Effect.provide(EngineTest)))
})

describe("payment documents written before the shares were tracked", () => {
  it.effect("decode with nothing taken, so they settle their full net as before", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      yield* keepAvailable(scope)
      const p = yield* pay(scope)
      const encoded = Schema.encodeSync(PaymentJson)(p) as { settlement: Record<string, unknown> }
      delete encoded.settlement["pendingTaken"]
      delete encoded.settlement["reserveTaken"]
      const old = Schema.decodeUnknownSync(PaymentJson)(encoded)
      assert.strictEqual(text(old.settlement.pendingTaken), "0")
      assert.strictEqual(text(old.settlement.reserveTaken), "0")
      assert.strictEqual(text(Shares.pendingShare(old)), text(Pricing.net(p.amount, p.fees, p.settlement)))
      assert.strictEqual(text(Shares.reserveShare(old)), text(p.settlement.reserve))
    }).pipe(Effect.provide(EngineTest)))
})
