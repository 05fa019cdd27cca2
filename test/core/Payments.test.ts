/**
 * The pay-in life cycle as an embedder drives it, time controlled by TestClock: sandbox outcomes,
 * the reconcile poll recovering a lost callback, expiry, settlement, and the ledger after each.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect } from "effect"
import { TestClock } from "effect/testing"
import { Balances } from "../../core/balances/Balances.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import * as Money from "../../core/Money.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import type { SandboxSimulate } from "../../core/ports/PaymentProvider.ts"
import { Payments } from "../../core/payments/Payments.ts"
import * as Pricing from "../../core/payments/Pricing.ts"
import { EngineTest, keepAvailable, newScope } from "../support/Engine.ts"

const d = Money.decimal

const pay = (simulate?: SandboxSimulate, amount = "100") =>
  Effect.gen(function*() {
    const scope = yield* newScope()
    yield* keepAvailable(scope)
    const payment = yield* (yield* Payments).create(scope, { amount: d(amount), paymentMethodId: "sbx_pix", simulate })
    return { scope, payment }
  })

const status = (id: string, scope: Effect.Success<ReturnType<typeof newScope>>) =>
  Effect.map(Effect.flatMap(Payments, (p) => p.get(scope, id)), (p) => p.status)

const runJobs = Effect.flatMap(Jobs, (jobs) => jobs.runDue)

describe("payment life cycle", () => {
  it.effect("paid: completes at once, lands in pending, settles to available after its delay", () =>
    Effect.gen(function*() {
      const { payment, scope } = yield* pay("paid")
      assert.strictEqual(payment.status, "pending")
      yield* runJobs
      assert.strictEqual(yield* status(payment.id, scope), "completed")

      const ledger = yield* LedgerStore
      const net = Pricing.net(payment.amount, payment.fees, payment.settlement)
      const book = (name: Parameters<typeof ledger.balance>[2]) => ledger.balance("sandbox", scope.shop.id, name, "USD")
      assert.isTrue(BigDecimal.equals(yield* book("payin_pending"), net))
      assert.isTrue(BigDecimal.equals(yield* book("payin_reserve"), payment.settlement.reserve))
      assert.isTrue(BigDecimal.equals(yield* book("payin_available"), Money.zero))

      const types = (yield* (yield* OutboxStore).list("sandbox", scope.shop.id)).map((e) => e.type)
      assert.deepStrictEqual(types, ["payment.completed", "payment.captured"])

      yield* TestClock.adjust(`${payment.settlement.delayDays} days`)
      yield* runJobs
      assert.isTrue(BigDecimal.equals(yield* book("payin_available"), net))
      assert.isTrue(BigDecimal.equals(yield* book("payin_pending"), Money.zero))
      const settled = yield* (yield* Payments).get(scope, payment.id)
      assert.strictEqual(settled.settlement.status, "settled")
    }).pipe(Effect.provide(EngineTest)))

  it.effect("slow_payment: the callback is lost; the 5-minute reconcile poll completes it", () =>
    Effect.gen(function*() {
      const { payment, scope } = yield* pay("slow_payment")
      yield* runJobs
      yield* TestClock.adjust("4 minutes")
      yield* runJobs
      assert.strictEqual(yield* status(payment.id, scope), "pending")
      yield* TestClock.adjust("1 minute")
      yield* runJobs
      assert.strictEqual(yield* status(payment.id, scope), "completed")
      const events = yield* (yield* OutboxStore).list("sandbox", scope.shop.id)
      assert.deepStrictEqual(events.map((e) => e.type), ["payment.completed", "payment.captured"])
    }).pipe(Effect.provide(EngineTest)))

  it.effect("failed and expired end as failed and expired, with payment.failed and no money", () =>
    Effect.gen(function*() {
      const failed = yield* pay("failed")
      const expired = yield* pay("expired")
      yield* runJobs
      assert.strictEqual(yield* status(failed.payment.id, failed.scope), "failed")
      assert.strictEqual(yield* status(expired.payment.id, expired.scope), "expired")
      for (const { scope } of [failed, expired]) {
        const events = yield* (yield* OutboxStore).list("sandbox", scope.shop.id)
        assert.deepStrictEqual(events.map((e) => e.type), ["payment.failed"])
        assert.deepStrictEqual(yield* (yield* LedgerStore).balances("sandbox", scope.shop.id), [])
      }
    }).pipe(Effect.provide(EngineTest)))

  it.effect("an unpaid payment expires at expiresAt, not before", () =>
    Effect.gen(function*() {
      const { payment, scope } = yield* pay()
      const minutes = Math.round((DateTime.toEpochMillis(payment.expiresAt) - DateTime.toEpochMillis(payment.createdAt)) / 60_000)
      yield* TestClock.adjust(`${minutes - 1} minutes`)
      yield* runJobs
      assert.strictEqual(yield* status(payment.id, scope), "pending")
      yield* TestClock.adjust("1 minute")
      yield* runJobs
      assert.strictEqual(yield* status(payment.id, scope), "expired")
    }).pipe(Effect.provide(EngineTest)))

  it.effect("a repeated confirmation changes nothing (callback and poll both arrive)", () =>
    Effect.gen(function*() {
      const { payment, scope } = yield* pay()
      const payments = yield* Payments
      yield* payments.applyUpdate(payment.id, { providerRef: payment.providerRef, status: "completed" })
      yield* payments.applyUpdate(payment.id, { providerRef: payment.providerRef, status: "completed" })
      yield* payments.applyUpdate(payment.id, { providerRef: payment.providerRef, status: "failed" })
      assert.strictEqual(yield* status(payment.id, scope), "completed")
      const { total } = yield* (yield* LedgerStore).entries("sandbox", scope.shop.id, { limit: 10, offset: 0 })
      assert.strictEqual(total, 1)
    }).pipe(Effect.provide(EngineTest)))
})

describe("rolling reserve", () => {
  it.effect("is held for the tier's period, listed in reserveSchedule, then released to available once", () =>
    Effect.gen(function*() {
      const { payment, scope } = yield* pay("paid")
      yield* runJobs
      const balances = yield* Balances
      const before = yield* balances.summary(scope)
      assert.strictEqual(before.balance.reserve, 10)
      assert.deepStrictEqual(before.reserveSchedule.map((r) => [r.transactionId, r.amount]), [[payment.id, 10]])
      yield* TestClock.adjust("89 days")
      yield* runJobs
      assert.strictEqual((yield* balances.summary(scope)).balance.reserve, 10)
      yield* TestClock.adjust("1 day")
      yield* runJobs
      yield* runJobs
      const after = yield* balances.summary(scope)
      assert.strictEqual(after.balance.reserve, 0)
      assert.deepStrictEqual(after.reserveSchedule, [])
      const net = Pricing.net(payment.amount, payment.fees, payment.settlement)
      assert.strictEqual(after.balance.available, Money.toJsonNumber(BigDecimal.sum(net, Money.decimal("10"))))
      assert.strictEqual(after.movements.filter((m) => m.type === "reserve.released").length, 1)
    }).pipe(Effect.provide(EngineTest)))
})
