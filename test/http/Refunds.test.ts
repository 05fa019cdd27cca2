/**
 * Refunds as claims through the API: full and partial refunds to the cent, the payment becoming
 * refunded, every refund error, idempotent retries, and racing refunds that never exceed the
 * payment (on every store). Requests go through the typed client (TypedApi.ts); `call` stays for
 * bodies it would not send and the admin route called with a merchant's key.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { ApiError } from "../../core/ApiError.ts"
import * as Money from "../../core/Money.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { adminToken, call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

const d = (n: number | string) => Money.decimal(String(n))

/** With the raw response beside the decoded answer, for its status. */
const withResponse = { responseMode: "decoded-and-response" } as const

/** A merchant with `count` completed payments of `amount` USD on sbx_pix. */
const paidMerchant = (count: number, amount = 100) =>
  Effect.gen(function*() {
    const m = yield* createMerchant()
    const sk = m.keys.sandbox.secretKey
    const api = yield* apiAs(sk)
    const ids: Array<string> = []
    for (let i = 0; i < count; i++) {
      const created = yield* api.payments.create({ payload: { amount: d(amount), paymentMethodId: "sbx_pix" }, headers: { "sandbox-simulate": "paid" } })
      ids.push(created.transactionId)
    }
    for (const id of ids) yield* eventually(api.payments.get({ params: { id } }), (p) => p.status === "completed")
    return { ...m, sk, api, ids }
  })

/** A merchant's typed client (built once per test: building one takes a fifth of a second). */
type Client = Effect.Success<ReturnType<typeof apiAs>>

const claim = (api: Client, id: string) => api.claims.get({ params: { id } })

const balance = (api: Client) => api.identity.balance({ query: {} })

/**
 * A sandbox payment of 100 USD charged back at once; answers its chargeback claim id, read from
 * the `chargeback.created` event as a webhook receiver would.
 */
const chargedBack = (m: { readonly keys: { readonly sandbox: { readonly secretKey: string } }; readonly shops: ReadonlyArray<{ readonly id: string }> }) =>
  Effect.gen(function*() {
    const api = yield* apiAs(m.keys.sandbox.secretKey)
    const created = yield* api.payments.create({ payload: { amount: d(100), paymentMethodId: "sbx_card" }, headers: { "sandbox-simulate": "chargeback" } })
    yield* eventually(api.payments.get({ params: { id: created.transactionId } }), (p) => p.status === "chargeback")
    const events = yield* (yield* OutboxStore).list("sandbox", m.shops[0]!.id)
    const opened = events.find((e) => e.type === "chargeback.created" && e.relatedTxId === created.transactionId)!
    return ((opened.data["data"] as { claim: { id: string } }).claim).id
  })

