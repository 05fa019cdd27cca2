/**
 * The body schemas decode buyer data to `Redacted`; an `Idempotency-Key` binds to a hash of the
 * body encoded again, which must see the values, not `<redacted>`: the same buyer replays, and a
 * key reused with another buyer (only the email, or only the document, differing) is refused.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"

const buyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }

describe("idempotency keys over buyer data", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    for (const [operation, path, body] of [
      ["POST /payments", "/api/v1/payments", { amount: 20, paymentMethodId: "sbx_pix", ...buyer }],
      ["POST /checkout/sessions", "/api/v1/checkout/sessions", { amount: 20, paymentMethodId: "sbx_pix", ...buyer }]
    ] as const) {
      it.effect(`${operation}: the same buyer replays; another email or document under the key is refused`, () =>
        Effect.gen(function*() {
          const bearer = (yield* createMerchant()).keys.sandbox.secretKey
          const headers = { "idempotency-key": `buyer-${operation}` }
          const first = yield* call("POST", path, { bearer, headers, body })
          assert.strictEqual(first.status, 201, JSON.stringify(first.body))
          const again = yield* call("POST", path, { bearer, headers, body })
          assert.strictEqual(again.status, 201, JSON.stringify(again.body))
          assert.strictEqual(again.headers.get("idempotent-replayed"), "true")
          for (const other of [{ ...body, userEmail: "bia@example.com" }, { ...body, documentId: "39053344705" }]) {
            const reused = yield* call("POST", path, { bearer, headers, body: other })
            assert.strictEqual(reused.status, 409, JSON.stringify(reused.body))
            assert.strictEqual(reused.body.error.code, "idempotency_key_reused")
          }
        }))
    }
  })
})
