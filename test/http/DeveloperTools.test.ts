/**
 * The merchant's developer tools: the key pair in use, rotating its own keys (one environment,
 * shown once, the old keys and their tokens stop at once), the request log (path without query,
 * per environment and shop), and the sandbox clock advanced once per Idempotency-Key.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "../../adapters/http/api/Api.ts"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { storeTargets } from "../support/Stores.ts"
import { adminToken, baseUrl, call, createMerchant, testHost } from "../support/Host.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

/** A client without a credential, for exchanging a key pair for a token. */
const anonymous = Effect.flatMap(baseUrl, (base) => HttpApiClient.make(Api, { baseUrl: base })).pipe(Effect.provide(FetchHttpClient.layer))

const meAs = (bearer: string) => Effect.flatMap(apiAs(bearer), (api) => api.identity.me({ responseMode: "decoded-and-response" }))

for (const target of storeTargets("devtools")) {
  describe(`developer tools (${target.name})`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("rotates the caller's own keys in its environment only; old keys and tokens stop working", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const old = keys.sandbox
          const [inUse, inUseResponse] = yield* (yield* apiAs(old.secretKey)).developers.keys({ responseMode: "decoded-and-response" })
          assert.strictEqual(inUseResponse.status, 200)
          assert.strictEqual(inUse.publishableKey, old.publishableKey)
          assert.strictEqual(inUse.secretKey, `sk_test_…${old.secretKey.slice(-4)}`)
          assert.notInclude(JSON.stringify(inUse), old.secretKey)
          const [token, tokenResponse] = yield* (yield* anonymous).auth.token({ payload: { apiKey: old.publishableKey, secretKey: old.secretKey }, responseMode: "decoded-and-response" })
          assert.strictEqual(tokenResponse.status, 200)

          const publishable = yield* refused(Effect.flatMap(apiAs(old.publishableKey), (api) => api.developers.rotateKeys({ payload: {} })))
          assert.strictEqual(httpStatus[publishable.code], 403)
          // Raw: a field the endpoint does not take, which the typed client cannot send.
          const unknownField = yield* call("POST", "/api/v1/me/keys/rotate", { bearer: token.accessToken, body: { environment: "production" } })
          assert.strictEqual(unknownField.status, 400)

          const withToken = yield* apiAs(token.accessToken)
          const [rotated, rotatedResponse] = yield* withToken.developers.rotateKeys({ payload: {}, responseMode: "decoded-and-response" })
          assert.strictEqual(rotatedResponse.status, 200)
          assert.strictEqual(rotated.revoked, 1)
          assert.strictEqual(rotated.keys.environment, "sandbox")
          assert.strictEqual(rotated.keys.version, 2)
          assert.match(rotated.keys.secretKey, /^sk_test_/)

          for (const bearer of [old.secretKey, token.accessToken]) {
            const refusal = yield* refused(meAs(bearer))
            assert.strictEqual(httpStatus[refusal.code], 401)
          }
          const again = yield* refused(withToken.developers.rotateKeys({ payload: {} }))
          assert.strictEqual(httpStatus[again.code], 401, "the revoked credential cannot rotate twice")
          const fresh = yield* (yield* apiAs(rotated.keys.secretKey)).developers.keys()
          assert.strictEqual(fresh.version, 2)
          const [, production] = yield* meAs(keys.production.secretKey)
          assert.strictEqual(production.status, 200, "the other environment's keys are untouched")
        }))

      it.effect("a rotation revokes only the calling key pair and mints one of the same scope", () =>
        Effect.gen(function*() {
          const { shops, keys } = yield* createMerchant()
          const shopId = shops[0]!.id
          const issue = (scope: "shop" | "merchant") =>
            Effect.map(call("POST", `/admin/v1/shops/${shopId}/keys`, { bearer: adminToken, body: { environment: "sandbox", scope } }), (reply) => {
              assert.strictEqual(reply.status, 201)
              return reply.body as { secretKey: string; scope: string }
            })
          const merchantWide = yield* issue("merchant")
          const otherShopKey = yield* issue("shop")
          const shopBound = keys.sandbox

          // A shop-bound key rotating itself leaves the merchant-wide key and the shop's other key working.
          const narrow = yield* (yield* apiAs(shopBound.secretKey)).developers.rotateKeys({ payload: {} })
          assert.strictEqual(narrow.revoked, 1)
          assert.strictEqual(narrow.keys.scope, "shop")
          assert.strictEqual(narrow.keys.shopId, shopId)
          for (const bearer of [merchantWide.secretKey, otherShopKey.secretKey, narrow.keys.secretKey]) {
            const [, me] = yield* meAs(bearer)
            assert.strictEqual(me.status, 200, "only the calling pair is revoked")
          }
          assert.strictEqual(httpStatus[(yield* refused(meAs(shopBound.secretKey))).code], 401)

          // A merchant-wide key rotating itself beside shop-bound ones comes back merchant-wide.
          const broad = yield* (yield* apiAs(merchantWide.secretKey)).developers.rotateKeys({ payload: {} })
          assert.strictEqual(broad.revoked, 1)
          assert.strictEqual(broad.keys.scope, "merchant")
          assert.isNull(broad.keys.shopId)
          for (const bearer of [otherShopKey.secretKey, narrow.keys.secretKey, broad.keys.secretKey]) {
            const [, me] = yield* meAs(bearer)
            assert.strictEqual(me.status, 200)
          }
          assert.strictEqual(httpStatus[(yield* refused(meAs(merchantWide.secretKey))).code], 401)
        }))

      it.effect("the request log lists the shop's requests of its environment, newest first, without the query", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const other = yield* createMerchant({ name: "Other" })
          const sk = keys.sandbox.secretKey
          const api = yield* apiAs(sk)
          const otherApi = yield* apiAs(other.keys.sandbox.secretKey)
          const [, listed] = yield* api.payments.list({ query: { limit: 3, merchantOrderId: "ana@example.com" }, responseMode: "decoded-and-response" })
          // Raw: the envelope's requestId, which the decoded ApiError does not carry.
          const missing = yield* call("GET", "/api/v1/payments/TXN-NOPE", { bearer: sk })
          yield* meAs(keys.production.secretKey)
          yield* otherApi.identity.me()
          const [log, logResponse] = yield* api.developers.requests({ responseMode: "decoded-and-response" })
          assert.strictEqual(logResponse.status, 200)
          const rows = log.data
          assert.deepStrictEqual(rows.map((r) => [r.method, r.path, r.status]), [["GET", "/api/v1/payments/TXN-NOPE", 404], ["GET", "/api/v1/payments", 200]])
          assert.strictEqual(rows[1]!.requestId, listed.headers["x-request-id"])
          assert.strictEqual(rows[0]!.requestId, missing.body.error.requestId)
          assert.notInclude(JSON.stringify(rows), "ana@example.com")
          const production = yield* (yield* apiAs(keys.production.secretKey)).developers.requests()
          assert.deepStrictEqual(production.data.map((r) => r.path), ["/api/v1/me"])
          // Bounded: the last 100.
          for (let i = 0; i < 105; i++) yield* otherApi.identity.me()
          yield* otherApi.payments.list({ query: {} })
          const full = yield* otherApi.developers.requests()
          assert.strictEqual(full.data.length, 100)
          assert.deepStrictEqual(full.data.slice(0, 2).map((r) => r.path), ["/api/v1/payments", "/api/v1/me"], "newest first after the ring wrapped")
          assert.isTrue(full.data.every((r, i, all) => i === 0 || r.at <= all[i - 1]!.at), "in time order")
        }))

      it.effect("the sandbox clock advances once per Idempotency-Key", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const api = yield* apiAs(keys.sandbox.secretKey)
          const advance = () => api.sandbox.advance({ payload: { seconds: 3600 }, headers: { "idempotency-key": "adv-1" }, responseMode: "decoded-and-response" })
          const [, first] = yield* advance()
          assert.strictEqual(first.status, 200)
          const [, second] = yield* advance()
          assert.strictEqual(second.headers["idempotent-replayed"], "true")
          const clock = yield* api.sandbox.clock({ query: {} })
          assert.strictEqual(clock.offsetSeconds, 3600)
        }))
    })
  })
}