describe("refunds", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a full refund: pending, then succeeded; the payment is refunded and the balance gives back the headline", () =>
      Effect.gen(function*() {
        const { api, ids, shops } = yield* paidMerchant(2)
        const id = ids[0]!
        const before = yield* balance(api)
        const payment = yield* api.payments.get({ params: { id } })
        const [refund, reply] = yield* api.claims.refund({ params: { id }, payload: { reason: "requested_by_customer" }, headers: {}, ...withResponse })
        assert.strictEqual(reply.status, 201)
        assert.match(refund.refundId, /^CLM-/)
        assert.deepInclude(refund, { transactionId: id, amount: payment.amountLocal, amountUsd: 100, currency: "BRL", status: "pending", reason: "requested_by_customer" })

        const resolved = yield* eventually(claim(api, refund.refundId), (c) => c.status !== "open")
        assert.deepInclude(resolved, { kind: "user_dispute", status: "approved", refundStatus: "succeeded", resolution: "refunded" })
        assert.strictEqual((yield* api.payments.get({ params: { id } })).status, "refunded")
        const after = yield* balance(api)
        assert.strictEqual(after.balance.frozen, 0)
        // netBalance (the books less what the shop owes) gave back the headline: the payment's own
        // shares gave 100 less its fees, and the fees are owed (repaid by the next settlement).
        assert.strictEqual(Money.toText(BigDecimal.subtract(d(before.feeSummary.netBalance), d(after.feeSummary.netBalance))), "100")
        assert.deepStrictEqual(after.ledgerWarnings, [
          `The shop owes ${Money.toText(d(payment.fees.total))} USD: refunds and chargebacks its balance could not cover; it is repaid from the next money that becomes available`
        ])
        const types = (yield* (yield* OutboxStore).list("sandbox", shops[0]!.id)).map((e) => e.type)
        for (const t of ["claim.opened", "payment.refunded", "claim.resolved"]) assert.include(types, t)

        const again = yield* refused(api.claims.refund({ params: { id }, payload: {}, headers: {} }))
        assert.strictEqual(httpStatus[again.code], 422)
        assert.strictEqual(again.code, "refund_not_allowed")
      }))

    it.effect("partial refunds to the cent, the last one taking the exact remainder", () =>
      Effect.gen(function*() {
        const { api, ids } = yield* paidMerchant(3)
        const id = ids[0]!
        const p = yield* api.payments.get({ params: { id } })
        const first = yield* api.claims.refundTransaction({ params: { id }, payload: { amount: d(100) }, headers: {} })
        assert.strictEqual(first.amount, 100)
        assert.strictEqual(first.amountUsd, Money.toJsonNumber(Money.round(BigDecimal.divideUnsafe(BigDecimal.multiply(d(100), d(100)), d(p.amountLocal)), "USD")))
        const tooMuch = yield* refused(api.claims.refund({ params: { id }, payload: { amount: d(p.amountLocal) }, headers: {} }))
        assert.strictEqual(httpStatus[tooMuch.code], 422)
        assert.strictEqual(tooMuch.code, "refund_amount_exceeds_remaining")
        assert.strictEqual(tooMuch.details["remaining"], Money.toJsonNumber(BigDecimal.subtract(d(p.amountLocal), d(100))))
        const rest = yield* api.claims.refund({ params: { id }, payload: {}, headers: {} })
        assert.strictEqual(rest.amount, Money.toJsonNumber(BigDecimal.subtract(d(p.amountLocal), d(100))))
        assert.strictEqual(Money.toText(BigDecimal.sum(d(first.amountUsd), d(rest.amountUsd))), "100")
        for (const r of [first, rest]) yield* eventually(api.claims.get({ params: { id: r.refundId } }), (c) => c.status === "approved")
        assert.strictEqual((yield* api.payments.get({ params: { id } })).status, "refunded")
      }))

    it.effect("refund errors: unknown or foreign payment, not completed, bad amount or reason; idempotent retries", () =>
      Effect.gen(function*() {
        const { api, ids, sk } = yield* paidMerchant(1)
        const id = ids[0]!
        const stranger = yield* apiAs((yield* createMerchant()).keys.sandbox.secretKey)
        assert.strictEqual(httpStatus[(yield* refused(api.claims.refund({ params: { id: "TXN-NOPE" }, payload: {}, headers: {} }))).code], 404)
        assert.strictEqual(httpStatus[(yield* refused(stranger.claims.refund({ params: { id }, payload: {}, headers: {} }))).code], 404)
        const pending = yield* api.payments.create({ payload: { amount: d(10), paymentMethodId: "sbx_pix" }, headers: {} })
        const notYet = yield* refused(api.claims.refund({ params: { id: pending.transactionId }, payload: {}, headers: {} }))
        assert.strictEqual(httpStatus[notYet.code], 422)
        assert.strictEqual(notYet.code, "refund_not_allowed")
        // Raw: bodies the typed client would not send.
        assert.strictEqual((yield* call("POST", `/api/v1/payments/${id}/refund`, { bearer: sk, body: { amount: 0 } })).status, 400)
        assert.strictEqual((yield* call("POST", `/api/v1/payments/${id}/refund`, { bearer: sk, body: { amount: 1.234 } })).status, 400)
        assert.strictEqual((yield* call("POST", `/api/v1/payments/${id}/refund`, { bearer: sk, body: { reason: "x".repeat(501) } })).status, 400)

        const refundTen = api.claims.refund({ params: { id }, payload: { amount: d(10) }, headers: { "idempotency-key": "r-1" } })
        const once = yield* refundTen
        const twice = yield* refundTen
        assert.strictEqual(twice.refundId, once.refundId)
        assert.strictEqual(httpStatus[(yield* refused(stranger.claims.get({ params: { id: once.refundId } }))).code], 404)
      }))
  })
})

