/**
 * Refunds as claims through the API: full and partial refunds to the cent, the payment becoming
 * refunded, every refund error, idempotent retries, and racing refunds that never exceed the
 * payment (on every store).
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { adminToken, call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const d = (n: number | string) => Money.decimal(String(n))


/** A merchant with `count` completed payments of `amount` USD on sbx_pix. */
const paidMerchant = (count: number, amount = 100) =>
  Effect.gen(function*() {
    const m = yield* createMerchant()
    const sk = m.keys.sandbox.secretKey
    const ids: Array<string> = []
    for (let i = 0; i < count; i++) {
      const r = yield* call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "paid" }, body: { amount, paymentMethodId: "sbx_pix" } })
      ids.push(r.body.transactionId)
    }
    for (const id of ids) yield* eventually(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body.status === "completed")
    return { ...m, sk, ids }
  })

const claim = (sk: string, id: string) => call("GET", `/api/v1/claims/${id}`, { bearer: sk })

/**
 * A sandbox payment of 100 USD charged back at once; answers its chargeback claim id, read from
 * the `chargeback.created` event as a webhook receiver would.
 */
const chargedBack = (m: { readonly keys: { readonly sandbox: { readonly secretKey: string } }; readonly shops: ReadonlyArray<{ readonly id: string }> }) =>
  Effect.gen(function*() {
    const sk = m.keys.sandbox.secretKey
    const created = yield* call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "chargeback" }, body: { amount: 100, paymentMethodId: "sbx_card" } })
    yield* eventually(call("GET", `/api/v1/payments/${created.body.transactionId}`, { bearer: sk }), (r) => r.body.status === "chargeback")
    const events = yield* (yield* OutboxStore).list("sandbox", m.shops[0]!.id)
    const opened = events.find((e) => e.type === "chargeback.created" && e.relatedTxId === created.body.transactionId)!
    return ((opened.data["data"] as { claim: { id: string } }).claim).id
  })

