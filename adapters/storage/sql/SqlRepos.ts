/**
 * The SQL implementations of the storage ports: one dialect for PostgreSQL and embedded PGlite.
 * Rows come back camelCase (the client transforms names). Database failures are defects: the
 * ports promise no SQL errors, and a broken connection is not something a caller can handle.
 */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { Credential, RefreshToken } from "../../../core/auth/Credential.ts"
import type { Environment } from "../../../core/Environment.ts"
import { CredentialStore } from "../../../core/ports/CredentialStore.ts"
import { type IdempotencyRecord, IdempotencyStore } from "../../../core/ports/IdempotencyStore.ts"
import { SettingsStore } from "../../../core/ports/SettingsStore.ts"
import { TenancyStore } from "../../../core/ports/TenancyStore.ts"
import type { Merchant, Shop, Tier } from "../../../core/tenancy/Merchant.ts"
import { date, dateOrNull, utc, utcOrNull } from "./Rows.ts"
import { write } from "./SqlTransactions.ts"


const first = <A, B>(rows: ReadonlyArray<A>, f: (row: A) => B): Option.Option<B> =>
  rows.length === 0 ? Option.none() : Option.some(f(rows[0]!))

interface MerchantRow {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly industry: string
  readonly tier: Tier
  readonly trustScore: number
  readonly createdAt: Date
}
interface ShopRow {
  readonly id: string
  readonly merchantId: string
  readonly name: string
  readonly createdAt: Date
}
const toMerchant = (r: MerchantRow): Merchant => ({ ...r, createdAt: utc(r.createdAt) })
const toShop = (r: ShopRow): Shop => ({ ...r, createdAt: utc(r.createdAt) })

