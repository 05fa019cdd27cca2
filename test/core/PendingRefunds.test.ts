/**
 * A refund the provider accepts but has not paid back yet stays pending: the claim stays open and
 * its money frozen, the engine asks the provider again on a schedule (on the shop's clock), and
 * books the refund only when the provider says it succeeded; one the provider later rejects gives
 * the money back to the shop. Driven as an embedder would: a provider plugin whose refund answers
 * from a script, the job runner, and TestClock.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { TestClock } from "effect/testing"
import { Refunds } from "../../core/refunds/Refunds.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import type { Book } from "../../core/ledger/Journal.ts"
import * as Money from "../../core/Money.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import type { RefundOutcome, RefundRequest, RefundStatus } from "../../core/ports/PaymentProvider.ts"
import { Payments } from "../../core/payments/Payments.ts"
import type { ShopScope } from "../../core/tenancy/Scopes.ts"
import { EngineTest, newScope, routeShopTo, stubProvider } from "../support/Engine.ts"

const drain = Effect.gen(function*() {
  const jobs = yield* Jobs
  while ((yield* jobs.runDue) > 0) {
    // run everything that is due
  }
})

/** A provider whose refunds answer the statuses of `script` in turn (the last one repeats). */
const scriptedRefunds = (id: string, script: Array<RefundStatus>) => {
  const calls: Array<RefundRequest> = []
  const provider = stubProvider(id, {
    refund: (request) =>
      Effect.sync((): RefundOutcome => {
        calls.push(request)
        const status = script.length > 1 ? script.shift()! : script[0]!
        return { providerRef: `${id}_refund_${request.refundId}`, status, detail: status === "failed" ? "bank account closed" : undefined }
      })
  })
  return { provider, calls }
}

/** A shop whose payments go to a provider refunding by `script`, with two completed payments. */
const setup = (script: Array<RefundStatus>) =>
  Effect.gen(function*() {
    const scope = yield* newScope()
    const upstream = scriptedRefunds(`refunds_${scope.shop.id}`, script)
    yield* routeShopTo(scope, [upstream.provider])
    const payments = yield* Payments
    const paid = Effect.gen(function*() {
      const created = yield* payments.create(scope, { amount: Money.decimal("100"), paymentMethodId: "sbx_pix" })
      yield* payments.applyUpdate(created.id, { providerRef: created.providerRef, status: "completed" })
      return yield* payments.get(scope, created.id)
    })
    yield* paid // other money of the shop, which covers the fees a full refund leaves owed
    return { scope, upstream, payment: yield* paid }
  })

const book = (scope: ShopScope, name: Book) => Effect.flatMap(LedgerStore, (l) => l.balance(scope.environment, scope.shop.id, name, "USD"))
/** What the shop holds, less what it owes. */
const shopTotal = (scope: ShopScope) =>
  Effect.gen(function*() {
    const books: ReadonlyArray<Book> = ["payin_available", "payin_pending", "payin_reserve", "payin_frozen", "merchant_receivable"]
    return (yield* Effect.forEach(books, (b) => book(scope, b))).reduce(BigDecimal.sum, Money.zero)
  })
const text = (x: BigDecimal.BigDecimal) => Money.toText(Money.round(x, "USD"))
const eventTypes = (scope: ShopScope) =>
  Effect.gen(function*() {
    return (yield* (yield* OutboxStore).list("sandbox", scope.shop.id)).map((e) => e.type)
  })

