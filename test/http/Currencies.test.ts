/**
 * Currency codes against the maintained ISO 4217 table: a code in current use that has no FX
 * rate (KPW) is 422 `fx_unavailable` wherever money is named in it, a code that is not ISO 4217
 * at all is 400; an operator's rate makes the currency usable. The USD entry of the payout
 * currencies names its representative country (spec 2.11). The generated table equals the
 * `currency-codes` package it was generated from.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { iso4217Digits } from "../../core/Iso4217.ts"
import { iso4217Codes } from "../../tools/iso4217Source.ts"
import { adminToken, call, createMerchant, testHost } from "../support/Host.ts"

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
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const pay = (currency: string) =>
          call("POST", "/api/v1/payments", {
            bearer: sk,
            headers: { "idempotency-key": `pay-${currency}` },
            body: { amount: 100, currency, paymentMethodId: "sbx_pix", userName: "Ana Souza", userEmail: "ana@example.com" }
          })
        const kpw = yield* pay("KPW")
        assert.strictEqual(kpw.status, 422)
        assert.strictEqual(kpw.body.error.code, "fx_unavailable")
        assert.deepStrictEqual(kpw.body.error.details, { currency: "KPW" })
        const unknown = yield* pay("ABC")
        assert.strictEqual(unknown.status, 400)
        assert.strictEqual(unknown.body.error.code, "invalid_request")

        const fund = (path: string, currency: string) => call("POST", path, { bearer: sk, body: { currency, amount: 10 } })
        for (const path of ["/api/v1/me/balance/fund-sandbox", "/api/v1/me/payout/fund-sandbox"]) {
          const refused = yield* fund(path, "KPW")
          assert.deepStrictEqual([refused.status, refused.body.error.code], [422, "fx_unavailable"], path)
          assert.strictEqual((yield* fund(path, "ABC")).status, 400, path)
        }
        const balance = yield* call("GET", "/api/v1/me/balance", { bearer: sk })
        assert.isFalse(JSON.stringify(balance.body).includes("KPW"), "a refused funding left no balance behind")

        const rate = yield* call("PUT", "/admin/v1/fx-rates/KPW", { bearer: adminToken, body: { perUsd: 900 } })
        assert.strictEqual(rate.status, 200)
        const funded = yield* fund("/api/v1/me/balance/fund-sandbox", "KPW")
        assert.strictEqual(funded.status, 200)
        assert.strictEqual(funded.body.currency, "KPW")
      }))

    it.effect("the USD payout currency names its representative country", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const listed = yield* call("GET", "/api/v1/me/payout/currencies", { bearer: sk })
        assert.strictEqual(listed.status, 200)
        const [first, ...rest] = listed.body.currencies as ReadonlyArray<{ currency: string; country: string | null }>
        assert.deepInclude(first!, { currency: "USD", country: "US" })
        for (const c of rest) assert.isString(c.country, c.currency)
      }))
  })
})
