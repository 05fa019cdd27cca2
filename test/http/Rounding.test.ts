/**
 * Rounding in the platform's favour, as a merchant meets it through the API: a refund's USD share
 * is rounded up and one that would book nothing is refused; a local-to-USD swap is rounded down
 * and one worth less than a cent is refused.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { createMerchant, eventually, testHost } from "../support/Host.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

const d = (n: number | string) => Money.decimal(String(n))

const paid = (amount: string, currency?: string) =>
  Effect.gen(function*() {
    const m = yield* createMerchant()
    const api = yield* apiAs(m.keys.sandbox.secretKey)
    const created = yield* api.payments.create({
      payload: { amount: d(amount), ...(currency === undefined ? {} : { currency }), paymentMethodId: "sbx_pix" },
      headers: { "sandbox-simulate": "paid" }
    })
    const p = yield* eventually(api.payments.get({ params: { id: created.transactionId } }), (p) => p.status === "completed")
    return { m, api, p, id: created.transactionId }
  })

describe("rounding in the platform's favour", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a refund worth less than a cent takes a cent from the balance, never nothing", () =>
      Effect.gen(function*() {
        const { api, id } = yield* paid("100")
        const before = yield* api.identity.balance({ query: {} })
        const tiny = yield* api.claims.refund({ params: { id }, payload: { amount: d("0.01") }, headers: {} })
        // 0.01 BRL of a 100 USD payment is 0.0018 USD pro rata: the merchant pays it, so a cent.
        assert.strictEqual(tiny.amountUsd, 0.01)
        yield* eventually(api.claims.get({ params: { id: tiny.refundId } }), (c) => c.status === "approved")
        const after = yield* api.identity.balance({ query: {} })
        assert.strictEqual(Money.toText(BigDecimal.subtract(d(before.feeSummary.netBalance), d(after.feeSummary.netBalance))), "0.01")
      }))

    it.effect("a refund whose USD share would be nothing is refused with 422 amount_rounds_to_zero, and nothing is sent", () =>
      Effect.gen(function*() {
        const { api, id, p } = yield* paid("2")
        // A second payment whose pending money covers the fees a refund in full leaves owed.
        const cover = yield* api.payments.create({ payload: { amount: d("100"), paymentMethodId: "sbx_pix" }, headers: { "sandbox-simulate": "paid" } })
        yield* eventually(api.payments.get({ params: { id: cover.transactionId } }), (p) => p.status === "completed")
        const local = d(p.amountLocal)
        // All but the last centavo: its share rounds up to the whole headline.
        const most = yield* api.claims.refund({ params: { id }, payload: { amount: BigDecimal.subtract(local, d("0.01")) }, headers: {} })
        assert.strictEqual(most.amountUsd, 2)
        const last = yield* refused(api.claims.refund({ params: { id }, payload: {}, headers: {} }))
        assert.strictEqual(httpStatus[last.code], 422)
        assert.strictEqual(last.code, "amount_rounds_to_zero")
        assert.deepStrictEqual(last.details, { amount: 0.01, currency: "BRL", bookedCurrency: "USD" })
        const claims = (yield* api.payments.get({ params: { id } }))
        assert.strictEqual(claims.status, "completed")
      }))

    it.effect("a local-to-USD swap rounds down, and one worth less than a cent is refused (quote and swap)", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const api = yield* apiAs(m.keys.sandbox.secretKey)
        yield* api.identity.fundSandbox({ payload: { currency: "BRL", amount: d("10") } })
        // 0.11 BRL / 5.40 x 0.98 = 0.01996 USD: the merchant receives a cent, not two.
        const swap = yield* api.identity.swap({ payload: { fromCurrency: "BRL", amount: d("0.11") }, headers: {} })
        assert.deepInclude(swap.swap, { amount: 0.11, amountUsd: 0.01 })
        // 0.03 BRL is 0.0054 USD: nothing would be booked for it.
        const swapZero = yield* refused(api.identity.swap({ payload: { fromCurrency: "BRL", amount: d("0.03") }, headers: {} }))
        const quoteZero = yield* refused(api.identity.swapQuote({ query: { from: "BRL", amount: 0.03 } }))
        for (const zero of [swapZero, quoteZero]) {
          assert.strictEqual(httpStatus[zero.code], 422)
          assert.strictEqual(zero.code, "amount_rounds_to_zero")
          assert.deepStrictEqual(zero.details, { amount: 0.03, currency: "BRL", bookedCurrency: "USD" })
        }
        const balance = yield* api.identity.balance({ query: {} })
        assert.strictEqual(balance.balance.available, 0.01)
        assert.deepStrictEqual(balance.balances, [{ currency: "BRL", available: 9.89, pending: 0, reserved: 0 }])
      }))
  })
})