describe("a refund the provider has pending", () => {
  it.effect("stays pending and frozen until the provider says it succeeded, asked again with the same refund", () =>
    Effect.gen(function*() {
      const { payment, scope, upstream } = yield* setup(["pending", "pending", "succeeded"])
      const claims = yield* Refunds
      const refund = yield* claims.refund(scope, payment.id, {})
      yield* drain
      const waiting = yield* claims.get(scope, refund.id)
      assert.strictEqual(waiting.status, "open", "the provider has it pending: not booked")
      assert.strictEqual(waiting.providerRef, `${upstream.provider.id}_refund_${refund.id}`)
      assert.strictEqual(text(yield* book(scope, "payin_frozen")), text(refund.amountUsd))
      assert.notInclude(yield* eventTypes(scope), "payment.refunded")
      assert.strictEqual((yield* (yield* Payments).get(scope, payment.id)).status, "completed")

      // Asked again later, on the shop's clock: still pending, then succeeded.
      yield* TestClock.adjust("2 minutes")
      yield* drain
      assert.strictEqual((yield* claims.get(scope, refund.id)).status, "open")
      yield* TestClock.adjust("10 minutes")
      yield* drain
      const done = yield* claims.get(scope, refund.id)
      assert.strictEqual(done.status, "approved")
      assert.strictEqual(text(yield* book(scope, "payin_frozen")), "0")
      assert.include(yield* eventTypes(scope), "payment.refunded")
      assert.strictEqual((yield* (yield* Payments).get(scope, payment.id)).status, "refunded")
      assert.strictEqual(upstream.calls.length, 3)
      assert.deepStrictEqual([...new Set(upstream.calls.map((c) => c.refundId))], [refund.id], "one refund, asked about three times")

      // Nothing more is asked once it is final.
      yield* TestClock.adjust("1 day")
      yield* drain
      assert.strictEqual(upstream.calls.length, 3)
    }).pipe(Effect.provide(EngineTest)))

  it.effect("gives the money back to the shop when the provider rejects it after accepting it", () =>
    Effect.gen(function*() {
      const { payment, scope } = yield* setup(["pending", "failed"])
      const before = yield* shopTotal(scope)
      const claims = yield* Refunds
      const refund = yield* claims.refund(scope, payment.id, {})
      yield* drain
      assert.strictEqual((yield* claims.get(scope, refund.id)).status, "open")
      yield* TestClock.adjust("2 minutes")
      yield* drain
      const rejected = yield* claims.get(scope, refund.id)
      assert.strictEqual(rejected.status, "rejected")
      assert.include(rejected.resolution ?? "", "bank account closed")
      assert.strictEqual(text(yield* book(scope, "payin_frozen")), "0")
      assert.strictEqual(text(yield* shopTotal(scope)), text(before), "all the frozen money is the shop's again")
      assert.notInclude(yield* eventTypes(scope), "payment.refunded")
      assert.include(yield* eventTypes(scope), "claim.resolved")
      assert.strictEqual((yield* (yield* Payments).get(scope, payment.id)).status, "completed")
    }).pipe(Effect.provide(EngineTest)))

  it.effect("is settled at once by the provider's word on it in a notification, and only for that refund", () =>
    Effect.gen(function*() {
      const { payment, scope, upstream } = yield* setup(["pending"])
      const claims = yield* Refunds
      const payments = yield* Payments
      const half = Money.round(BigDecimal.divideUnsafe(payment.amountLocal, Money.decimal("2")), payment.currencyLocal)
      const first = yield* claims.refund(scope, payment.id, { amount: half })
      const second = yield* claims.refund(scope, payment.id, { amount: half })
      yield* drain
      const refundRef = (yield* claims.get(scope, first.id)).providerRef!
      // A notification about the charge that lists its refunds: the first succeeded, the other is still pending.
      yield* payments.applyUpdate(payment.id, {
        providerRef: payment.providerRef,
        status: "completed",
        refunds: [
          { providerRef: refundRef, status: "succeeded" },
          { providerRef: `${upstream.provider.id}_refund_${second.id}`, status: "pending" },
          { providerRef: "a refund the engine never asked for", status: "succeeded" }
        ]
      })
      assert.strictEqual((yield* claims.get(scope, first.id)).status, "approved")
      assert.strictEqual((yield* claims.get(scope, second.id)).status, "open")
      assert.strictEqual(text(yield* book(scope, "payin_frozen")), text(second.amountUsd))
      // Said again, it changes nothing.
      yield* payments.applyUpdate(payment.id, { providerRef: payment.providerRef, status: "completed", refunds: [{ providerRef: refundRef, status: "failed" }] })
      assert.strictEqual((yield* claims.get(scope, first.id)).status, "approved")
      assert.strictEqual(upstream.calls.length, 2, "the notification was enough: nobody asked the provider")
    }).pipe(Effect.provide(EngineTest)))

  it.effect("is asked about with what the engine holds of the payment's refunds: its own provider id once answered, the others' ids, the earlier ones unanswered", () =>
    Effect.gen(function*() {
      const { payment, scope, upstream } = yield* setup(["pending"])
      const claims = yield* Refunds
      const part = Money.round(BigDecimal.divideUnsafe(payment.amountLocal, Money.decimal("4")), payment.currencyLocal)
      const first = yield* claims.refund(scope, payment.id, { amount: part })
      yield* drain
      const firstRef = (yield* claims.get(scope, first.id)).providerRef!
      assert.deepInclude(upstream.calls[0]!, { refundId: first.id, knownRefunds: [], refundsAhead: 0, providerRefundRef: undefined })
      const second = yield* claims.refund(scope, payment.id, { amount: part })
      yield* drain
      assert.deepInclude(upstream.calls[1]!, { refundId: second.id, knownRefunds: [firstRef], refundsAhead: 0, providerRefundRef: undefined })
      // Followed later: each names its own refund, and the other's.
      yield* TestClock.adjust("2 minutes")
      yield* drain
      const followed = upstream.calls.slice(2)
      const secondRef = (yield* claims.get(scope, second.id)).providerRef!
      assert.deepInclude(followed.find((c) => c.refundId === first.id)!, { providerRefundRef: firstRef, knownRefunds: [secondRef] })
      assert.deepInclude(followed.find((c) => c.refundId === second.id)!, { providerRefundRef: secondRef, knownRefunds: [firstRef] })
      // Two opened at once: the later one is told of the earlier, answered (its id) or not yet (ahead).
      const third = yield* claims.refund(scope, payment.id, { amount: part })
      const fourth = yield* claims.refund(scope, payment.id, { amount: part })
      yield* drain
      const asked = (id: string) => upstream.calls.find((c) => c.refundId === id)!
      assert.strictEqual(asked(third.id).refundsAhead, 0)
      const thirdRef = (yield* claims.get(scope, third.id)).providerRef!
      const told = asked(fourth.id)
      assert.strictEqual((told.refundsAhead ?? 0) + (told.knownRefunds?.includes(thirdRef) === true ? 1 : 0), 1)
    }).pipe(Effect.provide(EngineTest)))
})
