/**
 * The memory implementations of the storage ports, on `MemoryDb`. Each method body runs under
 * `db.run`, so it sees and leaves a consistent state, and joins an enclosing transaction.
 */
import { DateTime, Effect, Layer, Option } from "effect"
import type { Credential, RefreshToken } from "../../../core/auth/Credential.ts"
import { CredentialStore } from "../../../core/ports/CredentialStore.ts"
import { type IdempotencyRecord, IdempotencyStore } from "../../../core/ports/IdempotencyStore.ts"
import { SettingsStore } from "../../../core/ports/SettingsStore.ts"
import { TenancyStore } from "../../../core/ports/TenancyStore.ts"
import type { Merchant, Shop } from "../../../core/tenancy/Merchant.ts"
import { MemoryAccessStore } from "./MemoryAccessStore.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { MemoryJobStore } from "./MemoryJobStore.ts"
import { MemoryRoutingStore } from "./MemoryRoutingStore.ts"
import { MemorySandboxClockStore } from "./MemorySandboxClockStore.ts"
import { MemoryPayinRepos } from "./MemoryPayinRepos.ts"
import { MemoryDepositStore } from "./MemoryDepositStore.ts"
import { MemoryWebhookStore } from "./MemoryWebhookStore.ts"

const find = <A>(rows: Map<string, A>, predicate: (row: A) => boolean): Option.Option<A> => {
  for (const row of rows.values()) if (predicate(row)) return Option.some(row)
  return Option.none()
}

const unique = (what: string, key: string) => Effect.die(new Error(`duplicate ${what}: ${key}`))

export const MemoryTenancyStore = Layer.effect(
  TenancyStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const merchants = db.table<Merchant>("merchants")
    const shops = db.table<Shop>("shops")
    return TenancyStore.of({
      insertMerchant: (m) =>
        db.run(Effect.suspend(() => merchants.has(m.id) ? unique("merchant", m.id) : Effect.sync(() => void merchants.set(m.id, m)))),
      insertShop: (s) =>
        db.run(Effect.suspend(() => shops.has(s.id) ? unique("shop", s.id) : Effect.sync(() => void shops.set(s.id, s)))),
      findMerchant: (id) => db.run(Effect.sync(() => Option.fromNullishOr(merchants.get(id)))),
      findShop: (id) => db.run(Effect.sync(() => Option.fromNullishOr(shops.get(id)))),
      listShops: (merchantId) =>
        db.run(Effect.sync(() =>
          [...shops.values()].filter((s) => s.merchantId === merchantId).sort((a, b) =>
            DateTime.toEpochMillis(a.createdAt) - DateTime.toEpochMillis(b.createdAt) || a.id.localeCompare(b.id)
          )
        )),
      countMerchants: db.run(Effect.sync(() => merchants.size))
    })
  })
)

export const MemoryCredentialStore = Layer.effect(
  CredentialStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const credentials = db.table<Credential>("credentials")
    const tokens = db.table<RefreshToken>("refresh_tokens")
    /** Families revoked by a reused refresh token, by id (an index, so an access token costs one lookup). */
    const revokedFamilies = db.table<DateTime.Utc>("revoked_refresh_families")
    return CredentialStore.of({
      insert: (c) =>
        db.run(Effect.suspend(() =>
          credentials.has(c.id) || Option.isSome(find(credentials, (x) => x.publishableKey === c.publishableKey || x.secretHash === c.secretHash))
            ? unique("credential", c.id)
            : Effect.sync(() => void credentials.set(c.id, c))
        )),
      findById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(credentials.get(id)))),
      findByPublishableKey: (key) => db.run(Effect.sync(() => find(credentials, (c) => c.publishableKey === key))),
      findBySecretHash: (hash) => db.run(Effect.sync(() => find(credentials, (c) => c.secretHash === hash))),
      listActiveForShop: (merchantId, shopId) =>
        db.run(Effect.sync(() =>
          [...credentials.values()].filter((c) =>
            c.merchantId === merchantId && c.revokedAt === null && (c.shopId === null || c.shopId === shopId)
          )
        )),
      revoke: (ids, at) =>
        db.run(Effect.sync(() => {
          let n = 0
          for (const id of ids) {
            const c = credentials.get(id)
            if (c !== undefined && c.revokedAt === null) {
              credentials.set(id, { ...c, revokedAt: at })
              n++
            }
          }
          return n
        })),
      insertRefreshToken: (t) =>
        db.run(Effect.suspend(() =>
          tokens.has(t.id) || Option.isSome(find(tokens, (x) => x.tokenHash === t.tokenHash))
            ? unique("refresh token", t.id)
            : Effect.sync(() => void tokens.set(t.id, t))
        )),
      findRefreshToken: (hash) => db.run(Effect.sync(() => find(tokens, (t) => t.tokenHash === hash))),
      markRefreshTokenUsed: (id, at) =>
        db.run(Effect.sync(() => {
          const t = tokens.get(id)
          if (t === undefined || t.usedAt !== null || t.revokedAt !== null) return false
          tokens.set(id, { ...t, usedAt: at })
          return true
        })),
      revokeRefreshFamily: (familyId, at) =>
        db.run(Effect.sync(() => {
          let n = 0
          for (const t of tokens.values()) {
            if (t.familyId === familyId && t.revokedAt === null) {
              tokens.set(t.id, { ...t, revokedAt: at })
              n++
            }
          }
          revokedFamilies.set(familyId, at)
          return n
        })),
      isFamilyRevoked: (familyId) => db.run(Effect.sync(() => revokedFamilies.has(familyId)))
    })
  })
)

