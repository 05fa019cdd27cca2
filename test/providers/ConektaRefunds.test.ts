/**
 * Conekta refunds without anything undocumented: no search, no marks on a paid order. A refund
 * carries nothing of ours, so the engine names the payment's refunds it holds
 * (`RefundRequest.knownRefunds`, `providerRefundRef`, `refundsAhead`) and the connector tells its
 * refund among the charge's refunds as the one not held, looking the order's refunds up before it
 * sends (a retry after a lost answer makes no second refund) and after. Against the simulator,
 * with refunds made outside the engine by Conekta's official SDK (`orderRefund`, as in
 * test/providers/ConektaSdk.test.ts); the refund body is the SDK's (https://developers.conekta.com/reference/orderrefund).
 */
import { assert, describe, it } from "@effect/vitest"
import { Configuration, OrdersApi } from "conekta"
import { Effect, Exit, Option } from "effect"
import * as Money from "../../core/Money.ts"
import type { ChargeRequest, PaymentProvider, RefundRequest } from "../../core/ports/PaymentProvider.ts"
import { oxxo, privateKey, setup } from "../../providers/conekta/ConformanceHarness.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { view } from "./Verdict.ts"

const errorOf = <E>(exit: Exit.Exit<unknown, E>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

const requestOn = (provider: PaymentProvider, transactionId: string, amount: string): ChargeRequest => ({
  ...defaultChargeRequest(provider, oxxo, transactionId),
  amount: Money.decimal(amount)
})

/** A refund request as the engine builds it: by default, the first refund of the payment. */
const refundOf = (transactionId: string, providerRef: string, n: number, amount: string, held: Partial<RefundRequest> = {}): RefundRequest => ({
  transactionId,
  providerRef,
  refundId: `${transactionId}-R${n}`,
  idempotencyKey: `${transactionId}-R${n}:conekta`,
  amount: Money.decimal(amount),
  currency: "MXN",
  knownRefunds: [],
  refundsAhead: 0,
  ...held
})

/** A paid order of `amount` MXN on a fresh simulator. */
const paid = (transactionId: string, amount: string, overrides: Parameters<typeof setup>[0] = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const world = yield* setup(overrides, slowMs)
    const { providerRef } = yield* world.provider.charge(requestOn(world.provider, transactionId, amount))
    yield* world.sim.complete(providerRef)
    return { ...world, providerRef }
  })

const refundCalls = (sim: { readonly requests: ReadonlyArray<{ readonly method: string; readonly path: string }> }) =>
  sim.requests.filter((r) => r.path.startsWith("/orders/")).map((r) => `${r.method} ${r.path.replace(/ord_\w+/, "{id}")}`)

