/**
 * The host's keys: a production host refuses to start without a strong JWT key and a sealing
 * key; access tokens carry a `kid`, a token signed with a previous key is still accepted, and
 * one living longer than the access token lifetime is refused (401, the usual envelope);
 * webhook signing secrets and a generated JWT key are stored sealed, and rows an older host
 * wrote in plain text are sealed when the store starts.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { decodeJwt, decodeProtectedHeader, SignJWT } from "jose"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { JoseTokenSigner } from "../../adapters/auth/JoseTokenSigner.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { SqlStore } from "../../adapters/storage/sql/SqlStore.ts"
import { TokenSigner } from "../../core/ports/TokenSigner.ts"
import { WebhookStore } from "../../core/ports/WebhookStore.ts"
import { hostLayer } from "../../host/Host.ts"
import { call, createMerchant, testConfig, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const oldKey = "the-previous-jwt-key-of-at-least-32-bytes"
const newKey = "the-current-jwt-key-of-at-least-32-bytes!"
const sealingKey = "5f".repeat(32)

/** Builds the host's application layer and answers why it refused to start (undefined if it started). */
const refusal = (overrides: Parameters<typeof testConfig>[0]) =>
  Effect.scoped(Effect.gen(function*() {
    const exit = yield* Effect.exit(Layer.build(hostLayer(testConfig(overrides), MemoryStore.layer)))
    return Exit.isSuccess(exit) ? undefined : String(Exit.isFailure(exit) ? exit.cause : "")
  }))

const production = { databaseUrl: Option.some(Redacted.make("postgres://nobody@127.0.0.1:1/none")) }

describe("host keys at start", () => {
  it.effect("a production host refuses a weak, a missing JWT key and a missing sealing key, naming the variable only", () =>
    Effect.gen(function*() {
      const weak = yield* refusal({ ...production, jwtSecret: Option.some(Redacted.make("abc")) })
      assert.include(weak, "JWT_SECRET is too weak")
      assert.notInclude(weak, "abc\"")
      assert.include(yield* refusal({ ...production, jwtSecret: Option.none() }), "JWT_SECRET (or JWT_SECRET_FILE) is required: DATABASE_URL is set")
      assert.include(yield* refusal({ ...production, sealingKeys: [] }), "SEALING_KEY (or SEALING_KEY_FILE) is required")
      assert.include(yield* refusal({ jwtSecret: Option.some(Redacted.make("a".repeat(40))) }), "fewer than 8 distinct characters")
      assert.include(yield* refusal({ sealingKeys: [Redacted.make("short")] }), "SEALING_KEY is not 32 bytes")
      // A development host (embedded store, no production connector) may run with generated keys.
      assert.isUndefined(yield* refusal({ jwtSecret: Option.none(), sealingKeys: [] }))
    }))
})

/** A token for `claims`, as an attacker holding the key would sign it (the host's header and claims, other times). */
const forge = (key: string, token: string, times: { readonly iat: number; readonly exp?: number }) => {
  const payload = decodeJwt(token)
  const { iat: _iat, exp: _exp, ...rest } = payload
  const jwt = new SignJWT(rest).setProtectedHeader(decodeProtectedHeader(token) as { alg: string }).setIssuedAt(times.iat)
  if (times.exp !== undefined) jwt.setExpirationTime(times.exp)
  return Effect.promise(() => jwt.sign(new TextEncoder().encode(key)))
}

const tokenOf = (keys: { publishableKey: string; secretKey: string }) =>
  Effect.map(call("POST", "/api/v1/auth/token", { body: { apiKey: keys.publishableKey, secretKey: keys.secretKey } }), (reply) => {
    assert.strictEqual(reply.status, 200)
    return (reply.body as { accessToken: string }).accessToken
  })

describe("access tokens", () => {
  layer(testHost(MemoryStore.layer, { jwtSecret: Option.some(Redacted.make(newKey)), jwtPreviousSecrets: [Redacted.make(oldKey)] }), {
    timeout: 30_000,
    excludeTestServices: true
  })((it) => {
    it.effect("a token living longer than an hour, or without exp, is refused with 401 invalid_api_key", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const token = yield* tokenOf(keys.sandbox)
        assert.strictEqual((yield* call("GET", "/api/v1/me", { bearer: token })).status, 200)
        const now = Math.floor(Date.now() / 1000)
        for (const forged of [yield* forge(newKey, token, { iat: now, exp: now + 10 * 365 * 24 * 3600 }), yield* forge(newKey, token, { iat: now })]) {
          const reply = yield* call("GET", "/api/v1/me", { bearer: forged })
          assert.strictEqual(reply.status, 401)
          assert.strictEqual((reply.body as { error: { code: string } }).error.code, "invalid_api_key")
        }
        // Within the lifetime the same forgery is a valid token: the lifetime is what refused it.
        assert.strictEqual((yield* call("GET", "/api/v1/me", { bearer: yield* forge(newKey, token, { iat: now, exp: now + 600 }) })).status, 200)
      }))

    it.effect("tokens carry the current key's kid; one signed with the previous key is still accepted, an unknown key's is not", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const token = yield* tokenOf(keys.sandbox)
        assert.strictEqual(decodeProtectedHeader(token).kid, JoseTokenSigner.keyId(newKey))
        const claims = decodeJwt(token)
        const signedWith = (key: string) =>
          Effect.flatMap(Effect.service(TokenSigner), (signer) =>
            signer.sign({
              credentialId: claims.sub!,
              credentialVersion: claims["ver"] as number,
              familyId: claims["fam"] as string,
              merchantId: claims["mid"] as string,
              environment: "sandbox"
            }, 3600)).pipe(Effect.provide(JoseTokenSigner.layer(Redacted.make(key))))
        const previous = yield* signedWith(oldKey)
        assert.strictEqual(decodeProtectedHeader(previous).kid, JoseTokenSigner.keyId(oldKey))
        assert.strictEqual((yield* call("GET", "/api/v1/me", { bearer: previous })).status, 200, "signed before the rotation")
        const stranger = yield* call("GET", "/api/v1/me", { bearer: yield* signedWith("a-key-this-host-was-never-given-32b!") })
        assert.strictEqual(stranger.status, 401)
      }))
  })
})

