/** The idempotency-key store on SQL: one row per (scope, key), claimed with a lease. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type IdempotencyRecord, IdempotencyStore, KeyTaken } from "../../../core/ports/IdempotencyStore.ts"
import { completeKeyStatement } from "./IdempotencyKeySql.ts"
import { date, utc } from "./Rows.ts"
import { write } from "./SqlTransactions.ts"

interface IdempotencyRow {
  readonly scope: string
  readonly key: string
  readonly requestHash: string
  readonly state: "in_progress" | "completed"
  readonly holder: string | null
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
          INSERT INTO idempotency_keys (scope, key, request_hash, state, holder, locked_until, created_at, expires_at)
          VALUES (${r.scope}, ${r.key}, ${r.requestHash}, 'in_progress', ${r.holder}, ${date(r.lockedUntil)}, ${date(r.now)}, ${date(r.expiresAt)})
          ON CONFLICT (scope, key) DO UPDATE SET
            state = 'in_progress', response_status = NULL, response_body = NULL, holder = EXCLUDED.holder, locked_until = EXCLUDED.locked_until,
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
      claim: (r) =>
        write(
          sql`INSERT INTO idempotency_keys (scope, key, request_hash, state, holder, resource_id, locked_until, created_at, expires_at)
              VALUES (${r.scope}, ${r.key}, ${r.requestHash}, 'in_progress', ${r.holder}, ${r.resourceId}, ${date(r.lockedUntil)},
                      ${date(r.now)}, ${date(r.expiresAt)})`,
          (e) => e.reason._tag === "UniqueViolation" && e.reason.constraint === "idempotency_keys_pkey" ? new KeyTaken() : undefined
        ).pipe(Effect.catchTag("SqlError", Effect.die)),
      bind: (scope, key, resourceId) =>
        write(sql`UPDATE idempotency_keys SET resource_id = ${resourceId} WHERE scope = ${scope} AND key = ${key}`).pipe(Effect.orDie),
      extend: (scope, key, holder, lockedUntil) =>
        sql`UPDATE idempotency_keys SET locked_until = ${date(lockedUntil)}
            WHERE scope = ${scope} AND key = ${key} AND state = 'in_progress' AND holder = ${holder}`.pipe(Effect.asVoid, Effect.orDie),
      complete: (scope, key, responseStatus, responseBody) =>
        completeKeyStatement(sql, { scope, key, responseStatus, responseBody }).pipe(Effect.asVoid, Effect.orDie),
      release: (scope, key, holder) =>
        sql`DELETE FROM idempotency_keys WHERE scope = ${scope} AND key = ${key} AND state = 'in_progress' AND holder = ${holder}`.pipe(
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