describe("refunds", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a full refund: pending, then succeeded; the payment is refunded and the balance gives back the headline", () =>
      Effect.gen(function*() {
        const { ids, shops, sk } = yield* paidMerchant(2)
        const before = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body
        const payment = (yield* call("GET", `/api/v1/payments/${ids[0]}`, { bearer: sk })).body
        const refund = yield* call("POST", `/api/v1/payments/${ids[0]}/refund`, { bearer: sk, body: { reason: "requested_by_customer" } })
        assert.strictEqual(refund.status, 201)
        assert.match(refund.body.refundId, /^CLM-/)
        assert.deepInclude(refund.body, { transactionId: ids[0], amount: payment.amountLocal, amountUsd: 100, currency: "BRL", status: "pending", reason: "requested_by_customer" })

        const resolved = yield* eventually(claim(sk, refund.body.refundId), (r) => r.body.status !== "open")
        assert.deepInclude(resolved.body, { kind: "user_dispute", status: "approved", refundStatus: "succeeded", resolution: "refunded" })
        assert.strictEqual((yield* call("GET", `/api/v1/payments/${ids[0]}`, { bearer: sk })).body.status, "refunded")
        const after = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body
        assert.strictEqual(after.balance.frozen, 0)
        // netBalance (the books less what the shop owes) gave back the headline: the payment's own
        // shares gave 100 less its fees, and the fees are owed (repaid by the next settlement).
        assert.strictEqual(Money.toText(BigDecimal.subtract(d(before.feeSummary.netBalance), d(after.feeSummary.netBalance))), "100")
        assert.deepStrictEqual(after.ledgerWarnings, [
          `The shop owes ${Money.toText(d(payment.fees.total))} USD: refunds and chargebacks its balance could not cover; it is repaid from the next money that becomes available`
        ])
        const types = (yield* (yield* OutboxStore).list("sandbox", shops[0]!.id)).map((e) => e.type)
        for (const t of ["claim.opened", "payment.refunded", "claim.resolved"]) assert.include(types, t)

        const again = yield* call("POST", `/api/v1/payments/${ids[0]}/refund`, { bearer: sk, body: {} })
        assert.strictEqual(again.status, 422)
        assert.strictEqual(again.body.error.code, "refund_not_allowed")
      }))

    it.effect("partial refunds to the cent, the last one taking the exact remainder", () =>
      Effect.gen(function*() {
        const { ids, sk } = yield* paidMerchant(3)
        const p = (yield* call("GET", `/api/v1/payments/${ids[0]}`, { bearer: sk })).body
        const first = yield* call("POST", `/api/v1/transactions/${ids[0]}/refund`, { bearer: sk, body: { amount: 100 } })
        assert.strictEqual(first.body.amount, 100)
        assert.strictEqual(first.body.amountUsd, Money.toJsonNumber(Money.round(BigDecimal.divideUnsafe(BigDecimal.multiply(d(100), d(100)), d(p.amountLocal)), "USD")))
        const tooMuch = yield* call("POST", `/api/v1/payments/${ids[0]}/refund`, { bearer: sk, body: { amount: p.amountLocal } })
        assert.strictEqual(tooMuch.status, 422)
        assert.strictEqual(tooMuch.body.error.code, "refund_amount_exceeds_remaining")
        assert.strictEqual(tooMuch.body.error.details.remaining, Money.toJsonNumber(BigDecimal.subtract(d(p.amountLocal), d(100))))
        const rest = yield* call("POST", `/api/v1/payments/${ids[0]}/refund`, { bearer: sk, body: {} })
        assert.strictEqual(rest.body.amount, Money.toJsonNumber(BigDecimal.subtract(d(p.amountLocal), d(100))))
        assert.strictEqual(Money.toText(BigDecimal.sum(d(first.body.amountUsd), d(rest.body.amountUsd))), "100")
        for (const r of [first, rest]) yield* eventually(claim(sk, r.body.refundId), (c) => c.body.status === "approved")
        assert.strictEqual((yield* call("GET", `/api/v1/payments/${ids[0]}`, { bearer: sk })).body.status, "refunded")
      }))

    it.effect("refund errors: unknown or foreign payment, not completed, bad amount or reason; idempotent retries", () =>
      Effect.gen(function*() {
        const { ids, sk } = yield* paidMerchant(1)
        const stranger = yield* createMerchant()
        assert.strictEqual((yield* call("POST", "/api/v1/payments/TXN-NOPE/refund", { bearer: sk, body: {} })).status, 404)
        assert.strictEqual((yield* call("POST", `/api/v1/payments/${ids[0]}/refund`, { bearer: stranger.keys.sandbox.secretKey, body: {} })).status, 404)
        const pending = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "sbx_pix" } })
        const notYet = yield* call("POST", `/api/v1/payments/${pending.body.transactionId}/refund`, { bearer: sk, body: {} })
        assert.strictEqual(notYet.status, 422)
        assert.strictEqual(notYet.body.error.code, "refund_not_allowed")
        assert.strictEqual((yield* call("POST", `/api/v1/payments/${ids[0]}/refund`, { bearer: sk, body: { amount: 0 } })).status, 400)
        assert.strictEqual((yield* call("POST", `/api/v1/payments/${ids[0]}/refund`, { bearer: sk, body: { amount: 1.234 } })).status, 400)
        assert.strictEqual((yield* call("POST", `/api/v1/payments/${ids[0]}/refund`, { bearer: sk, body: { reason: "x".repeat(501) } })).status, 400)

        const once = yield* call("POST", `/api/v1/payments/${ids[0]}/refund`, { bearer: sk, body: { amount: 10 }, headers: { "idempotency-key": "r-1" } })
        const twice = yield* call("POST", `/api/v1/payments/${ids[0]}/refund`, { bearer: sk, body: { amount: 10 }, headers: { "idempotency-key": "r-1" } })
        assert.strictEqual(twice.body.refundId, once.body.refundId)
        assert.strictEqual((yield* claim(stranger.keys.sandbox.secretKey, once.body.refundId)).status, 404)
      }))
  })
})

