/** The credential store on SQL: API keys (hashed secrets, versions) and refresh-token families. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Credential, RefreshToken } from "../../../core/auth/Credential.ts"
import type { Grant } from "../../../core/auth/Permissions.ts"
import type { Environment } from "../../../core/Environment.ts"
import { CredentialStore } from "../../../core/ports/CredentialStore.ts"
import { date, dateOrNull, first, utc, utcOrNull } from "./Rows.ts"

export interface CredentialRow {
  readonly id: string
  readonly merchantId: string
  readonly shopId: string | null
  readonly environment: Environment
  readonly publishableKey: string | null
  readonly secretHash: string
  readonly secretLast4: string
  readonly version: number
  readonly revokedAt: Date | null
  readonly createdAt: Date
  readonly name: string | null
  /** A JSON array of permissions, or null. */
  readonly permissions: string | null
  readonly userId: string | null
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
  createdAt: utc(r.createdAt),
  name: r.name,
  permissions: r.permissions === null ? null : JSON.parse(r.permissions) as ReadonlyArray<Grant>,
  userId: r.userId ?? null
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
        sql`INSERT INTO credentials ${
          sql.insert({ ...c, revokedAt: dateOrNull(c.revokedAt), createdAt: date(c.createdAt), permissions: c.permissions === null ? null : JSON.stringify(c.permissions) })
        }`.pipe(
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