describe("chargebacks", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("the sandbox chargeback opens a claim, freezes the amount and charges the fee; a shortfall is owed", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const sk = m.keys.sandbox.secretKey
        const api = yield* apiAs(sk)
        const created = yield* api.payments.create({
          payload: { amount: d(100), paymentMethodId: "sbx_card", merchantOrderId: "cb-1" },
          headers: { "sandbox-simulate": "chargeback" }
        })
        const final = yield* eventually(api.payments.get({ params: { id: created.transactionId } }), (p) => p.status === "chargeback")
        assert.strictEqual(final.status, "chargeback")
        const fees = d(created.fees.total)
        const read = yield* balance(api)
        assert.deepStrictEqual(read.balance, { available: 0, pending: 0, frozen: 100, reserve: 0 })
        assert.strictEqual(read.feeSummary.chargebackFees, 15)
        // The merchant got 100 - fees; the chargeback takes 100 + 15: the rest is owed.
        const owed = Money.toText(BigDecimal.sum(fees, d(15)))
        assert.deepStrictEqual(read.ledgerWarnings, [
          `The shop owes ${owed} USD: refunds and chargebacks its balance could not cover; it is repaid from the next money that becomes available`
        ])
        assert.strictEqual(read.feeSummary.netBalance, Money.toJsonNumber(BigDecimal.subtract(d(100), d(owed))))

        const events = yield* (yield* OutboxStore).list("sandbox", m.shops[0]!.id)
        const opened = events.find((e) => e.type === "chargeback.created")!
        assert.strictEqual(opened.data["merchantOrderId"], "cb-1")
        const claimId = ((opened.data["data"] as { claim: { id: string } }).claim).id
        assert.include(events.map((e) => e.type), "claim.opened")
        const claimRead = yield* claim(api, claimId)
        assert.deepInclude(claimRead, { kind: "chargeback", status: "open", amountUsd: 100, feeUsd: 15, transactionId: created.transactionId })
        assert.notProperty(claimRead, "refundStatus")
        const refund = yield* refused(api.claims.refund({ params: { id: created.transactionId }, payload: {}, headers: {} }))
        assert.strictEqual(refund.code, "refund_not_allowed")
      }))

    it.effect("sandbox simulation decides a chargeback: won returns the frozen amount, repaying what is owed first", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const sk = m.keys.sandbox.secretKey
        const api = yield* apiAs(sk)
        const claimId = yield* chargedBack(m)
        const before = yield* balance(api)
        const owed = BigDecimal.subtract(d(100), d(before.feeSummary.netBalance))
        const simulate = (outcome: "won" | "lost") => api.claims.simulate({ params: { id: claimId }, payload: { outcome }, ...withResponse })

        const live = yield* refused(Effect.flatMap(apiAs(m.keys.production.secretKey), (prod) => prod.claims.simulate({ params: { id: claimId }, payload: { outcome: "won" } })))
        assert.strictEqual(httpStatus[live.code], 400)
        assert.strictEqual(live.code, "simulate_sandbox_only")
        // Raw: an outcome the typed client cannot send.
        const bad = yield* call("POST", `/api/v1/claims/${claimId}/simulate`, { bearer: sk, body: { outcome: "maybe" } })
        assert.strictEqual(bad.status, 400)
        assert.strictEqual(bad.body.error.code, "invalid_request")

        const [won, wonReply] = yield* simulate("won")
        assert.strictEqual(wonReply.status, 200)
        assert.deepInclude(won, { id: claimId, kind: "chargeback", status: "won", resolution: "won", resolvedBy: "sandbox", feeUsd: 15 })
        const after = yield* balance(api)
        assert.deepStrictEqual(after.balance, { available: Money.toJsonNumber(BigDecimal.subtract(d(100), owed)), pending: 0, frozen: 0, reserve: 0 })
        assert.deepStrictEqual(after.ledgerWarnings, [])
        // The fee is kept: what the merchant has is the payment's net less the chargeback fee.
        assert.strictEqual(after.feeSummary.netBalance, before.feeSummary.netBalance)
        assert.strictEqual(after.feeSummary.chargebackFees, 15)
        const resolvedEvents = (yield* (yield* OutboxStore).list("sandbox", m.shops[0]!.id)).filter((e) => e.type === "claim.resolved")
        assert.strictEqual(resolvedEvents.length, 1)

        const [again] = yield* simulate("won")
        assert.deepStrictEqual(again, won)
        const other = yield* refused(simulate("lost"))
        assert.strictEqual(httpStatus[other.code], 409)
        assert.strictEqual(other.code, "claim_already_resolved")
        assert.strictEqual(other.details["status"], "won")
      }))

    it.effect("the operator resolves a chargeback lost; refunds and unknown claims are refused", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const sk = m.keys.sandbox.secretKey
        const api = yield* apiAs(sk)
        const admin = yield* apiAs(adminToken)
        const claimId = yield* chargedBack(m)
        // Raw: the admin route with a merchant's key instead of the admin token.
        const unauthorised = yield* call("POST", `/admin/v1/claims/${claimId}/resolve`, { bearer: sk, body: { outcome: "lost" } })
        assert.strictEqual(unauthorised.status, 401)
        const [lost, lostReply] = yield* admin.claimAdmin.resolve({ params: { id: claimId }, payload: { outcome: "lost" }, ...withResponse })
        assert.strictEqual(lostReply.status, 200)
        assert.deepInclude(lost, { status: "lost", resolution: "lost", resolvedBy: "operator" })
        const read = yield* balance(api)
        assert.strictEqual(read.balance.frozen, 0)
        assert.strictEqual(read.ledgerWarnings.length, 1)
        assert.strictEqual((yield* claim(api, claimId)).status, "lost")

        const { api: api2, ids } = yield* paidMerchant(1)
        const refund = yield* api2.claims.refund({ params: { id: ids[0]! }, payload: { amount: d(10) }, headers: {} })
        const notChargeback = yield* refused(admin.claimAdmin.resolve({ params: { id: refund.refundId }, payload: { outcome: "won" } }))
        assert.strictEqual(httpStatus[notChargeback.code], 422)
        assert.strictEqual(notChargeback.code, "claim_not_chargeback")
        assert.strictEqual((yield* refused(api2.claims.simulate({ params: { id: refund.refundId }, payload: { outcome: "won" } }))).code, "claim_not_chargeback")
        const unknown = yield* refused(admin.claimAdmin.resolve({ params: { id: "CLM-NOPE" }, payload: { outcome: "won" } }))
        assert.strictEqual(httpStatus[unknown.code], 404)
        assert.strictEqual(httpStatus[(yield* refused(api2.claims.simulate({ params: { id: claimId }, payload: { outcome: "won" } }))).code], 404)
      }))
  })
})

