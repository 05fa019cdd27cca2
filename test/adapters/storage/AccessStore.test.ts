/**
 * The AccessStore contract on every store: one lookup answers a credential with its merchant, its
 * default shop and that shop's sandbox clock, by id (with the login's revocation), secret hash or
 * publishable key.
 */
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import type { Credential, RefreshToken } from "../../../core/auth/Credential.ts"
import { AccessStore } from "../../../core/ports/AccessStore.ts"
import { CredentialStore } from "../../../core/ports/CredentialStore.ts"
import { SandboxClockStore } from "../../../core/ports/SandboxClockStore.ts"
import { TenancyStore } from "../../../core/ports/TenancyStore.ts"
import { storeTargets } from "../../support/Stores.ts"

const t0 = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
let seq = 0
const uid = (prefix: string) => `${prefix}${++seq}_${Math.random().toString(36).slice(2, 8)}`

/** A merchant with two shops (the first is older) and a credential of each kind. */
const fixture = Effect.gen(function*() {
  const tenancy = yield* TenancyStore
  const credentials = yield* CredentialStore
  const merchantId = uid("mer_")
  const first = uid("shop_")
  const second = uid("shop_")
  yield* tenancy.insertMerchant({ id: merchantId, name: "Acme", email: "ops@acme.test", industry: "retail", tier: "premium", trustScore: 700, createdAt: t0 })
  // Inserted newest first: the default shop is the oldest, not the first inserted.
  yield* tenancy.insertShop({ id: second, merchantId, name: "Acme BR", createdAt: DateTime.add(t0, { hours: 1 }) })
  yield* tenancy.insertShop({ id: first, merchantId, name: "Acme MX", createdAt: t0 })
  const credential = (shopId: string | null, environment: Credential["environment"]): Credential => ({
    id: uid("key_"), merchantId, shopId, environment, publishableKey: uid("pk_"), secretHash: uid("hash_"),
    secretLast4: "abcd", version: 3, revokedAt: null, createdAt: t0, permissions: null, name: null, userId: null
  })
  const wide = credential(null, "sandbox")
  const bound = credential(second, "sandbox")
  const live = credential(null, "production")
  for (const c of [wide, bound, live]) yield* credentials.insert(c)
  return { merchantId, first, second, wide, bound, live }
})

const refreshToken = (credential: Credential, familyId: string): RefreshToken => ({
  id: uid("rt_"), tokenHash: uid("rth_"), familyId, credentialId: credential.id, credentialVersion: credential.version,
  expiresAt: DateTime.add(t0, { days: 30 }), usedAt: null, revokedAt: null, createdAt: t0
})

for (const target of storeTargets("access")) {
  describe(`AccessStore on ${target.name}`, { timeout: 60_000 }, () => {
    layer(target.layer(), { timeout: 60_000 })((it) => {
      it.effect("a merchant-wide credential comes with its merchant, its oldest shop and that shop's clock", () =>
        Effect.gen(function*() {
          const access = yield* AccessStore
          const { first, merchantId, wide } = yield* fixture
          yield* (yield* SandboxClockStore).advance(first, 86_400_000, t0)
          const found = Option.getOrThrow(yield* access.find({ credentialId: wide.id, familyId: uid("fam_") }))
          assert.deepStrictEqual(found.credential, wide)
          assert.strictEqual(found.merchant.id, merchantId)
          assert.strictEqual(found.merchant.tier, "premium")
          assert.strictEqual(found.merchant.trustScore, 700)
          assert.isTrue(DateTime.Equivalence(found.merchant.createdAt, t0))
          assert.strictEqual(found.shop?.id, first)
          assert.strictEqual(found.shop?.name, "Acme MX")
          assert.strictEqual(found.clockOffsetMs, 86_400_000)
          assert.isFalse(found.familyRevoked)
        }))

      it.effect("a shop-bound credential comes with its own shop, found by secret hash or publishable key", () =>
        Effect.gen(function*() {
          const access = yield* AccessStore
          const { bound, second } = yield* fixture
          for (const lookup of [{ secretHash: bound.secretHash }, { publishableKey: bound.publishableKey! }]) {
            const found = Option.getOrThrow(yield* access.find(lookup))
            assert.strictEqual(found.credential.id, bound.id)
            assert.strictEqual(found.shop?.id, second)
            assert.strictEqual(found.clockOffsetMs, 0)
            assert.isFalse(found.familyRevoked)
          }
          assert.isTrue(Option.isNone(yield* access.find({ secretHash: "hash_unknown" })))
          assert.isTrue(Option.isNone(yield* access.find({ publishableKey: "pk_unknown" })))
          assert.isTrue(Option.isNone(yield* access.find({ credentialId: "key_unknown", familyId: "fam" })))
        }))

      it.effect("a production credential never carries a sandbox clock", () =>
        Effect.gen(function*() {
          const access = yield* AccessStore
          const { first, live } = yield* fixture
          yield* (yield* SandboxClockStore).advance(first, 60_000, t0)
          const found = Option.getOrThrow(yield* access.find({ secretHash: live.secretHash }))
          assert.strictEqual(found.shop?.id, first)
          assert.strictEqual(found.clockOffsetMs, 0)
        }))

      it.effect("a revoked login and a revoked credential are seen on the next lookup", () =>
        Effect.gen(function*() {
          const access = yield* AccessStore
          const credentials = yield* CredentialStore
          const { wide } = yield* fixture
          const familyId = uid("fam_")
          yield* credentials.insertRefreshToken(refreshToken(wide, familyId))
          assert.isFalse(Option.getOrThrow(yield* access.find({ credentialId: wide.id, familyId })).familyRevoked)
          yield* credentials.revokeRefreshFamily(familyId, t0)
          assert.isTrue(Option.getOrThrow(yield* access.find({ credentialId: wide.id, familyId })).familyRevoked)
          assert.isFalse(Option.getOrThrow(yield* access.find({ credentialId: wide.id, familyId: uid("fam_") })).familyRevoked)
          yield* credentials.revoke([wide.id], t0)
          const revoked = Option.getOrThrow(yield* access.find({ credentialId: wide.id, familyId }))
          assert.isTrue(revoked.credential.revokedAt !== null)
        }))
    })
  })
}
