/**
 * A price in the rail's currency is charged as priced, with no round trip through USD: on
 * `POST /payments`, on a one-shot checkout session and on the hosted page of a selector session.
 * Only the USD headline carries the FX markup (rounded down: what the merchant receives).
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { formatAmount } from "../../adapters/http/server/pages/Html.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"
import { apiAs } from "../support/TypedApi.ts"

const d = (n: number | string) => Money.decimal(String(n))
const buyer = { firstName: Redacted.make("Ana"), lastName: Redacted.make("Souza"), email: Redacted.make("ana@example.com"), phone: Redacted.make("+5511987654321"), documentId: Redacted.make("52998224725") }

describe("presentment in the rail's currency", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a price in the rail's currency is charged as priced; the USD headline carries the markup, rounded down", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const api = yield* apiAs(m.keys.sandbox.secretKey)
        const created = yield* api.payments.create({ payload: { amount: d("250.50"), currency: "BRL", paymentMethodId: "sbx_pix" }, headers: {} })
        assert.strictEqual(created.amountLocal, 250.5)
        assert.strictEqual(created.currencyLocal, "BRL")
        // 250.50 / 5.40 x 0.98 = 45.4611 USD, rounded down: what the merchant receives.
        assert.strictEqual(created.amount, 45.46)

        const oneShot = yield* api.checkout.createSession({ payload: { amount: d("300"), currency: "MXN", paymentMethodId: "sbx_spei", customer: { firstName: Redacted.make("Ana") } }, headers: {} })
        assert.strictEqual(oneShot.status, "awaiting_details")
        assert.strictEqual(oneShot.amountLocal, 300)
        assert.strictEqual(oneShot.currencyLocal, "MXN")

        const selector = yield* api.checkout.createSession({ payload: { amount: d("300"), currency: "MXN", country: "MX", customer: buyer }, headers: {} })
        const page = yield* call("GET", `/checkout/${encodeURIComponent(selector.token)}`)
        assert.strictEqual(page.status, 200)
        assert.include(page.body as string, formatAmount(d("300"), "MXN"))
        assert.notInclude(page.body as string, "299.84")
      }))
  })
})
