/**
 * The storage contract: one suite, run against every store adapter. What the engine relies on
 * (atomic transactions, unique keys, guarded updates, leases) is asserted with real concurrency.
 */
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import type { Credential, RefreshToken } from "../../../core/auth/Credential.ts"
import { CredentialStore } from "../../../core/ports/CredentialStore.ts"
import { type Job, JobStore } from "../../../core/ports/JobStore.ts"
import { SettingsStore } from "../../../core/ports/SettingsStore.ts"
import { TenancyStore } from "../../../core/ports/TenancyStore.ts"
import { Transactions } from "../../../core/ports/Transactions.ts"
import { storeTargets } from "../../support/Stores.ts"

const t0 = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
const at = (seconds: number) => DateTime.add(t0, { seconds })

let seq = 0
const uid = (prefix: string) => `${prefix}${++seq}_${Math.random().toString(36).slice(2, 8)}`

const merchantAndShop = Effect.gen(function*() {
  const tenancy = yield* TenancyStore
  const merchantId = uid("mer_")
  const shopId = uid("shop_")
  yield* tenancy.insertMerchant({
    id: merchantId, name: "Acme", email: "ops@acme.test", industry: "retail", tier: "starter", trustScore: 500, createdAt: t0
  })
  yield* tenancy.insertShop({ id: shopId, merchantId, name: "Acme MX", createdAt: t0 })
  return { merchantId, shopId }
})

const credential = (merchantId: string, shopId: string | null, version = 1): Credential => ({
  id: uid("key_"),
  merchantId,
  shopId,
  environment: "sandbox",
  publishableKey: uid("pk_test_"),
  secretHash: uid("hash_"),
  secretLast4: "abcd",
  version,
  revokedAt: null,
  createdAt: t0,
  permissions: null,
  name: null,
  userId: null
})

const job = (kind: string, runAt: DateTime.Utc, dedupeKey: string | null = null): Job => ({
  id: uid("job_"), kind, payload: { n: 1 }, runAt, attempts: 0, status: "pending", lockedUntil: null, lastError: null, dedupeKey, clockScope: null, createdAt: t0
})