export const SqlTenancyStore = Layer.effect(
  TenancyStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return TenancyStore.of({
      insertMerchant: (m) => sql`INSERT INTO merchants ${sql.insert({ ...m, createdAt: date(m.createdAt) })}`.pipe(Effect.asVoid, Effect.orDie),
      insertShop: (s) => sql`INSERT INTO shops ${sql.insert({ ...s, createdAt: date(s.createdAt) })}`.pipe(Effect.asVoid, Effect.orDie),
      findMerchant: (id) => sql<MerchantRow>`SELECT * FROM merchants WHERE id = ${id}`.pipe(Effect.map((r) => first(r, toMerchant)), Effect.orDie),
      findShop: (id) => sql<ShopRow>`SELECT * FROM shops WHERE id = ${id}`.pipe(Effect.map((r) => first(r, toShop)), Effect.orDie),
      listShops: (merchantId) =>
        sql<ShopRow>`SELECT * FROM shops WHERE merchant_id = ${merchantId} ORDER BY created_at, id`.pipe(
          Effect.map((rows) => rows.map(toShop)),
          Effect.orDie
        ),
      countMerchants: sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM merchants`.pipe(
        Effect.map((rows) => rows[0]?.n ?? 0),
        Effect.orDie
      )
    })
  })
)

export interface CredentialRow {
  readonly id: string
  readonly merchantId: string
  readonly shopId: string | null
  readonly environment: Environment
  readonly publishableKey: string
  readonly secretHash: string
  readonly secretLast4: string
  readonly version: number
  readonly revokedAt: Date | null
  readonly createdAt: Date
}
interface RefreshTokenRow {
  readonly id: string
  readonly tokenHash: string
  readonly familyId: string
  readonly credentialId: string
  readonly credentialVersion: number
  readonly expiresAt: Date
  readonly usedAt: Date | null
  readonly revokedAt: Date | null
  readonly createdAt: Date
}
/** A credential from its row's own columns (a joined row may carry more). */
export const toCredential = (r: CredentialRow): Credential => ({
  id: r.id,
  merchantId: r.merchantId,
  shopId: r.shopId,
  environment: r.environment,
  publishableKey: r.publishableKey,
  secretHash: r.secretHash,
  secretLast4: r.secretLast4,
  version: r.version,
  revokedAt: utcOrNull(r.revokedAt),
  createdAt: utc(r.createdAt)
})
const toRefreshToken = (r: RefreshTokenRow): RefreshToken => ({
  ...r,
  expiresAt: utc(r.expiresAt),
  usedAt: utcOrNull(r.usedAt),
  revokedAt: utcOrNull(r.revokedAt),
  createdAt: utc(r.createdAt)
})

export const SqlCredentialStore = Layer.effect(
  CredentialStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const one = (where: ReturnType<typeof sql.and>) =>
      sql<CredentialRow>`SELECT * FROM credentials WHERE ${where}`.pipe(Effect.map((r) => first(r, toCredential)), Effect.orDie)
    return CredentialStore.of({
      insert: (c) =>
        sql`INSERT INTO credentials ${sql.insert({ ...c, revokedAt: dateOrNull(c.revokedAt), createdAt: date(c.createdAt) })}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      findById: (id) => one(sql.and([sql`id = ${id}`])),
      findByPublishableKey: (key) => one(sql.and([sql`publishable_key = ${key}`])),
      findBySecretHash: (hash) => one(sql.and([sql`secret_hash = ${hash}`])),
      listActiveForShop: (merchantId, shopId) =>
        sql<CredentialRow>`
          SELECT * FROM credentials
          WHERE merchant_id = ${merchantId} AND revoked_at IS NULL AND (shop_id IS NULL OR shop_id = ${shopId})
          ORDER BY created_at, id`.pipe(Effect.map((rows) => rows.map(toCredential)), Effect.orDie),
      revoke: (ids, at) =>
        ids.length === 0 ? Effect.succeed(0) : sql<{ readonly id: string }>`
          UPDATE credentials SET revoked_at = ${date(at)}
          WHERE ${sql.in("id", ids)} AND revoked_at IS NULL RETURNING id`.pipe(Effect.map((rows) => rows.length), Effect.orDie),
      insertRefreshToken: (t) =>
        sql`INSERT INTO refresh_tokens ${
          sql.insert({
            ...t,
            expiresAt: date(t.expiresAt),
            usedAt: dateOrNull(t.usedAt),
            revokedAt: dateOrNull(t.revokedAt),
            createdAt: date(t.createdAt)
          })
        }`.pipe(Effect.asVoid, Effect.orDie),
      findRefreshToken: (hash) =>
        sql<RefreshTokenRow>`SELECT * FROM refresh_tokens WHERE token_hash = ${hash}`.pipe(
          Effect.map((r) => first(r, toRefreshToken)),
          Effect.orDie
        ),
      markRefreshTokenUsed: (id, at) =>
        sql<{ readonly id: string }>`
          UPDATE refresh_tokens SET used_at = ${date(at)}
          WHERE id = ${id} AND used_at IS NULL AND revoked_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      revokeRefreshFamily: (familyId, at) =>
        sql<{ readonly id: string }>`
          UPDATE refresh_tokens SET revoked_at = ${date(at)}
          WHERE family_id = ${familyId} AND revoked_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        ),
      isFamilyRevoked: (familyId) =>
        sql<{ readonly revoked: boolean }>`
          SELECT EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = ${familyId} AND revoked_at IS NOT NULL) AS revoked`.pipe(
          Effect.map((rows) => rows[0]?.revoked === true),
          Effect.orDie
        )
    })
  })
)

export const SqlSettingsStore = Layer.effect(
  SettingsStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const get = (key: string) =>
      sql<{ readonly value: string }>`SELECT value FROM settings WHERE key = ${key}`.pipe(
        Effect.map((rows) => first(rows, (r) => r.value)),
        Effect.orDie
      )
    return SettingsStore.of({
      get,
      putIfAbsent: (key, value) =>
        sql`INSERT INTO settings (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING`.pipe(
          Effect.orDie,
          Effect.andThen(get(key)),
          Effect.map(Option.getOrElse(() => value))
        )
    })
  })
)

