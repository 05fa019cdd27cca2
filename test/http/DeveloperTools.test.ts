/**
 * The merchant's developer tools: the key pair in use, rotating its own keys (one environment,
 * shown once, the old keys and their tokens stop at once), the request log (path without query,
 * per environment and shop), and the sandbox clock advanced once per Idempotency-Key.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { storeTargets } from "../support/Stores.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"

for (const target of storeTargets("devtools")) {
  describe(`developer tools (${target.name})`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("rotates the caller's own keys in its environment only; old keys and tokens stop working", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const old = keys.sandbox
          const inUse = yield* call("GET", "/api/v1/me/keys", { bearer: old.secretKey })
          assert.strictEqual(inUse.status, 200)
          assert.strictEqual(inUse.body.publishableKey, old.publishableKey)
          assert.strictEqual(inUse.body.secretKey, `sk_test_…${old.secretKey.slice(-4)}`)
          assert.notInclude(JSON.stringify(inUse.body), old.secretKey)
          const token = yield* call("POST", "/api/v1/auth/token", { body: { apiKey: old.publishableKey, secretKey: old.secretKey } })
          assert.strictEqual(token.status, 200)

          const publishable = yield* call("POST", "/api/v1/me/keys/rotate", { bearer: old.publishableKey })
          assert.strictEqual(publishable.status, 403)
          const unknownField = yield* call("POST", "/api/v1/me/keys/rotate", { bearer: token.body.accessToken, body: { environment: "production" } })
          assert.strictEqual(unknownField.status, 400)

          const rotated = yield* call("POST", "/api/v1/me/keys/rotate", { bearer: token.body.accessToken })
          assert.strictEqual(rotated.status, 200)
          assert.strictEqual(rotated.body.revoked, 1)
          assert.strictEqual(rotated.body.keys.environment, "sandbox")
          assert.strictEqual(rotated.body.keys.version, 2)
          assert.match(rotated.body.keys.secretKey, /^sk_test_/)

          for (const bearer of [old.secretKey, token.body.accessToken]) {
            const refused = yield* call("GET", "/api/v1/me", { bearer })
            assert.strictEqual(refused.status, 401)
          }
          const again = yield* call("POST", "/api/v1/me/keys/rotate", { bearer: token.body.accessToken })
          assert.strictEqual(again.status, 401, "the revoked credential cannot rotate twice")
          const fresh = yield* call("GET", "/api/v1/me/keys", { bearer: rotated.body.keys.secretKey })
          assert.strictEqual(fresh.body.version, 2)
          const production = yield* call("GET", "/api/v1/me", { bearer: keys.production.secretKey })
          assert.strictEqual(production.status, 200, "the other environment's keys are untouched")
        }))

      it.effect("the request log lists the shop's requests of its environment, newest first, without the query", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const other = yield* createMerchant({ name: "Other" })
          const sk = keys.sandbox.secretKey
          const listed = yield* call("GET", "/api/v1/payments?limit=3&merchantOrderId=ana@example.com", { bearer: sk })
          const missing = yield* call("GET", "/api/v1/payments/TXN-NOPE", { bearer: sk })
          yield* call("GET", "/api/v1/me", { bearer: keys.production.secretKey })
          yield* call("GET", "/api/v1/me", { bearer: other.keys.sandbox.secretKey })
          const log = yield* call("GET", "/api/v1/me/requests", { bearer: sk })
          assert.strictEqual(log.status, 200)
          const rows: Array<any> = log.body.data
          assert.deepStrictEqual(rows.map((r) => [r.method, r.path, r.status]), [["GET", "/api/v1/payments/TXN-NOPE", 404], ["GET", "/api/v1/payments", 200]])
          assert.strictEqual(rows[1].requestId, listed.headers.get("x-request-id"))
          assert.strictEqual(rows[0].requestId, missing.body.error.requestId)
          assert.notInclude(JSON.stringify(rows), "ana@example.com")
          const production = yield* call("GET", "/api/v1/me/requests", { bearer: keys.production.secretKey })
          assert.deepStrictEqual(production.body.data.map((r: any) => r.path), ["/api/v1/me"])
          // Bounded: the last 100.
          for (let i = 0; i < 105; i++) yield* call("GET", "/api/v1/me", { bearer: other.keys.sandbox.secretKey })
          yield* call("GET", "/api/v1/payments", { bearer: other.keys.sandbox.secretKey })
          const full = yield* call("GET", "/api/v1/me/requests", { bearer: other.keys.sandbox.secretKey })
          assert.strictEqual(full.body.data.length, 100)
          assert.deepStrictEqual(full.body.data.slice(0, 2).map((r: any) => r.path), ["/api/v1/payments", "/api/v1/me"], "newest first after the ring wrapped")
          assert.isTrue(full.body.data.every((r: any, i: number, all: Array<any>) => i === 0 || r.at <= all[i - 1].at), "in time order")
        }))

      it.effect("the sandbox clock advances once per Idempotency-Key", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          const advance = () => call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 3600 }, headers: { "idempotency-key": "adv-1" } })
          const first = yield* advance()
          assert.strictEqual(first.status, 200)
          const second = yield* advance()
          assert.strictEqual(second.headers.get("idempotent-replayed"), "true")
          const clock = yield* call("GET", "/api/v1/sandbox/clock", { bearer: sk })
          assert.strictEqual(clock.body.offsetSeconds, 3600)
        }))
    })
  })
}
