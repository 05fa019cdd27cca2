/** POST /card-sessions: a session JWT a merchant's server tokenizes a card with at the vault, or 503 on a host without a vault. */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { jwtVerify } from "jose"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"

const sessionSecret = "vault-session-secret-0123456789abcdef"
const vault = { url: "https://vault.example.com", engineKey: Redacted.make("engine-key"), sessionSecret: Redacted.make(sessionSecret) }

describe("card sessions", () => {
  layer(testHost(MemoryStore.layer, { vault: Option.some(vault) }), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a secret key gets the vault's URL and an HS256 session for its merchant, audience vault, scope tokenize, 15 minutes", () =>
      Effect.gen(function*() {
        const { keys, merchant } = yield* createMerchant()
        const before = Math.floor(Date.now() / 1000)
        const reply = yield* call("POST", "/api/v1/card-sessions", { bearer: keys.production.secretKey, body: {} })
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.body.vaultUrl, "https://vault.example.com")
        const { payload, protectedHeader } = yield* Effect.promise(() =>
          jwtVerify(reply.body.token, new TextEncoder().encode(sessionSecret), { audience: "vault", algorithms: ["HS256"] })
        )
        assert.strictEqual(protectedHeader.alg, "HS256")
        assert.deepStrictEqual([payload.sub, payload.aud, payload["scope"]], [merchant.id, "vault", "tokenize"])
        assert.isAtLeast(payload.exp! - before, 15 * 60)
        assert.isAtMost(payload.exp! - payload.iat!, 15 * 60)
        assert.strictEqual(new Date(reply.body.expiresAt).getTime(), payload.exp! * 1000)
        // Another secret does not verify it.
        const forged = yield* Effect.promise(() => jwtVerify(reply.body.token, new TextEncoder().encode("another-secret-0123456789abcdefghij")).then(() => "verified", () => "refused"))
        assert.strictEqual(forged, "refused")
      }))

    it.effect("a publishable key is refused 403 secret_key_required", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const reply = yield* call("POST", "/api/v1/card-sessions", { bearer: keys.sandbox.publishableKey, body: {} })
        assert.deepStrictEqual([reply.status, reply.body.error.code], [403, "secret_key_required"])
      }))
  })

  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a host without a card vault answers 422 card_vault_not_configured (retrying cannot help)", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const reply = yield* call("POST", "/api/v1/card-sessions", { bearer: keys.sandbox.secretKey, body: {} })
        assert.deepStrictEqual([reply.status, reply.body.error.code], [422, "card_vault_not_configured"])
      }))
  })
})
