/**
 * Spec section 5 through the API, as a merchant calls it: key pairs, tokens, refresh rotation and
 * reuse detection, raw keys, publishable keys, and key rotation revoking everything minted before.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, createMerchant, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

for (const target of storeTargets("auth")) {
  describe(`auth on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("a key pair becomes a token pair that works on business endpoints", () =>
        Effect.gen(function*() {
          const { keys, merchant } = yield* createMerchant()
          const reply = yield* call("POST", "/api/v1/auth/token", {
            body: { apiKey: keys.sandbox.publishableKey, secretKey: keys.sandbox.secretKey }
          })
          assert.strictEqual(reply.status, 200)
          assert.strictEqual(reply.body.tokenType, "Bearer")
          assert.strictEqual(reply.body.expiresIn, 3600)
          assert.strictEqual(reply.body.refreshExpiresIn, 2592000)
          assert.strictEqual(reply.body.environment, "sandbox")
          assert.deepStrictEqual(reply.body.merchant, merchant)
          assert.match(reply.body.refreshToken, /^rt_test_/)

          const me = yield* call("GET", "/api/v1/me", { bearer: reply.body.accessToken })
          assert.strictEqual(me.status, 200)
          assert.strictEqual(me.body.id, merchant.id)
          assert.strictEqual(me.body.environment, "sandbox")

          const live = yield* call("POST", "/api/v1/auth/token", {
            body: { apiKey: keys.production.publishableKey, secretKey: keys.production.secretKey }
          })
          assert.strictEqual(live.status, 200)
          assert.strictEqual(live.body.environment, "production")
          const liveMe = yield* call("GET", "/api/v1/me", { bearer: live.body.accessToken })
          assert.strictEqual(liveMe.body.environment, "production")
        }))

      it.effect("a cross-environment or mismatched pair is refused with 401", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const other = yield* createMerchant({ name: "Other" })
          const cases = [
            { apiKey: keys.sandbox.publishableKey, secretKey: keys.production.secretKey },
            { apiKey: keys.production.publishableKey, secretKey: keys.sandbox.secretKey },
            { apiKey: keys.sandbox.publishableKey, secretKey: other.keys.sandbox.secretKey },
            { apiKey: keys.sandbox.secretKey, secretKey: keys.sandbox.secretKey }
          ]
          for (const body of cases) {
            const reply = yield* call("POST", "/api/v1/auth/token", { body })
            assert.strictEqual(reply.status, 401)
            assert.strictEqual(reply.body.error.code, "authentication_failed")
          }
        }))

      it.effect("refresh rotates the pair; reusing a used refresh token revokes its whole family", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const first = yield* call("POST", "/api/v1/auth/token", {
            body: { apiKey: keys.sandbox.publishableKey, secretKey: keys.sandbox.secretKey }
          })
          const second = yield* call("POST", "/api/v1/auth/refresh", { body: { refreshToken: first.body.refreshToken } })
          assert.strictEqual(second.status, 200)
          assert.notStrictEqual(second.body.refreshToken, first.body.refreshToken)
          assert.strictEqual(second.body.refreshExpiresIn, 2592000)
          assert.strictEqual((yield* call("GET", "/api/v1/me", { bearer: second.body.accessToken })).status, 200)

          const reuse = yield* call("POST", "/api/v1/auth/refresh", { body: { refreshToken: first.body.refreshToken } })
          assert.strictEqual(reuse.status, 401)
          assert.strictEqual(reuse.body.error.code, "authentication_failed")
          // The theft signal revoked the family, so the legitimate newer token is dead too.
          const after = yield* call("POST", "/api/v1/auth/refresh", { body: { refreshToken: second.body.refreshToken } })
          assert.strictEqual(after.status, 401)
          // And so are the family's access tokens, at once (not after their hour).
          for (const token of [first.body.accessToken, second.body.accessToken]) {
            const me = yield* call("GET", "/api/v1/me", { bearer: token })
            assert.strictEqual(me.status, 401)
            assert.strictEqual(me.body.error.code, "token_revoked")
          }
          // Another login of the same key pair is not affected.
          const other = yield* call("POST", "/api/v1/auth/token", {
            body: { apiKey: keys.sandbox.publishableKey, secretKey: keys.sandbox.secretKey }
          })
          assert.strictEqual((yield* call("GET", "/api/v1/me", { bearer: other.body.accessToken })).status, 200)
          const unknown = yield* call("POST", "/api/v1/auth/refresh", { body: { refreshToken: "rt_test_nope" } })
          assert.strictEqual(unknown.status, 401)
        }))

      it.effect("a refresh token on a business endpoint gives 401 invalid_api_key", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const pair = yield* call("POST", "/api/v1/auth/token", {
            body: { apiKey: keys.sandbox.publishableKey, secretKey: keys.sandbox.secretKey }
          })
          const reply = yield* call("GET", "/api/v1/me", { bearer: pair.body.refreshToken })
          assert.strictEqual(reply.status, 401)
          assert.strictEqual(reply.body.error.code, "invalid_api_key")
        }))

      it.effect("raw secret keys work as bearer; publishable keys only on any-key endpoints", () =>
        Effect.gen(function*() {
          const { keys, merchant } = yield* createMerchant()
          const me = yield* call("GET", "/api/v1/me", { bearer: keys.sandbox.secretKey })
          assert.strictEqual(me.status, 200)
          assert.strictEqual(me.body.id, merchant.id)

          const ping = yield* call("GET", "/api/v1/ping", { bearer: keys.sandbox.secretKey })
          assert.strictEqual(ping.body.keyKind, "secret")
          assert.strictEqual(ping.body.keyId, `sk_test_…${keys.sandbox.secretKey.slice(-4)}`)
          assert.notInclude(JSON.stringify(ping.body), keys.sandbox.secretKey)

          const publishablePing = yield* call("GET", "/api/v1/ping", { bearer: keys.production.publishableKey })
          assert.strictEqual(publishablePing.status, 200)
          assert.strictEqual(publishablePing.body.keyKind, "publishable")
          assert.strictEqual(publishablePing.body.environment, "production")

          const refused = yield* call("GET", "/api/v1/me", { bearer: keys.sandbox.publishableKey })
          assert.strictEqual(refused.status, 403)
          assert.strictEqual(refused.body.error.code, "secret_key_required")

          const bogus = yield* call("GET", "/api/v1/me", { bearer: "sk_test_doesnotexist" })
          assert.strictEqual(bogus.status, 401)
          assert.strictEqual(bogus.body.error.code, "invalid_api_key")
          const garbage = yield* call("GET", "/api/v1/me", { bearer: "not-a-token" })
          assert.strictEqual(garbage.body.error.code, "invalid_api_key")
          const none = yield* call("GET", "/api/v1/me")
          assert.strictEqual(none.status, 401)
          assert.strictEqual(none.body.error.code, "missing_authorization")
        }))

      it.effect("rotation bumps the version and revokes every key and token minted before it", () =>
        Effect.gen(function*() {
          const { keys, shops } = yield* createMerchant()
          const pair = yield* call("POST", "/api/v1/auth/token", {
            body: { apiKey: keys.sandbox.publishableKey, secretKey: keys.sandbox.secretKey }
          })
          const rotated = yield* call("POST", `/admin/v1/shops/${shops[0]!.id}/rotate-keys`, { bearer: "test-admin-token" })
          assert.strictEqual(rotated.status, 200)
          assert.strictEqual(rotated.body.revoked, 2)
          assert.strictEqual(rotated.body.keys.sandbox.version, 2)
          assert.strictEqual(rotated.body.keys.production.version, 2)

          for (const bearer of [pair.body.accessToken, keys.sandbox.secretKey, keys.sandbox.publishableKey]) {
            const reply = yield* call("GET", "/api/v1/ping", { bearer })
            assert.strictEqual(reply.status, 401)
            assert.strictEqual(reply.body.error.code, "token_revoked")
          }
          const refresh = yield* call("POST", "/api/v1/auth/refresh", { body: { refreshToken: pair.body.refreshToken } })
          assert.strictEqual(refresh.status, 401)
          const oldPair = yield* call("POST", "/api/v1/auth/token", {
            body: { apiKey: keys.sandbox.publishableKey, secretKey: keys.sandbox.secretKey }
          })
          assert.strictEqual(oldPair.status, 401)

          const fresh = yield* call("POST", "/api/v1/auth/token", {
            body: { apiKey: rotated.body.keys.sandbox.publishableKey, secretKey: rotated.body.keys.sandbox.secretKey }
          })
          assert.strictEqual(fresh.status, 200)
          assert.strictEqual((yield* call("GET", "/api/v1/me", { bearer: fresh.body.accessToken })).status, 200)
        }))
    })
  })
}
