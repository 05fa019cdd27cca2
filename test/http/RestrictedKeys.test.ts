/**
 * Restricted API keys over HTTP, on every store: a full secret key creates keys limited to some
 * operations; each calls what its permissions cover and gets 403 permission_denied (with the
 * permission needed) for the rest, before anything is done; a restricted key manages no keys and
 * mints no token; revoking one ends it at once; bad permissions are refused by field.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { storeTargets } from "../support/Stores.ts"
import { adminToken, call, createMerchant, testHost } from "../support/Host.ts"

for (const target of storeTargets("restricted")) {
  describe(`restricted keys (${target.name})`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("a key with payments:write pays and reads payments, and is refused refunds, webhooks and keys by the permission they need", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          const created = yield* call("POST", "/api/v1/me/restricted-keys", { bearer: sk, body: { name: "checkout server", permissions: ["payments:write"] } })
          assert.strictEqual(created.status, 201, JSON.stringify(created.body))
          const rk = created.body.secretKey as string
          assert.match(rk, /^rk_test_[0-9A-Za-z]{30,}$/)
          assert.deepInclude(created.body, { name: "checkout server", environment: "sandbox", permissions: ["payments:write"], revokedAt: null })

          const paid = yield* call("POST", "/api/v1/payments", { bearer: rk, body: { amount: 10, paymentMethodId: "sbx_pix" } })
          assert.strictEqual(paid.status, 201, JSON.stringify(paid.body))
          const id = paid.body.transactionId as string
          assert.strictEqual((yield* call("GET", `/api/v1/payments/${id}`, { bearer: rk })).status, 200, "write includes read")
          assert.strictEqual((yield* call("GET", "/api/v1/me", { bearer: rk })).status, 200, "any key answers who it is")
          assert.strictEqual((yield* call("GET", "/api/v1/payment-methods", { bearer: rk })).status, 200)

          const refund = yield* call("POST", `/api/v1/payments/${id}/refund`, { bearer: rk, body: {} })
          assert.deepStrictEqual([refund.status, refund.body.error.code, refund.body.error.details], [403, "permission_denied", { needed: "refunds:write" }])
          assert.include(refund.body.error.message, "rk_test_…")
          assert.notInclude(JSON.stringify(refund.body), rk)
          assert.strictEqual((yield* call("GET", `/api/v1/payments/${id}/claims`, { bearer: sk })).body.data.length, 0, "nothing was done")
          const hooks = yield* call("GET", "/api/v1/webhooks", { bearer: rk })
          assert.deepStrictEqual([hooks.status, hooks.body.error.details], [403, { needed: "webhooks:read" }])
          for (const [method, path] of [["GET", "/api/v1/me/keys"], ["POST", "/api/v1/me/keys/rotate"], ["POST", "/api/v1/me/restricted-keys"], ["GET", "/api/v1/me/requests"]] as const) {
            const keysCall = yield* call(method, path, { bearer: rk, body: method === "POST" ? { name: "x", permissions: ["payments:read"] } : undefined })
            assert.deepStrictEqual([keysCall.status, keysCall.body.error.details], [403, { needed: "a full secret key" }], path)
          }
          const token = yield* call("POST", "/api/v1/auth/token", { body: { apiKey: keys.sandbox.publishableKey, secretKey: rk } })
          assert.deepStrictEqual([token.status, token.body.error.code], [401, "authentication_failed"])
        }))

      it.effect("a read permission reads only; the list masks secrets; revoking ends a key at once; another merchant cannot revoke it", () =>
        Effect.gen(function*() {
          const { keys, shops } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          const reader = (yield* call("POST", "/api/v1/me/restricted-keys", { bearer: sk, body: { name: "support", permissions: ["refunds:read", "payments:read"] } })).body
          const paid = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "sbx_pix" } })
          const id = paid.body.transactionId as string
          assert.strictEqual((yield* call("GET", `/api/v1/payments/${id}/claims`, { bearer: reader.secretKey })).status, 200)
          const create = yield* call("POST", "/api/v1/payments", { bearer: reader.secretKey, body: { amount: 10, paymentMethodId: "sbx_pix" } })
          assert.deepStrictEqual([create.status, create.body.error.details], [403, { needed: "payments:write" }])

          const listed = yield* call("GET", "/api/v1/me/restricted-keys", { bearer: sk })
          assert.deepStrictEqual(listed.body.data.map((k: { id: string }) => k.id), [reader.id])
          assert.match(listed.body.data[0].secretKey, /^rk_test_….{4}$/)
          assert.notInclude(JSON.stringify(listed.body), reader.secretKey)

          const other = yield* createMerchant()
          assert.strictEqual((yield* call("DELETE", `/api/v1/me/restricted-keys/${reader.id}`, { bearer: other.keys.sandbox.secretKey })).status, 404)
          assert.strictEqual((yield* call("DELETE", `/api/v1/me/restricted-keys/${reader.id}`, { bearer: keys.production.secretKey })).status, 404, "another environment's key")
          const revoked = yield* call("DELETE", `/api/v1/me/restricted-keys/${reader.id}`, { bearer: sk })
          assert.strictEqual(revoked.status, 200)
          assert.isString(revoked.body.revokedAt)
          const after = yield* call("GET", `/api/v1/payments/${id}`, { bearer: reader.secretKey })
          assert.deepStrictEqual([after.status, after.body.error.code], [401, "token_revoked"])
          assert.deepStrictEqual((yield* call("GET", "/api/v1/me/restricted-keys", { bearer: sk })).body.data, [])

          // The operator's rotation of the shop's keys revokes its restricted keys too; the new pairs keep their scope.
          const scopeBefore = (yield* call("GET", "/api/v1/me/keys", { bearer: sk })).body.scope
          const kept = (yield* call("POST", "/api/v1/me/restricted-keys", { bearer: sk, body: { name: "kept", permissions: ["events:read"] } })).body
          const rotated = yield* call("POST", `/admin/v1/shops/${shops[0]!.id}/rotate-keys`, { bearer: adminToken })
          assert.strictEqual(rotated.status, 200, JSON.stringify(rotated.body))
          assert.strictEqual((yield* call("GET", "/api/v1/events", { bearer: kept.secretKey })).status, 401)
          const fresh = rotated.body.keys.sandbox.secretKey as string
          assert.strictEqual((yield* call("GET", "/api/v1/me/keys", { bearer: fresh })).body.scope, scopeBefore)
        }))

      it.effect("refuses an unknown permission, none, and a missing name, by field; nothing is created", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          for (const body of [{ name: "x", permissions: ["payments:delete"] }, { name: "x", permissions: [] }, { permissions: ["payments:read"] }, { name: "x", permissions: ["keys:write"] }]) {
            const refused = yield* call("POST", "/api/v1/me/restricted-keys", { bearer: sk, body })
            assert.deepStrictEqual([refused.status, refused.body.error.code], [400, "invalid_request"], JSON.stringify(body))
          }
          assert.deepStrictEqual((yield* call("GET", "/api/v1/me/restricted-keys", { bearer: sk })).body.data, [])
        }))
    })
  })
}