describe("Conekta refunds, told apart by what the engine holds", () => {
  it.live("write nothing onto the paid order; two refunds of one amount are two refunds once the engine names the first; a retried one is the same", () =>
    Effect.gen(function*() {
      const { provider, providerRef, sim } = yield* paid("TXN-CKR-1", "400")
      const before = refundCalls(sim).length
      const first = yield* provider.refund(refundOf("TXN-CKR-1", providerRef, 1, "150"))
      const retried = yield* provider.refund(refundOf("TXN-CKR-1", providerRef, 1, "150"))
      const second = yield* provider.refund(refundOf("TXN-CKR-1", providerRef, 2, "150", { knownRefunds: [first.providerRef] }))
      assert.strictEqual(retried.providerRef, first.providerRef)
      assert.notStrictEqual(second.providerRef, first.providerRef)
      const order = sim.orders.get(providerRef)!
      assert.deepStrictEqual(order.refunds.map((r) => [r.id, r.amount]), [[first.providerRef, 15000], [second.providerRef, 15000]])
      assert.deepStrictEqual(order.metadata, { transaction_id: "TXN-CKR-1" }, "no marks on the paid order")
      assert.deepStrictEqual(refundCalls(sim).slice(before), [
        "GET /orders/{id}", "POST /orders/{id}/refunds", // the first: looked up, then asked for
        "GET /orders/{id}", // its retry: found among the order's refunds
        "GET /orders/{id}", "POST /orders/{id}/refunds" // the second: the first is the engine's, so asked for
      ], "no PUT /orders/{id}: nothing undocumented")
    }))

  it.live("a refund whose answer was lost is found among the order's refunds before anything is sent again: one refund", () =>
    Effect.gen(function*() {
      const { provider, providerRef, sim } = yield* paid("TXN-CKR-LOST", "100", { timeoutMs: 400 }, 900)
      yield* sim.setMode("slow_posts")
      const lost = errorOf(yield* Effect.exit(provider.refund(refundOf("TXN-CKR-LOST", providerRef, 1, "40"))))
      assert.deepInclude(lost, { reason: "timeout", retryable: true, outcomeUnknown: true })
      assert.strictEqual(sim.orders.get(providerRef)!.refunds.length, 1, "made upstream, its answer lost")
      yield* sim.setMode("ok")
      const before = refundCalls(sim).length
      const found = yield* provider.refund(refundOf("TXN-CKR-LOST", providerRef, 1, "40"))
      assert.strictEqual(found.providerRef, sim.orders.get(providerRef)!.refunds[0]!.id)
      assert.deepStrictEqual(refundCalls(sim).slice(before), ["GET /orders/{id}"], "looked up, not sent again")
    }))

  it.live("waits while an earlier refund of the payment has no answer (one at a time, the oldest first): retryable, nothing sent", () =>
    Effect.gen(function*() {
      const { provider, providerRef, sim } = yield* paid("TXN-CKR-AHEAD", "100")
      const waiting = errorOf(yield* Effect.exit(provider.refund(refundOf("TXN-CKR-AHEAD", providerRef, 2, "40", { refundsAhead: 1 }))))
      assert.deepInclude(waiting, { reason: "refund_in_flight", retryable: true })
      assert.strictEqual(sim.orders.get(providerRef)!.refunds.length, 0)
    }))

  it.live("refunds of the amount made outside the engine (the SDK's orderRefund) cannot be told from ours: retryable, never a guess, nothing sent", () =>
    Effect.gen(function*() {
      const { provider, providerRef, sim } = yield* paid("TXN-CKR-OUT", "100")
      const orders = new OrdersApi(new Configuration({ accessToken: privateKey, basePath: sim.baseUrl, baseOptions: { timeout: 5_000 } }))
      for (let i = 0; i < 2; i++) yield* Effect.promise(() => orders.orderRefund(providerRef, { amount: 1000, reason: "requested_by_client" }))
      const ambiguous = errorOf(yield* Effect.exit(provider.refund(refundOf("TXN-CKR-OUT", providerRef, 1, "10"))))
      assert.deepInclude(ambiguous, { reason: "refund_ambiguous", retryable: true })
      // Nor when the caller names none it holds (an embedder's own call): one of the amount may be another's.
      const unnamed = errorOf(yield* Effect.exit(provider.refund({ ...refundOf("TXN-CKR-OUT", providerRef, 1, "10"), knownRefunds: undefined })))
      assert.deepInclude(unnamed, { reason: "refund_ambiguous", retryable: true })
      assert.strictEqual(sim.orders.get(providerRef)!.refunds.length, 2)
      // Another amount is told apart: asked for.
      const other = yield* provider.refund(refundOf("TXN-CKR-OUT", providerRef, 2, "25"))
      assert.strictEqual(sim.orders.get(providerRef)!.refunds.at(-1)!.id, other.providerRef)
    }))

  it.live("a pending refund is followed by its provider id: settled it stays pending (no status word, as documented), cancelled it fails, and the order event after the cancel reports it failed", () =>
    Effect.gen(function*() {
      const { provider, providerRef, receiver, sim } = yield* paid("TXN-CKR-P", "100")
      yield* sim.setRefundsPending(true)
      const one = yield* provider.refund(refundOf("TXN-CKR-P", providerRef, 1, "30"))
      const two = yield* provider.refund(refundOf("TXN-CKR-P", providerRef, 2, "20", { knownRefunds: [one.providerRef] }))
      assert.deepStrictEqual([one.status, two.status], ["pending", "pending"])
      yield* sim.settleRefund(one.providerRef)
      const notified = receiver.updates.length
      yield* sim.rejectRefund(two.providerRef)
      const settled = yield* provider.refund(refundOf("TXN-CKR-P", providerRef, 1, "30", { providerRefundRef: one.providerRef, knownRefunds: [two.providerRef] }))
      const rejected = yield* provider.refund(refundOf("TXN-CKR-P", providerRef, 2, "20", { providerRefundRef: two.providerRef, knownRefunds: [one.providerRef] }))
      assert.deepStrictEqual([settled.providerRef, settled.status], [one.providerRef, "pending"])
      assert.deepStrictEqual([rejected.providerRef, rejected.status], [two.providerRef, "failed"])
      const told = receiver.updates.slice(notified).flatMap((u) => (u.refunds ?? []).filter((r) => r.providerRef === two.providerRef))
      assert.deepStrictEqual(told.map((r) => r.status), ["failed"], "the order event carries the cancelled refund")
      assert.strictEqual(sim.orders.get(providerRef)!.refunds.length, 2)
    }))

  it.live("a refusal is final (the order is not refundable) and leaves nothing that blocks the next refund", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const { providerRef } = yield* provider.charge(requestOn(provider, "TXN-CKR-X", "100"))
      const early = errorOf(yield* Effect.exit(provider.refund(refundOf("TXN-CKR-X", providerRef, 1, "30"))))
      assert.deepStrictEqual([early?.reason, early?.retryable], ["conekta.errors.processing.refund.not_refundable", false])
      yield* sim.complete(providerRef)
      const next = yield* provider.refund(refundOf("TXN-CKR-X", providerRef, 2, "30"))
      assert.strictEqual(sim.orders.get(providerRef)!.refunds[0]!.id, next.providerRef)
      assert.deepStrictEqual(sim.orders.get(providerRef)!.metadata, { transaction_id: "TXN-CKR-X" })
    }))
})