for (const target of storeTargets("sealing").filter((t) => t.name !== "memory")) {
  describe(`sealed secrets (${target.name})`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("the webhooks table holds no signing secret, current or previous", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const created = yield* call("POST", "/api/v1/webhooks", { bearer: keys.sandbox.secretKey, body: { url: "https://hooks.example.com/in", events: ["payment.completed"] } })
          assert.strictEqual(created.status, 201)
          const { id, secret } = created.body as { id: string; secret: string }
          const rotated = yield* call("POST", `/api/v1/webhooks/${id}/rotate-secret`, { bearer: keys.sandbox.secretKey })
          assert.strictEqual(rotated.status, 200)
          const next = (rotated.body as { secret: string }).secret
          const sql = yield* SqlClient.SqlClient
          const [row] = yield* sql<{ readonly secret: string; readonly previousSecret: string }>`SELECT secret, previous_secret FROM webhooks WHERE id = ${id}`
          const stored = JSON.stringify(row)
          for (const plain of [secret, next, secret.slice(6), next.slice(6)]) assert.notInclude(stored, plain)
          assert.match(row!.secret, /^sealed\.v1\./)
          assert.match(row!.previousSecret, /^sealed\.v1\./)
          // Still the secret the merchant holds: reads unseal it.
          const store = yield* WebhookStore
          const read = yield* store.findSubscriptionById(id)
          assert.deepStrictEqual(Option.map(read, (s) => [s.secret, s.previousSecret]), Option.some([next, secret]))
        }))
    })
  })
}

describe("rows written before sealing", () => {
  it.live("a plaintext webhook secret and a plaintext generated JWT key are sealed at the next start, and keep working", () =>
    Effect.gen(function*() {
      const dataDir = mkdtempSync(join(tmpdir(), "sealing-"))
      const legacyJwtKey = "a-generated-key-an-older-host-kept-in-plain-text"
      const config = testConfig({ dataDir, jwtSecret: Option.none(), sealingKeys: [Redacted.make(sealingKey)] })
      try {
        // An older host's rows: written in plain text.
        yield* Effect.scoped(Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const [shop] = yield* sql<{ readonly id: string }>`SELECT id FROM shops LIMIT 1`
          const now = new Date()
          yield* sql`INSERT INTO webhooks (id, environment, shop_id, url, managed, events, active, secret, previous_secret, created_at, updated_at)
            VALUES ('wh_legacy', 'sandbox', ${shop?.id ?? "shop_x"}, 'https://hooks.example/old', false, '["payment.succeeded"]', true, 'whsec_plain_current', 'whsec_plain_previous', ${now}, ${now})`
          yield* sql`INSERT INTO settings (key, value) VALUES ('jwt_secret', ${legacyJwtKey})`
        }).pipe(Effect.provide(SqlStore.pglite(dataDir))))
        yield* Effect.scoped(Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const [row] = yield* sql<{ readonly secret: string; readonly previousSecret: string }>`SELECT secret, previous_secret FROM webhooks WHERE id = 'wh_legacy'`
          assert.match(row!.secret, /^sealed\.v1\./)
          assert.match(row!.previousSecret, /^sealed\.v1\./)
          const read = yield* (yield* WebhookStore).findSubscriptionById("wh_legacy")
          assert.deepStrictEqual(Option.map(read, (s) => [s.secret, s.previousSecret]), Option.some(["whsec_plain_current", "whsec_plain_previous"]))
          const settings = yield* sql<{ readonly key: string; readonly value: string }>`SELECT key, value FROM settings`
          assert.notInclude(JSON.stringify(settings), legacyJwtKey)
          assert.deepStrictEqual(settings.map((s) => s.key), ["jwt_secret.sealed"])
          // The key itself is the same: a token the older host signed still verifies.
          const old = yield* Effect.flatMap(Effect.service(TokenSigner), (s) =>
            s.sign({ credentialId: "cred", credentialVersion: 1, familyId: "fam", merchantId: "m", environment: "sandbox" }, 600)).pipe(
              Effect.provide(JoseTokenSigner.layer(Redacted.make(legacyJwtKey)))
            )
          const signer = yield* TokenSigner
          assert.strictEqual((yield* signer.verify(old)).credentialId, "cred")
        }).pipe(Effect.provide(hostLayer(config))))
      } finally {
        rmSync(dataDir, { recursive: true, force: true })
      }
    }), 60_000)
})
