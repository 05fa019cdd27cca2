/**
 * Currency codes against the maintained ISO 4217 table: a code in current use that has no FX
 * rate (KPW) is 422 `fx_unavailable` wherever money is named in it, a code that is not ISO 4217
 * at all is 400; an operator's rate makes the currency usable. The USD entry of the payout
 * currencies names its representative country (spec 2.11). The generated table equals the
 * `currency-codes` package it was generated from. Requests go through the typed client
 * (TypedApi.ts); the codes are plain strings to it, so the host's own checks answer.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { iso4217Digits } from "../../core/Iso4217.ts"
import { iso4217Codes } from "../../tools/iso4217Source.ts"
import { adminToken, createMerchant, testHost } from "../support/Host.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

/** With the raw response beside the decoded answer, for its status. */
const withResponse = { responseMode: "decoded-and-response" } as const

describe("ISO 4217", () => {
  it("core/Iso4217.ts is the currency-codes table (regenerate with npx tsx tools/iso4217.ts)", () => {
    assert.deepStrictEqual(iso4217Digits, Object.fromEntries(iso4217Codes().map((c) => [c.code, c.digits])))
    assert.strictEqual(iso4217Digits["CLP"], 0)
    assert.strictEqual(iso4217Digits["KWD"], 3)
    assert.notProperty(iso4217Digits, "XTS")
  })
})

describe("currencies through the host", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a current ISO 4217 code without a rate is 422 fx_unavailable; a code that is not ISO 4217 is 400", () =>
      Effect.gen(function*() {
        const api = yield* apiAs((yield* createMerchant()).keys.sandbox.secretKey)
        const pay = (currency: string) =>
          refused(api.payments.create({
            payload: { amount: Money.decimal("100"), currency, paymentMethodId: "sbx_pix", userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com") },
            headers: { "idempotency-key": `pay-${currency}` }
          }))
        const kpw = yield* pay("KPW")
        assert.strictEqual(httpStatus[kpw.code], 422)
        assert.strictEqual(kpw.code, "fx_unavailable")
        assert.deepStrictEqual(kpw.details, { currency: "KPW" })
        const unknown = yield* pay("ABC")
        assert.strictEqual(httpStatus[unknown.code], 400)
        assert.strictEqual(unknown.code, "invalid_request")

        const funds = {
          "/api/v1/me/balance/fund-sandbox": (currency: string) => api.identity.fundSandbox({ payload: { currency, amount: Money.decimal("10") }, ...withResponse }),
          "/api/v1/me/payout/fund-sandbox": (currency: string) => api.payouts.fundSandbox({ payload: { currency, amount: Money.decimal("10") }, ...withResponse })
        }
        for (const [path, fund] of Object.entries(funds)) {
          const refusal = yield* refused(fund("KPW"))
          assert.deepStrictEqual([httpStatus[refusal.code], refusal.code], [422, "fx_unavailable"], path)
          assert.strictEqual(httpStatus[(yield* refused(fund("ABC"))).code], 400, path)
        }
        const balance = yield* api.identity.balance({ query: {} })
        assert.isFalse(JSON.stringify(balance).includes("KPW"), "a refused funding left no balance behind")

        const [, rate] = yield* (yield* apiAs(adminToken)).admin.putFxRate({ params: { currency: "KPW" }, payload: { perUsd: 900 }, ...withResponse })
        assert.strictEqual(rate.status, 200)
        const [funded, fundedReply] = yield* funds["/api/v1/me/balance/fund-sandbox"]("KPW")
        assert.strictEqual(fundedReply.status, 200)
        assert.strictEqual(funded.currency, "KPW")
      }))

    it.effect("the USD payout currency names its representative country", () =>
      Effect.gen(function*() {
        const api = yield* apiAs((yield* createMerchant()).keys.sandbox.secretKey)
        const [listed, reply] = yield* api.payouts.currencies({ ...withResponse })
        assert.strictEqual(reply.status, 200)
        const [first, ...rest] = listed.currencies
        assert.deepInclude(first!, { currency: "USD", country: "US" })
        for (const c of rest) assert.isString(c.country, c.currency)
      }))
  })
})
