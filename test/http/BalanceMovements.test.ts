/**
 * `movements` of `GET /me/balance` are the journal entries that move the shop's USD pay-in
 * books: an entry that moves none of them (the payout balance's sandbox funding, a local-currency
 * funding of the pay-in balance) is not listed as a movement of 0; a settlement, which moves
 * money from pending to available and nets 0, is.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"

interface Movement {
  readonly type: string
  readonly amount: number
  readonly books: Record<string, number>
}

describe("balance movements", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("entries that move none of the shop's pay-in books are left out; a settlement's move from pending to available stays", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const ok = (reply: { status: number; body: unknown }) => assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
        ok(yield* call("POST", "/api/v1/me/payout/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 100 } }))
        ok(yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "BRL", amount: 500 } }))
        ok(yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 50 } }))
        const paid = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          headers: { "sandbox-simulate": "paid" },
          body: { amount: 100, paymentMethodId: "sbx_card", userName: "Ana Souza", userEmail: "ana@example.com" }
        })
        assert.strictEqual(paid.status, 201)
        // Completion, then past settlement and the reserve's release.
        ok(yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 1 } }))
        ok(yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 120 * 86400 } }))

        const balance = yield* call("GET", "/api/v1/me/balance", { bearer: sk })
        ok(balance)
        const movements = balance.body.movements as ReadonlyArray<Movement>
        assert.deepStrictEqual(
          movements.filter((m) => Object.values(m.books).every((amount) => amount === 0)).map((m) => m.type),
          [],
          "no movement moves nothing"
        )
        const types = movements.map((m) => m.type)
        for (const expected of ["balance.fund_sandbox", "payment.completed", "payment.settled", "reserve.released"]) assert.include(types, expected, types.join(" "))
        assert.deepStrictEqual(movements.filter((m) => m.type === "balance.fund_sandbox").map((m) => m.amount), [50])
        const settled = movements.find((m) => m.type === "payment.settled")!
        assert.strictEqual(settled.amount, 0, "a settlement nets 0 and is still listed: it moves pending to available")
        assert.isAbove(settled.books["payin_available"]!, 0)
      }))

    it.effect("pay-in movements older than 50 payout-book entries are still listed (the list is filled from older pages)", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        assert.strictEqual((yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 7 } })).status, 200)
        for (let i = 0; i < 60; i++) {
          assert.strictEqual((yield* call("POST", "/api/v1/me/payout/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 1 } })).status, 200)
        }
        const movements = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body.movements as ReadonlyArray<Movement>
        assert.deepStrictEqual(movements.map((m) => [m.type, m.amount]), [["balance.fund_sandbox", 7]])
      }))
  })
})
