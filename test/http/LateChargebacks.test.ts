/**
 * Chargebacks on payments that already exist: the operator's
 * `POST /admin/v1/payments/{id}/chargebacks` and the sandbox rehearsal
 * `POST /api/v1/payments/{id}/simulate-chargeback`. A chargeback opened after a partial refund
 * freezes only what remains, charges the fee once, in one balanced journal entry; a retry with the
 * same `Idempotency-Key` opens one chargeback; a second chargeback is refused; racing operator
 * requests with different keys open at most one (on every store, PostgreSQL when set).
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { adminToken, call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { narrative } from "../support/Narrative.ts"
import { storeTargets } from "../support/Stores.ts"
import { apiAs } from "../support/TypedApi.ts"

const d = (n: number | string) => Money.decimal(String(n))
const minus = (a: number, b: number) => Money.toJsonNumber(BigDecimal.subtract(d(a), d(b)))

/** A completed sandbox payment of 100 USD on sbx_pix (through the typed client: its answers are typed). */
const paid = (sk: string) =>
  Effect.gen(function*() {
    const api = yield* apiAs(sk)
    const created = yield* api.payments.create({ payload: { amount: d(100), paymentMethodId: "sbx_pix" }, headers: { "sandbox-simulate": "paid" } })
    return yield* eventually(api.payments.get({ params: { id: created.transactionId } }), (p) => p.status === "completed")
  })

/** A sandbox merchant with one completed payment of 100 USD on sbx_pix. */
const paidMerchant = Effect.gen(function*() {
  const m = yield* createMerchant()
  const sk = m.keys.sandbox.secretKey
  const payment = yield* paid(sk)
  return { ...m, sk, id: payment.id, payment }
})

/** What the shop has beside the frozen money: `netBalance` less `frozen` (available + pending + reserve - owed). */
const spendable = (b: { readonly feeSummary: { readonly netBalance: number }; readonly balance: { readonly frozen: number } }) =>
  BigDecimal.subtract(d(b.feeSummary.netBalance), d(b.balance.frozen))

/** Refunds `amount` (local currency) of the payment and waits until the provider approved it. */
const refunded = (sk: string, id: string, amount: number) =>
  Effect.gen(function*() {
    const api = yield* apiAs(sk)
    const refund = yield* api.claims.refund({ params: { id }, payload: { amount: d(amount) }, headers: {} })
    yield* eventually(api.claims.get({ params: { id: refund.refundId } }), (c) => c.status === "approved")
    return refund
  })

const balance = (sk: string) => Effect.flatMap(apiAs(sk), (api) => api.identity.balance({ query: {} }))

const operatorChargeback = (id: string, key?: string, body: unknown = { reason: "fraudulent" }) =>
  call("POST", `/admin/v1/payments/${id}/chargebacks`, {
    bearer: adminToken,
    body,
    ...(key === undefined ? {} : { headers: { "idempotency-key": key } })
  })

const chargebacksOf = (sk: string, id: string) =>
  Effect.flatMap(apiAs(sk), (api) => Effect.map(api.claims.paymentClaims({ params: { id } }), (r) => r.data.filter((c) => c.kind === "chargeback")))

