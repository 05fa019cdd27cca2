/**
 * An `Authorization` header that is there but is not a Bearer token (HTTP Basic, a bare key, an
 * unknown scheme) is told apart from no header at all: `invalid_api_key`, saying to use Bearer.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"

describe("the Authorization header's scheme", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("Basic, a bare key or another scheme is invalid_api_key naming Bearer; no header or an empty Bearer stays missing_authorization", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const basic = `Basic ${Buffer.from(`${sk}:`).toString("base64")}`
        for (const authorization of [basic, sk, `Token ${sk}`, "Basic"]) {
          const reply = yield* call("GET", "/api/v1/me", { headers: { authorization } })
          assert.strictEqual(reply.status, 401, authorization)
          assert.strictEqual(reply.body.error.code, "invalid_api_key", authorization)
          assert.strictEqual(reply.body.error.type, "authentication_error")
          assert.include(reply.body.error.message, "Authorization: Bearer <key>", authorization)
        }
        // The publishable-key endpoints answer the same.
        const anyKey = yield* call("GET", "/api/v1/ping", { headers: { authorization: basic } })
        assert.strictEqual(anyKey.body.error.code, "invalid_api_key")

        const none = yield* call("GET", "/api/v1/me")
        assert.deepStrictEqual([none.status, none.body.error.code], [401, "missing_authorization"])
        const empty = yield* call("GET", "/api/v1/me", { headers: { authorization: "Bearer " } })
        assert.deepStrictEqual([empty.status, empty.body.error.code], [401, "missing_authorization"])
        // The scheme's name is case-insensitive (RFC 9110): a lower-case bearer still works.
        const lower = yield* call("GET", "/api/v1/me", { headers: { authorization: `bearer ${sk}` } })
        assert.strictEqual(lower.status, 200)
      }))
  })
})