describe("chargebacks", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("the sandbox chargeback opens a claim, freezes the amount and charges the fee; a shortfall is owed", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const sk = m.keys.sandbox.secretKey
        const created = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          headers: { "sandbox-simulate": "chargeback" },
          body: { amount: 100, paymentMethodId: "sbx_card", merchantOrderId: "cb-1" }
        })
        const final = yield* eventually(call("GET", `/api/v1/payments/${created.body.transactionId}`, { bearer: sk }), (r) => r.body.status === "chargeback")
        assert.strictEqual(final.body.status, "chargeback")
        const fees = d(created.body.fees.total)
        const balance = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body
        assert.deepStrictEqual(balance.balance, { available: 0, pending: 0, frozen: 100, reserve: 0 })
        assert.strictEqual(balance.feeSummary.chargebackFees, 15)
        // The merchant got 100 - fees; the chargeback takes 100 + 15: the rest is owed.
        const owed = Money.toText(BigDecimal.sum(fees, d(15)))
        assert.deepStrictEqual(balance.ledgerWarnings, [
          `The shop owes ${owed} USD: refunds and chargebacks its balance could not cover; it is repaid from the next money that becomes available`
        ])
        assert.strictEqual(balance.feeSummary.netBalance, Money.toJsonNumber(BigDecimal.subtract(d(100), d(owed))))

        const events = yield* (yield* OutboxStore).list("sandbox", m.shops[0]!.id)
        const opened = events.find((e) => e.type === "chargeback.created")!
        assert.strictEqual(opened.data["merchantOrderId"], "cb-1")
        const claimId = ((opened.data["data"] as { claim: { id: string } }).claim).id
        assert.include(events.map((e) => e.type), "claim.opened")
        const claimRead = yield* claim(sk, claimId)
        assert.deepInclude(claimRead.body, { kind: "chargeback", status: "open", amountUsd: 100, feeUsd: 15, transactionId: created.body.transactionId })
        assert.notProperty(claimRead.body, "refundStatus")
        const refund = yield* call("POST", `/api/v1/payments/${created.body.transactionId}/refund`, { bearer: sk, body: {} })
        assert.strictEqual(refund.body.error.code, "refund_not_allowed")
      }))

    it.effect("sandbox simulation decides a chargeback: won returns the frozen amount, repaying what is owed first", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const sk = m.keys.sandbox.secretKey
        const claimId = yield* chargedBack(m)
        const before = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body
        const owed = BigDecimal.subtract(d(100), d(before.feeSummary.netBalance))

        const live = yield* call("POST", `/api/v1/claims/${claimId}/simulate`, { bearer: m.keys.production.secretKey, body: { outcome: "won" } })
        assert.strictEqual(live.status, 400)
        assert.strictEqual(live.body.error.code, "simulate_sandbox_only")
        const bad = yield* call("POST", `/api/v1/claims/${claimId}/simulate`, { bearer: sk, body: { outcome: "maybe" } })
        assert.strictEqual(bad.status, 400)
        assert.strictEqual(bad.body.error.code, "invalid_request")

        const won = yield* call("POST", `/api/v1/claims/${claimId}/simulate`, { bearer: sk, body: { outcome: "won" } })
        assert.strictEqual(won.status, 200)
        assert.deepInclude(won.body, { id: claimId, kind: "chargeback", status: "won", resolution: "won", resolvedBy: "sandbox", feeUsd: 15 })
        const after = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body
        assert.deepStrictEqual(after.balance, { available: Money.toJsonNumber(BigDecimal.subtract(d(100), owed)), pending: 0, frozen: 0, reserve: 0 })
        assert.deepStrictEqual(after.ledgerWarnings, [])
        // The fee is kept: what the merchant has is the payment's net less the chargeback fee.
        assert.strictEqual(after.feeSummary.netBalance, before.feeSummary.netBalance)
        assert.strictEqual(after.feeSummary.chargebackFees, 15)
        const resolvedEvents = (yield* (yield* OutboxStore).list("sandbox", m.shops[0]!.id)).filter((e) => e.type === "claim.resolved")
        assert.strictEqual(resolvedEvents.length, 1)

        const again = yield* call("POST", `/api/v1/claims/${claimId}/simulate`, { bearer: sk, body: { outcome: "won" } })
        assert.deepStrictEqual(again.body, won.body)
        const other = yield* call("POST", `/api/v1/claims/${claimId}/simulate`, { bearer: sk, body: { outcome: "lost" } })
        assert.strictEqual(other.status, 409)
        assert.strictEqual(other.body.error.code, "claim_already_resolved")
        assert.strictEqual(other.body.error.details.status, "won")
      }))

    it.effect("the operator resolves a chargeback lost; refunds and unknown claims are refused", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const sk = m.keys.sandbox.secretKey
        const claimId = yield* chargedBack(m)
        const unauthorised = yield* call("POST", `/admin/v1/claims/${claimId}/resolve`, { bearer: sk, body: { outcome: "lost" } })
        assert.strictEqual(unauthorised.status, 401)
        const lost = yield* call("POST", `/admin/v1/claims/${claimId}/resolve`, { bearer: adminToken, body: { outcome: "lost" } })
        assert.strictEqual(lost.status, 200)
        assert.deepInclude(lost.body, { status: "lost", resolution: "lost", resolvedBy: "operator" })
        const balance = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body
        assert.strictEqual(balance.balance.frozen, 0)
        assert.strictEqual(balance.ledgerWarnings.length, 1)
        assert.strictEqual((yield* claim(sk, claimId)).body.status, "lost")

        const { ids, sk: sk2 } = yield* paidMerchant(1)
        const refund = yield* call("POST", `/api/v1/payments/${ids[0]}/refund`, { bearer: sk2, body: { amount: 10 } })
        const notChargeback = yield* call("POST", `/admin/v1/claims/${refund.body.refundId}/resolve`, { bearer: adminToken, body: { outcome: "won" } })
        assert.strictEqual(notChargeback.status, 422)
        assert.strictEqual(notChargeback.body.error.code, "claim_not_chargeback")
        assert.strictEqual((yield* call("POST", `/api/v1/claims/${refund.body.refundId}/simulate`, { bearer: sk2, body: { outcome: "won" } })).body.error.code, "claim_not_chargeback")
        const unknown = yield* call("POST", "/admin/v1/claims/CLM-NOPE/resolve", { bearer: adminToken, body: { outcome: "won" } })
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual((yield* call("POST", `/api/v1/claims/${claimId}/simulate`, { bearer: sk2, body: { outcome: "won" } })).status, 404)
      }))
  })
})

for (const target of storeTargets("refunds")) {
  describe(`racing refunds on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("20 refunds racing for one payment never exceed it", () =>
        Effect.gen(function*() {
          const { ids, sk } = yield* paidMerchant(3)
          const p = (yield* call("GET", `/api/v1/payments/${ids[0]}`, { bearer: sk })).body
          const replies = yield* Effect.all(
            Array.from({ length: 20 }, () => call("POST", `/api/v1/payments/${ids[0]}/refund`, { bearer: sk, body: { amount: 50 } })),
            { concurrency: "unbounded" }
          )
          const accepted = replies.filter((r) => r.status === 201)
          const refused = replies.filter((r) => r.status === 422)
          assert.strictEqual(accepted.length + refused.length, 20, JSON.stringify(replies.map((r) => r.status)))
          const fits = Math.floor(p.amountLocal / 50)
          assert.strictEqual(accepted.length, fits)
          assert.isTrue(refused.every((r) => r.body.error.code === "refund_amount_exceeds_remaining"))
          assert.isTrue(BigDecimal.isLessThanOrEqualTo(accepted.map((r) => d(r.body.amount)).reduce(BigDecimal.sum), d(p.amountLocal)))
        }))
    })
  })
}