export const MemorySettingsStore = Layer.effect(
  SettingsStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const settings = db.table<string>("settings")
    return SettingsStore.of({
      get: (key) => db.run(Effect.sync(() => Option.fromNullishOr(settings.get(key)))),
      putIfAbsent: (key, value) =>
        db.run(Effect.sync(() => {
          const existing = settings.get(key)
          if (existing !== undefined) return existing
          settings.set(key, value)
          return value
        }))
    })
  })
)

const idemKey = (scope: string, key: string) => `${scope}\u0000${key}`

export const MemoryIdempotencyStore = Layer.effect(
  IdempotencyStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const records = db.table<IdempotencyRecord>("idempotency_keys")
    const update = (scope: string, key: string, change: (r: IdempotencyRecord) => IdempotencyRecord | undefined) => {
      const id = idemKey(scope, key)
      const r = records.get(id)
      if (r === undefined) return
      const next = change(r)
      if (next === undefined) records.delete(id)
      else records.set(id, next)
    }
    return IdempotencyStore.of({
      acquire: (r) =>
        db.run(Effect.sync(() => {
          const id = idemKey(r.scope, r.key)
          const existing = records.get(id)
          const expired = existing !== undefined && DateTime.isLessThan(existing.expiresAt, r.now)
          // A lapsed lock is taken over only by the same request: it continues the bound record.
          const lapsed = existing !== undefined && existing.state === "in_progress" &&
            DateTime.isLessThan(existing.lockedUntil, r.now) && existing.requestHash === r.requestHash
          if (existing !== undefined && !expired && !lapsed) return { _tag: "Existing", record: existing } as const
          const resourceId = lapsed && !expired ? existing.resourceId : null
          records.set(id, {
            scope: r.scope,
            key: r.key,
            requestHash: r.requestHash,
            state: "in_progress",
            resourceId,
            responseStatus: null,
            responseBody: null,
            lockedUntil: r.lockedUntil,
            createdAt: lapsed && !expired ? existing.createdAt : r.now,
            expiresAt: lapsed && !expired ? existing.expiresAt : r.expiresAt
          })
          return { _tag: "Acquired", resourceId } as const
        })),
      bind: (scope, key, resourceId) =>
        db.run(Effect.sync(() => update(scope, key, (r) => ({ ...r, resourceId })))),
      extend: (scope, key, lockedUntil) =>
        db.run(Effect.sync(() => update(scope, key, (r) => r.state === "in_progress" ? { ...r, lockedUntil } : r))),
      complete: (scope, key, responseStatus, responseBody) =>
        db.run(Effect.sync(() => update(scope, key, (r) => ({ ...r, state: "completed", responseStatus, responseBody })))),
      release: (scope, key) =>
        db.run(Effect.sync(() => update(scope, key, (r) => r.state === "in_progress" ? undefined : r))),
      purgeExpired: (now) =>
        db.run(Effect.sync(() => {
          let n = 0
          for (const [id, r] of records) {
            if (DateTime.isLessThan(r.expiresAt, now)) {
              records.delete(id)
              n++
            }
          }
          return n
        }))
    })
  })
)

/** Every storage port on one fresh in-memory database. */
export const MemoryStore = {
  layer: Layer.mergeAll(
    MemoryDb.transactions,
    MemoryTenancyStore,
    MemoryCredentialStore,
    MemoryAccessStore,
    MemorySettingsStore,
    MemoryIdempotencyStore,
    MemoryJobStore,
    MemorySandboxClockStore,
    MemoryRoutingStore,
    MemoryPayinRepos,
    MemoryWebhookStore,
    MemoryDepositStore
  ).pipe(Layer.provide(MemoryDb.layer))
}
