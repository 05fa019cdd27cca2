/**
 * Pagar.me refunds whose outcome the connector cannot see whole (the plugin against its simulator,
 * faults injected there): once `DELETE /charges/{id}` has made a refund, nothing that fails after
 * it is a refusal (a refusal gives the money back to the shop while the buyer was refunded), and a
 * refund asked again is looked up among the charge's transactions before anything is sent.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import * as Money from "../../core/Money.ts"
import type { RefundRequest } from "../../core/ports/PaymentProvider.ts"
import { chargeRequestFor, setup } from "../../providers/pagarme/ConformanceHarness.ts"
import type { Fault } from "../../providers/pagarme/PagarmeSimulator.ts"
import { type ProviderErrorView, view } from "./Verdict.ts"

const failure = (exit: Exit.Exit<unknown, unknown>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

const refundOf = (transactionId: string, providerRef: string, amount: string): RefundRequest => ({
  transactionId,
  providerRef,
  refundId: `${transactionId}-R1`,
  idempotencyKey: `${transactionId}-R1:pagarme`,
  amount: Money.decimal(amount),
  currency: "BRL"
})

/** Once a `DELETE` has gone through, the calls `matches` names answer `404` (a final status). */
const afterCancel = (matches: (method: string, path: string) => boolean): Fault => {
  let cancelled = false
  return (req) => {
    if (req.method === "DELETE") {
      cancelled = true
      return undefined
    }
    return cancelled && matches(req.method, req.path) ? { status: 404, body: { message: "Resource not found." } } : undefined
  }
}

const paidPix = (transactionId: string, options: { readonly timeoutMs?: number } = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const { provider, sim } = yield* setup(options, slowMs)
    yield* sim.dropCallbacks(true)
    const accepted = yield* provider.charge(chargeRequestFor(provider)(transactionId))
    yield* sim.complete(accepted.providerRef)
    const refundsAt = () => sim.charges.get(accepted.providerRef)!.transactions.filter((t) => t.kind === "refund")
    return { provider, sim, chargeId: accepted.providerRef, refundsAt }
  })

describe("Pagar.me refunds with an unknown outcome", () => {
  it.live("the marker write refused after the DELETE: the refund is held pending, and asked again it is the same refund", () =>
    Effect.gen(function*() {
      const { chargeId, provider, refundsAt, sim } = yield* paidPix("TXN-PGM-MARKLOST")
      yield* sim.setRefundsPending(true)
      yield* sim.setFault(afterCancel((method, path) => method === "PATCH" && path.endsWith("/metadata")))
      const request = refundOf("TXN-PGM-MARKLOST", chargeId, "5")
      const held = yield* provider.refund(request)
      const made = refundsAt()
      assert.strictEqual(made.length, 1)
      assert.deepStrictEqual(held, { providerRef: made[0]!.id, status: "pending" })
      yield* sim.setFault(undefined)
      yield* sim.expireIdempotencyKeys()
      yield* sim.settleRefund(made[0]!.id)
      const again = yield* provider.refund(request)
      assert.deepStrictEqual(again, { providerRef: made[0]!.id, status: "succeeded" })
      assert.strictEqual(refundsAt().length, 1)
    }))

  it.live("the follow-up read refused after the DELETE: the refund is held pending, not refused", () =>
    Effect.gen(function*() {
      const { chargeId, provider, refundsAt, sim } = yield* paidPix("TXN-PGM-READLOST")
      yield* sim.setRefundsPending(true)
      yield* sim.setFault(afterCancel((method, path) => method === "GET" && path.endsWith("/transactions")))
      const held = yield* provider.refund(refundOf("TXN-PGM-READLOST", chargeId, "5"))
      assert.deepStrictEqual(held, { providerRef: refundsAt()[0]!.id, status: "pending" })
    }))

  it.live("a DELETE whose answer was lost, asked again after Pagar.me forgot its Idempotency-Key, is found, not sent again", () =>
    Effect.gen(function*() {
      const { chargeId, provider, refundsAt, sim } = yield* paidPix("TXN-PGM-LOSTKEY", { timeoutMs: 300 }, 800)
      const request = refundOf("TXN-PGM-LOSTKEY", chargeId, "3")
      yield* sim.setMode("slow_cancels")
      const lost = failure(yield* Effect.exit(provider.refund(request))) as ProviderErrorView
      assert.deepStrictEqual([lost.reason, lost.retryable], ["timeout", true])
      assert.strictEqual(refundsAt().length, 1)
      yield* sim.setMode("ok")
      yield* sim.expireIdempotencyKeys()
      const retried = yield* provider.refund(request)
      assert.deepStrictEqual(refundsAt().map((t) => [t.id, t.amount]), [[retried.providerRef, 300]])
      assert.strictEqual(retried.status, "succeeded")
      assert.strictEqual(sim.requests.filter((r) => r.method === "DELETE").length, 1)
    }))

  it.live("two unclaimed refunds of the same amount are ambiguous: retryable, nothing sent, never a guess", () =>
    Effect.gen(function*() {
      const { chargeId, provider, refundsAt, sim } = yield* paidPix("TXN-PGM-AMBIG", { timeoutMs: 300 }, 800)
      const request = refundOf("TXN-PGM-AMBIG", chargeId, "2")
      yield* sim.setMode("slow_cancels")
      yield* Effect.exit(provider.refund(request))
      yield* Effect.exit(provider.refund({ ...request, refundId: "TXN-PGM-AMBIG-R2", idempotencyKey: "TXN-PGM-AMBIG-R2:pagarme" }))
      yield* sim.setMode("ok")
      assert.strictEqual(refundsAt().length, 2)
      const refused = failure(yield* Effect.exit(provider.refund(request))) as ProviderErrorView
      assert.deepStrictEqual([refused.reason, refused.retryable], ["refund_ambiguous", true])
      assert.strictEqual(refundsAt().length, 2)
    }))
})