for (const target of storeTargets("contract")) {
  describe(`store contract on ${target.name}`, { timeout: 60_000 }, () => {
    layer(target.layer(), { timeout: 60_000 })((it) => {
      it.effect("stores merchants and lists a merchant's shops oldest first", () =>
        Effect.gen(function*() {
          const tenancy = yield* TenancyStore
          const { merchantId, shopId } = yield* merchantAndShop
          const second = uid("shop_")
          yield* tenancy.insertShop({ id: second, merchantId, name: "Acme BR", createdAt: at(10) })
          const merchant = yield* tenancy.findMerchant(merchantId)
          assert.strictEqual(Option.getOrThrow(merchant).trustScore, 500)
          assert.isTrue(DateTime.Equivalence(Option.getOrThrow(merchant).createdAt, t0))
          const shops = yield* tenancy.listShops(merchantId)
          assert.deepStrictEqual(shops.map((s) => s.id), [shopId, second])
          assert.isTrue(Option.isNone(yield* tenancy.findShop("shop_unknown")))
          assert.isTrue((yield* tenancy.countMerchants) >= 1)
        }))

      it.effect("a failed transaction leaves nothing behind; a nested one joins the outer", () =>
        Effect.gen(function*() {
          const tx = yield* Transactions
          const tenancy = yield* TenancyStore
          const id = uid("mer_")
          const failed = yield* tx.run(Effect.gen(function*() {
            yield* tenancy.insertMerchant({
              id, name: "Gone", email: "g@x.test", industry: "x", tier: "starter", trustScore: 1, createdAt: t0
            })
            yield* tx.run(tenancy.insertShop({ id: uid("shop_"), merchantId: id, name: "nested", createdAt: t0 }))
            return yield* Effect.fail("boom" as const)
          })).pipe(Effect.flip)
          assert.strictEqual(failed, "boom")
          assert.isTrue(Option.isNone(yield* tenancy.findMerchant(id)))
          assert.deepStrictEqual(yield* tenancy.listShops(id), [])
        }))

      it.effect("credentials: unique keys, scoped listing, revocation once", () =>
        Effect.gen(function*() {
          const store = yield* CredentialStore
          const { merchantId, shopId } = yield* merchantAndShop
          const bound = credential(merchantId, shopId)
          const wide = credential(merchantId, null)
          yield* store.insert(bound)
          yield* store.insert(wide)
          const duplicate = yield* Effect.exit(store.insert({ ...credential(merchantId, shopId), publishableKey: bound.publishableKey }))
          assert.isTrue(duplicate._tag === "Failure")
          assert.strictEqual(Option.getOrThrow(yield* store.findByPublishableKey(bound.publishableKey!)).id, bound.id)
          // Restricted keys: no publishable half (two of them coexist), their name and permissions kept.
          const restricted = { ...credential(merchantId, shopId), publishableKey: null, name: "reads payments", permissions: ["payments:read", "refunds:write"] as const }
          yield* store.insert(restricted)
          const another = { ...restricted, id: uid("key_"), secretHash: uid("hash_") }
          yield* store.insert(another)
          const read = Option.getOrThrow(yield* store.findBySecretHash(restricted.secretHash))
          assert.deepStrictEqual([read.publishableKey, read.name, read.permissions], [null, "reads payments", ["payments:read", "refunds:write"]])
          assert.strictEqual(yield* store.revoke([restricted.id, another.id], at(4)), 2)
          assert.strictEqual(Option.getOrThrow(yield* store.findBySecretHash(wide.secretHash)).shopId, null)
          assert.sameMembers((yield* store.listActiveForShop(merchantId, shopId)).map((c) => c.id), [bound.id, wide.id])
          assert.strictEqual(yield* store.revoke([bound.id, wide.id], at(5)), 2)
          assert.strictEqual(yield* store.revoke([bound.id], at(6)), 0)
          assert.deepStrictEqual(yield* store.listActiveForShop(merchantId, shopId), [])
          const revoked = Option.getOrThrow(yield* store.findById(bound.id))
          assert.isTrue(revoked.revokedAt !== null && DateTime.Equivalence(revoked.revokedAt, at(5)))
        }))

      it.effect("a refresh token is redeemed once even when 10 redemptions race; a family revokes together", () =>
        Effect.gen(function*() {
          const store = yield* CredentialStore
          const { merchantId, shopId } = yield* merchantAndShop
          const cred = credential(merchantId, shopId)
          yield* store.insert(cred)
          const familyId = uid("rtf_")
          const token = (): RefreshToken => ({
            id: uid("rt_"), tokenHash: uid("h_"), familyId, credentialId: cred.id, credentialVersion: 1,
            expiresAt: at(3600), usedAt: null, revokedAt: null, createdAt: t0
          })
          const a = token()
          const b = token()
          yield* store.insertRefreshToken(a)
          yield* store.insertRefreshToken(b)
          const wins = yield* Effect.all(Array.from({ length: 10 }, () => store.markRefreshTokenUsed(a.id, at(1))), {
            concurrency: "unbounded"
          })
          assert.strictEqual(wins.filter(Boolean).length, 1)
          assert.isFalse(yield* store.isFamilyRevoked(familyId))
          assert.strictEqual(yield* store.revokeRefreshFamily(familyId, at(2)), 2)
          assert.isTrue(yield* store.isFamilyRevoked(familyId))
          assert.isFalse(yield* store.isFamilyRevoked(`${familyId}_other`))
          assert.isFalse(yield* store.markRefreshTokenUsed(b.id, at(3)))
          const found = Option.getOrThrow(yield* store.findRefreshToken(a.tokenHash))
          assert.isTrue(found.usedAt !== null && found.revokedAt !== null)
        }))

      it.effect("settings: the first writer wins, also under concurrency", () =>
        Effect.gen(function*() {
          const settings = yield* SettingsStore
          const key = uid("k_")
          const values = yield* Effect.all(Array.from({ length: 8 }, (_, i) => settings.putIfAbsent(key, `v${i}`)), {
            concurrency: "unbounded"
          })
          assert.strictEqual(new Set(values).size, 1)
          assert.strictEqual(Option.getOrThrow(yield* settings.get(key)), values[0])
        }))

      it.effect("jobs: dedupe, disjoint concurrent claims, lease expiry, retry and dead letter", () =>
        Effect.gen(function*() {
          const jobs = yield* JobStore
          const kind = uid("kind_")
          const dedupe = uid("d_")
          assert.isTrue(yield* jobs.enqueue(job(kind, t0, dedupe)))
          assert.isFalse(yield* jobs.enqueue(job(kind, t0, dedupe)))
          for (let i = 0; i < 9; i++) yield* jobs.enqueue(job(kind, at(i)))
          yield* jobs.enqueue(job(kind, at(1000)))

          const claims = yield* Effect.all(
            Array.from({ length: 4 }, () => jobs.claim({ kinds: [kind], now: at(100), leaseMs: 30_000, limit: 3 })),
            { concurrency: "unbounded" }
          )
          const ids = claims.flat().map((j) => j.id)
          assert.strictEqual(ids.length, 10)
          assert.strictEqual(new Set(ids).size, 10)
          assert.isTrue(claims.flat().every((j) => j.attempts === 1))

          // Nothing is due again until the leases lapse; then every unfinished job comes back.
          const first = claims.flat()[0]!
          yield* jobs.complete(first.id)
          assert.deepStrictEqual(yield* jobs.claim({ kinds: [kind], now: at(110), leaseMs: 30_000, limit: 100 }), [])
          const again = yield* jobs.claim({ kinds: [kind], now: at(131), leaseMs: 30_000, limit: 100 })
          assert.strictEqual(again.length, 9)
          assert.isTrue(again.every((j) => j.attempts === 2))

          const [a, b] = again
          yield* jobs.retry(a!.id, at(500), "upstream 503")
          yield* jobs.kill(b!.id, "gave up")
          const retried = Option.getOrThrow(yield* jobs.find(a!.id))
          assert.strictEqual(retried.lastError, "upstream 503")
          assert.strictEqual(Option.getOrThrow(yield* jobs.find(b!.id)).status, "dead")
          assert.strictEqual(Option.getOrThrow(yield* jobs.find(first.id)).status, "done")
          const later = yield* jobs.claim({ kinds: [kind], now: at(501), leaseMs: 30_000, limit: 100 })
          assert.includeMembers(later.map((j) => j.id), [a!.id])
          assert.notInclude(later.map((j) => j.id), b!.id)
        }))
    })
  })
}
