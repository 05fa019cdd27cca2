/**
 * dLocal refunds as the port asks for them: idempotent by the engine's refund id, and following a
 * refund dLocal still has pending until it is final.
 *
 * - dLocal documents no idempotency for `POST /refunds`; it refuses a second `order_refund_id`
 *   (`400 5011 Order refund id is duplicated`) and lets a merchant retrieve a refund by it
 *   (https://docs.dlocal.com/reference/retrieve-order-refund). So the connector asks for the refund
 *   first and sends only when dLocal holds none.
 * - A refund dLocal answers `PENDING` is `pending`; asked again it answers where it stands:
 *   `SUCCESS` succeeded, `REJECTED` / `CANCELLED` failed (https://docs.dlocal.com/reference/the-refund-object,
 *   status codes 100/200/300/400).
 * - dLocal POSTs a pending refund's confirmation to the refund's `notification_url`
 *   (https://docs.dlocal.com/docs/refunds): the connector names the payment's own notification URL,
 *   and accepts the signed refund object there, reporting the refund with its payment.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { findMethod } from "../../core/catalog/methods.ts"
import * as Money from "../../core/Money.ts"
import type { ProviderError } from "../../core/ports/PaymentProvider.ts"
import { callbackReceiver } from "../../providers/kit/CallbackReceiver.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { credentials, Live, optionsFor } from "../../providers/dlocal/ConformanceHarness.ts"
import { make } from "../../providers/dlocal/DLocalProvider.ts"
import { DLocalSimulator } from "../../providers/dlocal/DLocalSimulator.ts"
import { view } from "./Verdict.ts"

const errorOf = (exit: Exit.Exit<unknown, ProviderError>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

const setup = (overrides: Parameters<typeof optionsFor>[1] = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const sim = yield* DLocalSimulator.start(credentials, { slowMs })
    yield* sim.dropCallbacks(true)
    const provider = yield* make(optionsFor(sim.baseUrl, overrides))
    const request = { ...defaultChargeRequest(provider, findMethod("1001")!, `TXN-RF-${Math.random().toString(36).slice(2, 8)}`), amount: Money.decimal("100") }
    const charged = yield* provider.charge(request)
    yield* sim.complete(charged.providerRef)
    const refund = (refundId: string, amount: string) =>
      provider.refund({
        transactionId: request.transactionId,
        providerRef: charged.providerRef,
        refundId,
        idempotencyKey: `${refundId}:dlocal`,
        amount: Money.decimal(amount),
        currency: "BRL"
      })
    return { sim, provider, request, charged, refund }
  })

describe("dLocal refunds", () => {
  it.live("a refund whose answer was lost is found by its order_refund_id when asked again: never a second refund", () =>
    Effect.gen(function*() {
      const { charged, refund, sim } = yield* setup({ timeoutMs: 1_000 }, 3_000)
      yield* sim.setMode("slowWrites")
      assert.deepInclude(errorOf(yield* Effect.exit(refund("CLM-LOST-1", "40"))), { reason: "timeout", retryable: true })
      yield* sim.setMode("ok")
      const again = yield* refund("CLM-LOST-1", "40")
      const held = sim.charges.get(charged.providerRef)!.refunds
      assert.deepStrictEqual(held.map((r) => [r.id, r.orderRefundId, r.amountText]), [[again.providerRef, "CLM-LOST-1", "40"]])
      assert.deepInclude(again, { status: "succeeded" })
      const after = sim.requests.slice(-1).map((r) => `${r.method} ${r.path} ${r.status}`)
      assert.deepStrictEqual(after, ["GET /orders/CLM-LOST-1 200"], "looked up, not sent again")
    }).pipe(Effect.provide(Live)))

  it.live("a PENDING refund answers pending; asked again it answers where it stands (SUCCESS succeeded, REJECTED failed)", () =>
    Effect.gen(function*() {
      const { charged, refund, sim } = yield* setup()
      yield* sim.setRefundMode("pending")
      const first = yield* refund("CLM-PEND-1", "30")
      assert.deepInclude(first, { status: "pending" })
      assert.deepInclude(yield* refund("CLM-PEND-1", "30"), { providerRef: first.providerRef, status: "pending" })
      yield* sim.settleRefund(first.providerRef)
      assert.deepInclude(yield* refund("CLM-PEND-1", "30"), { providerRef: first.providerRef, status: "succeeded" })

      const second = yield* refund("CLM-PEND-2", "20")
      assert.deepInclude(second, { status: "pending" })
      yield* sim.rejectRefund(second.providerRef, "The refund was rejected: the bank account is closed.")
      const rejected = yield* refund("CLM-PEND-2", "20")
      assert.deepInclude(rejected, { providerRef: second.providerRef, status: "failed" })
      assert.include(rejected.detail ?? "", "rejected")
      assert.strictEqual(sim.charges.get(charged.providerRef)!.refunds.length, 2, "two refunds, each made once")
    }).pipe(Effect.provide(Live)))

  it.live("the refund names the payment's notification URL; dLocal's signed refund notification is accepted and reports the refund", () =>
    Effect.gen(function*() {
      const { charged, refund, request, sim, provider } = yield* setup()
      const receiver = yield* callbackReceiver(provider.verifyCallback)
      yield* sim.setCallbackTarget(receiver.url)
      yield* sim.dropCallbacks(false)
      yield* sim.setRefundMode("pending")
      const pending = yield* refund("CLM-NOTE-1", "10")
      const upstream = sim.refundOf(pending.providerRef)
      assert.include(upstream.raw, `"notification_url":"${request.callbackUrl}"`)
      const before = receiver.updates.length
      yield* sim.settleRefund(pending.providerRef)
      const sent = sim.callbacksSent.at(-1)!
      assert.include(sent.body, `"payment_id"`)
      assert.strictEqual(sent.outcome, 204, "accepted, not refused (dLocal would retry it for days)")
      // It reports the refund as dLocal notified it, on an update about the payment (its order id,
      // its status as the payment read says): the engine settles the pending refund at once.
      const told = receiver.updates.slice(before)
      assert.deepStrictEqual(
        told.map((u) => [u.providerRef, u.transactionId, u.status, u.refunds?.map((r) => [r.providerRef, r.status])]),
        [[charged.providerRef, request.transactionId, "completed", [[pending.providerRef, "succeeded"]]]]
      )
    }).pipe(Effect.provide(Live)))

  it.live("a refund dLocal refuses outright stays a final error, and nothing is made", () =>
    Effect.gen(function*() {
      const { charged, refund, sim } = yield* setup()
      assert.deepInclude(errorOf(yield* Effect.exit(refund("CLM-TOO-MUCH", "100.01"))), { reason: "5007", retryable: false })
      assert.strictEqual(sim.charges.get(charged.providerRef)!.refunds.length, 0)
    }).pipe(Effect.provide(Live)))
})
