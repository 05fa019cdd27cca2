/**
 * What every response shares (request id, error envelope, 404s, malformed input), the admin API,
 * /ping and /me field by field, and the OpenAPI document checked by an independent validator.
 */
import { Validator } from "@seriousme/openapi-schema-validator"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { adminToken, baseUrl, call, createMerchant, testHost } from "../support/Host.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

// What every answer shares (request ids, the envelope, unknown routes, malformed bodies) is read raw
// with `call`; the endpoints' own answers through the typed client.

/** The refusal of creating a merchant with `bearer` as the admin token. */
const createAs = (bearer: string) =>
  refused(Effect.flatMap(apiAs(bearer), (api) => api.admin.createMerchant({ payload: { name: "x", email: "x@y.z" }, headers: {} })))

describe("platform", () => {
  layer(testHost(MemoryStore.layer), { excludeTestServices: true })((it) => {
    it.effect("every response carries X-Request-Id; an error body carries the same requestId", () =>
      Effect.gen(function*() {
        const ok = yield* call("GET", "/openapi.json")
        assert.match(ok.headers.get("x-request-id") ?? "", /^req_[0-9a-z]{26}$/)
        const error = yield* call("GET", "/api/v1/me")
        assert.strictEqual(error.body.error.requestId, error.headers.get("x-request-id"))
        assert.deepStrictEqual(Object.keys(error.body.error).sort(), ["code", "details", "docs_url", "message", "requestId", "type"])
        assert.strictEqual(error.body.error.type, "authentication_error")
        assert.strictEqual(error.body.error.docs_url, "http://api.test.local/docs/errors#missing_authorization")
        const other = yield* call("GET", "/api/v1/me")
        assert.notStrictEqual(other.body.error.requestId, error.body.error.requestId)
      }))

    it.effect("unknown routes answer 404 and a known route's unknown method 405 with Allow, in the envelope", () =>
      Effect.gen(function*() {
        for (const [method, path] of [["GET", "/api/v1/nope"], ["GET", "/"]] as const) {
          const reply = yield* call(method, path)
          assert.strictEqual(reply.status, 404)
          assert.strictEqual(reply.body.error.code, "not_found")
          assert.strictEqual(reply.body.error.requestId, reply.headers.get("x-request-id"))
        }
        const wrongMethod = yield* call("DELETE", "/api/v1/me")
        assert.strictEqual(wrongMethod.status, 405)
        assert.strictEqual(wrongMethod.body.error.code, "method_not_allowed")
        assert.strictEqual(wrongMethod.headers.get("allow"), "GET")
        assert.strictEqual(wrongMethod.body.error.requestId, wrongMethod.headers.get("x-request-id"))
      }))

    it.effect("malformed JSON and schema violations answer 400 invalid_request with every issue", () =>
      Effect.gen(function*() {
        const malformed = yield* call("POST", "/api/v1/auth/token", { rawBody: "{\"apiKey\": " })
        assert.strictEqual(malformed.status, 400)
        assert.strictEqual(malformed.body.error.code, "invalid_request")

        const empty = yield* call("POST", "/api/v1/auth/token", { body: {} })
        assert.strictEqual(empty.status, 400)
        assert.sameMembers(empty.body.error.details.missingFields, ["apiKey", "secretKey"])
        assert.strictEqual(empty.body.error.details.issues.length, 2)

        const wrongType = yield* call("POST", "/api/v1/auth/token", { body: { apiKey: 5 } })
        assert.deepStrictEqual(wrongType.body.error.details.missingFields, ["secretKey"])
        assert.deepInclude(wrongType.body.error.details.issues, { path: "apiKey", message: "apiKey: expected a string" })
      }))

    it.effect("GET /ping and GET /me answer exactly the fields of spec 2.2 and 2.3", () =>
      Effect.gen(function*() {
        const { keys, merchant } = yield* createMerchant({ industry: "travel", tier: "premium" })
        const sandbox = yield* apiAs(keys.sandbox.secretKey)
        // Exactly: the typed client refuses an answer with a field its schema lacks.
        const ping = yield* sandbox.ping.ping()
        assert.deepStrictEqual(Object.keys(ping).sort(), ["apiVersion", "environment", "keyId", "keyKind", "merchant", "ok", "timestamp"])
        assert.strictEqual(ping.ok, true)
        assert.strictEqual(ping.apiVersion, "2026-11-01")
        assert.deepStrictEqual(ping.merchant, merchant)
        assert.isFalse(Number.isNaN(Date.parse(ping.timestamp)))

        const me = yield* (yield* apiAs(keys.production.secretKey)).identity.me()
        const sandboxMe = yield* sandbox.identity.me()
        assert.includeMembers([...sandboxMe.capabilities.methods], ["pix", "spei", "oxxo", "pse", "card"])
        assert.deepStrictEqual(me, {
          id: merchant.id,
          name: "Acme Pagos",
          email: "ops@acme.test",
          industry: "travel",
          tier: "premium",
          trustScore: 500,
          environment: "production",
          // Production: no provider is configured for this shop yet, so there is nothing to charge.
          capabilities: { checkout: true, directCharge: true, refunds: true, webhooks: true, crypto: [], methods: [] }
        })
      }))

    it.effect("admin: one shop gets shop-bound keys, several shops merchant-wide keys", () =>
      Effect.gen(function*() {
        const single = yield* createMerchant()
        assert.strictEqual(single.shops.length, 1)
        assert.strictEqual(single.shops[0]!.name, "Acme Pagos")
        assert.match(single.keys.sandbox.publishableKey, /^pk_test_[0-9A-Za-z]{30,}$/)
        assert.match(single.keys.sandbox.secretKey, /^sk_test_[0-9A-Za-z]{40,}$/)
        assert.match(single.keys.production.publishableKey, /^pk_live_/)
        assert.match(single.keys.production.secretKey, /^sk_live_/)

        const admin = yield* apiAs(adminToken)
        const multi = yield* createMerchant({ shops: [{ name: "MX" }, { name: "BR" }] })
        assert.deepStrictEqual(multi.shops.map((s) => s.name), ["MX", "BR"])
        // Merchant-wide keys cover every shop: rotating one shop's keys revokes them.
        const rotated = yield* admin.admin.rotateKeys({ params: { shopId: multi.shops[1]!.id }, headers: {} })
        assert.strictEqual(rotated.revoked, 2)
        assert.strictEqual(rotated.keys.sandbox.scope, "merchant")
        assert.strictEqual(rotated.keys.sandbox.shopId, null)

        const [issued, issuedResponse] = yield* admin.admin.issueKeys({
          params: { shopId: single.shops[0]!.id },
          payload: { environment: "production" },
          responseMode: "decoded-and-response"
        })
        assert.strictEqual(issuedResponse.status, 201)
        assert.strictEqual(issued.scope, "shop")
        assert.strictEqual(issued.shopId, single.shops[0]!.id)
        assert.strictEqual(issued.environment, "production")
        const me = yield* (yield* apiAs(issued.secretKey)).identity.me()
        assert.strictEqual(me.id, single.merchant.id)
        // The earlier pair still works: issuing does not revoke.
        const [, earlier] = yield* (yield* apiAs(single.keys.production.secretKey)).identity.me({ responseMode: "decoded-and-response" })
        assert.strictEqual(earlier.status, 200)
      }))

    it.effect("admin: bad token 401, unknown shop 404, invalid body 400 with details", () =>
      Effect.gen(function*() {
        const badToken = yield* createAs("wrong")
        assert.strictEqual(httpStatus[badToken.code], 401)
        const noShop = yield* refused(Effect.flatMap(apiAs(adminToken), (api) => api.admin.rotateKeys({ params: { shopId: "shop_nope" }, headers: {} })))
        assert.strictEqual(httpStatus[noShop.code], 404)
        assert.strictEqual(noShop.code, "not_found")
        // Raw: bodies the typed client cannot build (a missing name, an unknown tier and environment).
        const invalid = yield* call("POST", "/admin/v1/merchants", { bearer: adminToken, body: { email: "not-an-email", tier: "gold" } })
        assert.strictEqual(invalid.status, 400)
        assert.deepStrictEqual(invalid.body.error.details.missingFields, ["name"])
        assert.sameMembers(invalid.body.error.details.issues.map((i: { path: string }) => i.path), ["name", "email", "tier"])
        const badEnv = yield* call("POST", `/admin/v1/shops/shop_x/keys`, { bearer: adminToken, body: { environment: "staging" } })
        assert.strictEqual(badEnv.status, 400)
      }))

    it.effect("openapi.json is a valid OpenAPI document with the error envelope, and the docs resolve", () =>
      Effect.gen(function*() {
        const spec = (yield* call("GET", "/openapi.json")).body
        const result = yield* Effect.promise(() => new Validator().validate(spec))
        assert.isTrue(result.valid, JSON.stringify(result.errors))
        assert.property(spec.paths, "/api/v1/auth/token")
        assert.notProperty(spec.paths, "/admin/v1/merchants", "the operator's API has its own document")
        const admin = (yield* call("GET", "/admin/openapi.json")).body
        assert.isTrue((yield* Effect.promise(() => new Validator().validate(admin))).valid)
        assert.property(admin.paths, "/admin/v1/merchants")
        assert.property(spec.components.schemas, "Error")
        assert.include(spec.info.description, "cascade_exhausted")
        const base = yield* baseUrl
        for (const path of ["/docs", "/docs/errors"]) {
          const page = yield* Effect.promise(() => fetch(base + path))
          assert.strictEqual(page.status, 200)
          assert.include(page.headers.get("content-type") ?? "", "text/html")
        }
        const errors = yield* Effect.promise(() => fetch(base + "/docs/errors").then((r) => r.text()))
        assert.include(errors, "id=\"balance_insufficient\"")
      }))
  })
})

describe("admin API without ADMIN_TOKEN", () => {
  layer(testHost(MemoryStore.layer, { adminToken: Option.none() }), { excludeTestServices: true })((it) => {
    it.effect("is off and says so with 404", () =>
      Effect.gen(function*() {
        const reply = yield* createAs("anything")
        assert.strictEqual(httpStatus[reply.code], 404)
        assert.include(reply.message, "ADMIN_TOKEN")
      }))
  })
})