describe("late chargebacks", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("the operator charges back a partially refunded payment: only what remains is frozen, the fee once, one entry; a retry replays", () =>
      narrative((step) => Effect.gen(function*() {
        yield* step("a paid payment, partly refunded")
        const { id, payment, shops, sk } = yield* paidMerchant
        const refund = yield* refunded(sk, id, 30)
        const before = yield* balance(sk)
        assert.strictEqual(before.balance.frozen, 0)

        yield* step("the operator's chargeback: only what remains frozen, the fee once")
        const opened = yield* operatorChargeback(id, "cb-late-1")
        assert.strictEqual(opened.status, 201, JSON.stringify(opened.body))
        const remainingUsd = minus(100, refund.amountUsd)
        assert.deepInclude(opened.body, {
          kind: "chargeback",
          status: "open",
          transactionId: id,
          amount: minus(payment.amountLocal, 30),
          currency: payment.currencyLocal,
          amountUsd: remainingUsd,
          feeUsd: 15,
          reason: "fraudulent"
        })
        yield* step("the chargeback replayed by its key")
        const replay = yield* operatorChargeback(id, "cb-late-1")
        assert.strictEqual(replay.status, 201)
        assert.strictEqual(replay.headers.get("idempotent-replayed"), "true")
        assert.deepStrictEqual(replay.body, opened.body)

        assert.strictEqual((yield* call("GET", `/api/v1/payments/${id}`, { bearer: sk })).body.status, "chargeback")
        assert.deepStrictEqual((yield* chargebacksOf(sk, id)).map((c) => c.id), [opened.body.id])
        yield* step("the shop's balance after it: what remained and the fee, nothing more")
        const after = yield* balance(sk)
        assert.strictEqual(after.balance.frozen, remainingUsd)
        assert.strictEqual(after.feeSummary.chargebackFees, 15)
        // The shop's money beside the frozen fell by what remained of the payment and the fee, nothing
        // more; its net position (frozen money counted) by the fee alone.
        assert.strictEqual(Money.toText(BigDecimal.subtract(spendable(before), spendable(after))), Money.toText(BigDecimal.sum(d(remainingUsd), d(15))))
        assert.strictEqual(Money.toText(BigDecimal.subtract(d(before.feeSummary.netBalance), d(after.feeSummary.netBalance))), "15")

        yield* step("one balanced chargeback entry, and its events")
        const entries = (yield* call("GET", `/api/v1/payments/${id}/ledger-entries`, { bearer: sk })).body.data as ReadonlyArray<{
          readonly type: string
          readonly reference: string
          readonly postings: ReadonlyArray<{ readonly currency: string; readonly amount: number }>
        }>
        const chargebackEntries = entries.filter((e) => e.type === "chargeback.opened")
        assert.strictEqual(chargebackEntries.length, 1)
        assert.strictEqual(chargebackEntries[0]!.reference, opened.body.id)
        assert.strictEqual(Money.toText(chargebackEntries[0]!.postings.map((x) => d(x.amount)).reduce(BigDecimal.sum)), "0")

        const events = (yield* (yield* OutboxStore).list("sandbox", shops[0]!.id)).filter((e) => e.relatedTxId === id)
        assert.strictEqual(events.filter((e) => e.type === "chargeback.created").length, 1)
        assert.strictEqual(events.filter((e) => e.type === "claim.opened" && (e.data["data"] as { kind: string }).kind === "chargeback").length, 1)

        yield* step("a second chargeback refused")
        const second = yield* operatorChargeback(id, "cb-late-2")
        assert.strictEqual(second.status, 409)
        assert.strictEqual(second.body.error.code, "chargeback_already_opened")
        assert.strictEqual(second.body.error.details.claimId, opened.body.id)
        assert.strictEqual((yield* balance(sk)).feeSummary.chargebackFees, 15)

        yield* step("resolved won: exactly what was frozen comes back")
        // Resolvable like any chargeback: won returns exactly what was frozen.
        const won = yield* call("POST", `/admin/v1/claims/${opened.body.id}/resolve`, { bearer: adminToken, body: { outcome: "won" } })
        assert.strictEqual(won.status, 200)
        assert.strictEqual((yield* balance(sk)).balance.frozen, 0)
      })))

    it.effect("operator refusals: unknown payment, not completed, fully refunded, no admin token", () =>
      Effect.gen(function*() {
        assert.strictEqual((yield* operatorChargeback("TXN-NOPE")).status, 404)
        const { id, payment, sk } = yield* paidMerchant
        const unauthorised = yield* call("POST", `/admin/v1/payments/${id}/chargebacks`, { bearer: sk, body: {} })
        assert.strictEqual(unauthorised.status, 401)

        const pending = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "sbx_pix" } })
        const notCompleted = yield* operatorChargeback(pending.body.transactionId)
        assert.strictEqual(notCompleted.status, 422)
        assert.strictEqual(notCompleted.body.error.code, "chargeback_not_allowed")
        assert.strictEqual(notCompleted.body.error.details.status, "pending")

        // A second payment's pending net covers the first one's fees, which a full refund before settlement owes.
        yield* paid(sk)
        yield* refunded(sk, id, payment.amountLocal)
        const nothing = yield* operatorChargeback(id, undefined, {})
        assert.strictEqual(nothing.status, 422)
        assert.strictEqual(nothing.body.error.code, "chargeback_nothing_remaining")
        assert.lengthOf(yield* chargebacksOf(sk, id), 0)
        assert.strictEqual((yield* balance(sk)).feeSummary.chargebackFees, 0)
      }))

    it.effect("a sandbox merchant rehearses a late chargeback: what remains is frozen, then the simulated outcome resolves it", () =>
      Effect.gen(function*() {
        const { id, keys, payment, sk } = yield* paidMerchant
        const refund = yield* refunded(sk, id, 40)
        const live = yield* call("POST", `/api/v1/payments/${id}/simulate-chargeback`, { bearer: keys.production.secretKey, body: {} })
        assert.strictEqual(live.status, 400)
        assert.strictEqual(live.body.error.code, "simulate_sandbox_only")

        const opened = yield* call("POST", `/api/v1/payments/${id}/simulate-chargeback`, { bearer: sk, body: { reason: "rehearsal" }, headers: { "idempotency-key": "sim-1" } })
        assert.strictEqual(opened.status, 201, JSON.stringify(opened.body))
        assert.deepInclude(opened.body, { kind: "chargeback", status: "open", amount: minus(payment.amountLocal, 40), amountUsd: minus(100, refund.amountUsd), feeUsd: 15 })
        const replay = yield* call("POST", `/api/v1/payments/${id}/simulate-chargeback`, { bearer: sk, body: { reason: "rehearsal" }, headers: { "idempotency-key": "sim-1" } })
        assert.strictEqual(replay.body.id, opened.body.id)
        const again = yield* call("POST", `/api/v1/payments/${id}/simulate-chargeback`, { bearer: sk, body: {} })
        assert.strictEqual(again.status, 409)
        assert.strictEqual(again.body.error.code, "chargeback_already_opened")
        assert.strictEqual((yield* balance(sk)).balance.frozen, opened.body.amountUsd)

        const lost = yield* call("POST", `/api/v1/claims/${opened.body.id}/simulate`, { bearer: sk, body: { outcome: "lost" } })
        assert.deepInclude(lost.body, { status: "lost", resolvedBy: "sandbox" })
        const after = yield* balance(sk)
        assert.strictEqual(after.balance.frozen, 0)
        assert.strictEqual(after.feeSummary.chargebackFees, 15)

        const stranger = yield* createMerchant()
        assert.strictEqual((yield* call("POST", `/api/v1/payments/${id}/simulate-chargeback`, { bearer: stranger.keys.sandbox.secretKey, body: {} })).status, 404)
      }))
  })
})

for (const target of storeTargets("late_chargebacks")) {
  describe(`racing late chargebacks on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("concurrent operator requests with different keys open at most one chargeback, fee charged once", () =>
        Effect.gen(function*() {
          const { id, sk } = yield* paidMerchant
          const replies = yield* Effect.all(
            Array.from({ length: 8 }, (_, i) => operatorChargeback(id, `race-${i}`)),
            { concurrency: "unbounded" }
          )
          const opened = replies.filter((r) => r.status === 201)
          const refused = replies.filter((r) => r.status === 409)
          assert.strictEqual(opened.length, 1, JSON.stringify(replies.map((r) => [r.status, r.body])))
          assert.strictEqual(refused.length, 7, JSON.stringify(replies.map((r) => [r.status, r.body])))
          assert.isTrue(refused.every((r) => r.body.error.code === "chargeback_already_opened"))
          assert.lengthOf(yield* chargebacksOf(sk, id), 1)
          const after = yield* balance(sk)
          assert.strictEqual(after.balance.frozen, 100)
          assert.strictEqual(after.feeSummary.chargebackFees, 15)
        }))
    })
  })
}