interface IdempotencyRow {
  readonly scope: string
  readonly key: string
  readonly requestHash: string
  readonly state: "in_progress" | "completed"
  readonly resourceId: string | null
  readonly responseStatus: number | null
  readonly responseBody: string | null
  readonly lockedUntil: Date
  readonly createdAt: Date
  readonly expiresAt: Date
}
const toIdempotency = (r: IdempotencyRow): IdempotencyRecord => ({
  ...r,
  lockedUntil: utc(r.lockedUntil),
  createdAt: utc(r.createdAt),
  expiresAt: utc(r.expiresAt)
})

export const SqlIdempotencyStore = Layer.effect(
  IdempotencyStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const acquire: IdempotencyStore["Service"]["acquire"] = (r) =>
      Effect.gen(function*() {
        // Insert; or take over a record that expired (afresh), or whose executor's lock lapsed
        // while running this same request (it keeps the record it bound, to be continued).
        const taken = yield* sql<{ readonly resourceId: string | null }>`
          INSERT INTO idempotency_keys (scope, key, request_hash, state, locked_until, created_at, expires_at)
          VALUES (${r.scope}, ${r.key}, ${r.requestHash}, 'in_progress', ${date(r.lockedUntil)}, ${date(r.now)}, ${date(r.expiresAt)})
          ON CONFLICT (scope, key) DO UPDATE SET
            state = 'in_progress', response_status = NULL, response_body = NULL, locked_until = EXCLUDED.locked_until,
            request_hash = CASE WHEN idempotency_keys.expires_at < EXCLUDED.created_at THEN EXCLUDED.request_hash ELSE idempotency_keys.request_hash END,
            resource_id = CASE WHEN idempotency_keys.expires_at < EXCLUDED.created_at THEN NULL ELSE idempotency_keys.resource_id END,
            created_at = CASE WHEN idempotency_keys.expires_at < EXCLUDED.created_at THEN EXCLUDED.created_at ELSE idempotency_keys.created_at END,
            expires_at = CASE WHEN idempotency_keys.expires_at < EXCLUDED.created_at THEN EXCLUDED.expires_at ELSE idempotency_keys.expires_at END
          WHERE idempotency_keys.expires_at < EXCLUDED.created_at
             OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.locked_until < EXCLUDED.created_at
                 AND idempotency_keys.request_hash = EXCLUDED.request_hash)
          RETURNING resource_id`
        if (taken.length === 1) return { _tag: "Acquired", resourceId: taken[0]!.resourceId } as const
        const existing = yield* sql<IdempotencyRow>`
          SELECT * FROM idempotency_keys WHERE scope = ${r.scope} AND key = ${r.key}`
        // Released between our insert and this read: try again.
        if (existing.length === 0) return yield* acquire(r)
        return { _tag: "Existing", record: toIdempotency(existing[0]!) } as const
      }).pipe(Effect.catchTag("SqlError", Effect.die))
    return IdempotencyStore.of({
      acquire,
      bind: (scope, key, resourceId) =>
        write(sql`UPDATE idempotency_keys SET resource_id = ${resourceId} WHERE scope = ${scope} AND key = ${key}`).pipe(Effect.orDie),
      extend: (scope, key, lockedUntil) =>
        sql`UPDATE idempotency_keys SET locked_until = ${date(lockedUntil)}
            WHERE scope = ${scope} AND key = ${key} AND state = 'in_progress'`.pipe(Effect.asVoid, Effect.orDie),
      complete: (scope, key, status, body) =>
        sql`UPDATE idempotency_keys SET state = 'completed', response_status = ${status}, response_body = ${body}
            WHERE scope = ${scope} AND key = ${key}`.pipe(Effect.asVoid, Effect.orDie),
      release: (scope, key) =>
        sql`DELETE FROM idempotency_keys WHERE scope = ${scope} AND key = ${key} AND state = 'in_progress'`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      purgeExpired: (now) =>
        sql<{ readonly key: string }>`DELETE FROM idempotency_keys WHERE expires_at < ${date(now)} RETURNING key`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        )
    })
  })
)
