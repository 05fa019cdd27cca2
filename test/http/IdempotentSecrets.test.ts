/**
 * The operations that make a secret (a merchant's keys, a key rotation, a webhook endpoint and its
 * secret rotation) honour `Idempotency-Key` like every other POST: a retried (or double-clicked)
 * create makes one, a retried rotation rotates once. The replay does not show the secret again
 * (it was shown once; API secrets are stored only as hashes): it masks it.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { adminToken, call, createMerchant, testHost } from "../support/Host.ts"

describe("admin idempotency", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a merchant created twice with one key is one merchant; the replay masks its secrets", () =>
      Effect.gen(function*() {
        const body = { name: "Double Click SA", email: "ops@double.test" }
        const headers = { "idempotency-key": "create-double-click-1" }
        const first = yield* call("POST", "/admin/v1/merchants", { bearer: adminToken, body, headers })
        const second = yield* call("POST", "/admin/v1/merchants", { bearer: adminToken, body, headers })
        assert.strictEqual(first.status, 201)
        assert.strictEqual(second.status, 201)
        assert.strictEqual(second.body.merchant.id, first.body.merchant.id)
        assert.strictEqual(second.headers.get("idempotent-replayed"), "true")
        assert.match(first.body.keys.sandbox.secretKey, /^sk_test_[A-Za-z0-9_-]{20,}$/)
        assert.strictEqual(second.body.keys.sandbox.secretKey, `sk_test_…${first.body.keys.sandbox.secretKey.slice(-4)}`)
        assert.strictEqual(second.body.keys.sandbox.publishableKey, first.body.keys.sandbox.publishableKey)
        const listed = yield* call("GET", "/admin/v1/merchants?limit=100", { bearer: adminToken })
        assert.strictEqual(listed.body.data.filter((m: { name: string }) => m.name === body.name).length, 1)

        const other = yield* call("POST", "/admin/v1/merchants", { bearer: adminToken, body: { ...body, name: "Other SA" }, headers })
        assert.strictEqual(other.status, 409, "the key is bound to its first request")
        assert.strictEqual(other.body.error.code, "idempotency_key_reused")
      }))

    it.effect("a rotation retried with its key rotates once: the keys it issued keep working", () =>
      Effect.gen(function*() {
        const created = yield* call("POST", "/admin/v1/merchants", { bearer: adminToken, body: { name: "Rotor", email: "ops@rotor.test" } })
        const shopId = created.body.shops[0].id
        const headers = { "idempotency-key": "rotate-once-1" }
        const first = yield* call("POST", `/admin/v1/shops/${shopId}/rotate-keys`, { bearer: adminToken, headers })
        const second = yield* call("POST", `/admin/v1/shops/${shopId}/rotate-keys`, { bearer: adminToken, headers })
        assert.strictEqual(first.status, 200)
        assert.strictEqual(second.headers.get("idempotent-replayed"), "true")
        assert.strictEqual(second.body.keys.sandbox.keyId, first.body.keys.sandbox.keyId)
        assert.include(second.body.keys.sandbox.secretKey, "…")
        const me = yield* call("GET", "/api/v1/me", { bearer: first.body.keys.sandbox.secretKey })
        assert.strictEqual(me.status, 200, "the first rotation's keys were not rotated away by the retry")
      }))

    it.effect("a webhook endpoint registered twice with one key is one endpoint; a secret rotation retried rotates once", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const sk = keys.sandbox.secretKey
        const body = { url: "https://hooks.example.com/once", events: ["payment.completed"] }
        const headers = { "idempotency-key": "webhook-once-1" }
        const first = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body, headers })
        const second = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body, headers })
        assert.strictEqual(first.status, 201)
        assert.strictEqual(second.body.id, first.body.id)
        assert.strictEqual(second.headers.get("idempotent-replayed"), "true")
        assert.match(first.body.secret, /^whsec_/)
        assert.strictEqual(second.body.secret, `whsec_…${first.body.secret.slice(-4)}`)
        const listed = yield* call("GET", "/api/v1/webhooks", { bearer: sk })
        assert.strictEqual(listed.body.data.length, 1)

        const rotateHeaders = { "idempotency-key": "rotate-secret-once-1" }
        const rotated = yield* call("POST", `/api/v1/webhooks/${first.body.id}/rotate-secret`, { bearer: sk, headers: rotateHeaders })
        const again = yield* call("POST", `/api/v1/webhooks/${first.body.id}/rotate-secret`, { bearer: sk, headers: rotateHeaders })
        assert.strictEqual(rotated.status, 200)
        assert.notStrictEqual(rotated.body.secret, first.body.secret)
        assert.strictEqual(again.headers.get("idempotent-replayed"), "true")
        assert.strictEqual(again.body.secret, `whsec_…${rotated.body.secret.slice(-4)}`)
        assert.strictEqual(again.body.previousSecretExpiresAt, rotated.body.previousSecretExpiresAt, "rotated once")
      }))
  })
})