for (const target of storeTargets("refunds")) {
  describe(`racing refunds on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("20 refunds racing for one payment never exceed it", () =>
        Effect.gen(function*() {
          const { api, ids } = yield* paidMerchant(3)
          const id = ids[0]!
          const p = yield* api.payments.get({ params: { id } })
          // Each answer: the refund with its response, or the refusal.
          const replies = yield* Effect.all(
            Array.from({ length: 20 }, () =>
              api.claims.refund({ params: { id }, payload: { amount: d(50) }, headers: {}, ...withResponse }).pipe(
                Effect.catchTag("ApiError", (e) => Effect.succeed(e))
              )),
            { concurrency: "unbounded" }
          )
          const accepted = replies.flatMap((r) => r instanceof ApiError || r[1].status !== 201 ? [] : [r[0]])
          const refusals = replies.flatMap((r) => r instanceof ApiError && httpStatus[r.code] === 422 ? [r] : [])
          const statuses = replies.map((r) => r instanceof ApiError ? httpStatus[r.code] : r[1].status)
          assert.strictEqual(accepted.length + refusals.length, 20, JSON.stringify(statuses))
          const fits = Math.floor(p.amountLocal / 50)
          assert.strictEqual(accepted.length, fits)
          assert.isTrue(refusals.every((r) => r.code === "refund_amount_exceeds_remaining"))
          assert.isTrue(BigDecimal.isLessThanOrEqualTo(accepted.map((r) => d(r.amount)).reduce(BigDecimal.sum), d(p.amountLocal)))
        }))
    })
  })
}
