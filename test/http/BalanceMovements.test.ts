/**
 * `movements` of `GET /me/balance` are the journal entries that move the shop's USD pay-in
 * books: an entry that moves none of them (the payout balance's sandbox funding, a local-currency
 * funding of the pay-in balance) is not listed as a movement of 0; a settlement, which moves
 * money from pending to available and nets 0, is. Requests go through the typed client
 * (TypedApi.ts): `movements` is read as the API declares it.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { createMerchant, testHost } from "../support/Host.ts"
import { apiAs } from "../support/TypedApi.ts"

const d = Money.decimal

/** With the raw response beside the decoded answer, for its status. */
const withResponse = { responseMode: "decoded-and-response" } as const

/** The request answered 200; answers its decoded value. */
const ok = <A>([value, response]: readonly [A, { readonly status: number }]) => {
  assert.strictEqual(response.status, 200, JSON.stringify(value))
  return value
}

describe("balance movements", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("entries that move none of the shop's pay-in books are left out; a settlement's move from pending to available stays", () =>
      Effect.gen(function*() {
        const api = yield* apiAs((yield* createMerchant()).keys.sandbox.secretKey)
        ok(yield* api.payouts.fundSandbox({ payload: { currency: "USD", amount: d("100") }, ...withResponse }))
        ok(yield* api.identity.fundSandbox({ payload: { currency: "BRL", amount: d("500") }, ...withResponse }))
        ok(yield* api.identity.fundSandbox({ payload: { currency: "USD", amount: d("50") }, ...withResponse }))
        const [, paid] = yield* api.payments.create({
          payload: { amount: d("100"), paymentMethodId: "sbx_card", userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com") },
          headers: { "sandbox-simulate": "paid" },
          ...withResponse
        })
        assert.strictEqual(paid.status, 201)
        // Completion, then past settlement and the reserve's release.
        ok(yield* api.sandbox.advance({ payload: { seconds: 1 }, headers: {}, ...withResponse }))
        ok(yield* api.sandbox.advance({ payload: { seconds: 120 * 86400 }, headers: {}, ...withResponse }))

        const movements = ok(yield* api.identity.balance({ query: {}, ...withResponse })).movements
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
        const api = yield* apiAs((yield* createMerchant()).keys.sandbox.secretKey)
        ok(yield* api.identity.fundSandbox({ payload: { currency: "USD", amount: d("7") }, ...withResponse }))
        for (let i = 0; i < 60; i++) {
          ok(yield* api.payouts.fundSandbox({ payload: { currency: "USD", amount: d("1") }, ...withResponse }))
        }
        const movements = (yield* api.identity.balance({ query: {} })).movements
        assert.deepStrictEqual(movements.map((m) => [m.type, m.amount]), [["balance.fund_sandbox", 7]])
      }))
  })
})
