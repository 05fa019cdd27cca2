/**
 * A buyer's document number is checked for the rail's country before anything is written or
 * sent upstream, through the API as a merchant calls it and through the hosted checkout's form
 * post as the page sends it: CPF `123` on PIX is refused naming `documentId`, a valid CPF and an
 * alphanumeric CNPJ go through.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"

const buyer = { userName: "Ana Souza", userEmail: "ana@example.com" }

describe("document numbers at the edges", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("POST /payments: CPF 123 on PIX is 400 naming documentId, nothing written; valid CPF and alphanumeric CNPJ pass", () =>
      Effect.gen(function*() {
        const bearer = (yield* createMerchant()).keys.sandbox.secretKey
        const pay = (documentId: string, paymentMethodId = "sbx_pix") =>
          call("POST", "/api/v1/payments", { bearer, body: { amount: 20, paymentMethodId, documentId, merchantOrderId: `o-${documentId}`, ...buyer } })
        const refused = yield* pay("123")
        assert.strictEqual(refused.status, 400, JSON.stringify(refused.body))
        assert.strictEqual(refused.body.error.code, "invalid_request")
        assert.deepStrictEqual(refused.body.error.details.issues.map((i: { path: string }) => i.path), ["documentId"])
        assert.notInclude(JSON.stringify(refused.body), "\"123\"")
        assert.strictEqual((yield* pay("529.982.247-24")).status, 400, "a wrong check digit")
        assert.strictEqual((yield* pay("BOXW310820HNERXN08", "sbx_spei")).status, 400, "a CURP with a wrong check digit")
        const listed = yield* call("GET", "/api/v1/payments", { bearer })
        assert.strictEqual(listed.body.pagination.total, 0, "nothing was written, so nothing went upstream")

        assert.strictEqual((yield* pay("529.982.247-25")).status, 201)
        assert.strictEqual((yield* pay("12.ABC.345/01DE-35")).status, 201)
        assert.strictEqual((yield* pay("BOXW310820HNERXN09", "sbx_spei")).status, 201)
      }))

    it.effect("hosted checkout: the page's form post with CPF 123 is 422 missing_required_fields naming documentId, no payment", () =>
      Effect.gen(function*() {
        const bearer = (yield* createMerchant()).keys.sandbox.secretKey
        const created = yield* call("POST", "/api/v1/checkout/sessions", { bearer, body: { amount: 30, country: "BR", merchantOrderId: "o-hosted" } })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const select = (documentId: string) =>
          call("POST", `/checkout/${encodeURIComponent(created.body.token)}/select`, {
            body: { paymentMethodId: "sbx_pix", customer: { fullName: "Ana Souza", email: "ana@example.com", documentId } }
          })
        const refused = yield* select("123")
        assert.strictEqual(refused.status, 422, JSON.stringify(refused.body))
        assert.strictEqual(refused.body.error.code, "missing_required_fields")
        assert.deepStrictEqual(refused.body.error.details.missingFields, ["documentId"])
        assert.strictEqual((yield* call("GET", "/api/v1/payments", { bearer })).body.pagination.total, 0)
        const picked = yield* select("529.982.247-25")
        assert.strictEqual(picked.status, 200, JSON.stringify(picked.body))
      }))
  })
})
