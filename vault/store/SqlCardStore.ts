/** `CardStore` on PostgreSQL (a server, or embedded PGlite) through effect/sql. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { CardBrand } from "../../core/ports/CardVault.ts"
import { type AuditEntry, type CardRecord, CardStore, StoreUnavailable } from "./CardStore.ts"

interface CardRow {
  readonly token: string
  readonly merchant_id: string
  readonly brand: string
  readonly bin: string
  readonly last4: string
  readonly fingerprint: string
  readonly key_id: string
  readonly wrapped_key: string
  readonly sealed: string
  readonly created_at: Date | string
}

interface AuditRow {
  readonly at: Date | string
  readonly action: string
  readonly actor: string
  readonly merchant_id: string
  readonly token: string
  readonly provider_id: string | null
  readonly host: string | null
}

const unavailable = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.mapError(effect, () => new StoreUnavailable({ message: "the vault's database did not answer" }))

const toRecord = (row: CardRow): CardRecord => ({
  token: row.token,
  merchantId: row.merchant_id,
  brand: row.brand as CardBrand,
  bin: row.bin,
  last4: row.last4,
  fingerprint: row.fingerprint,
  keyId: row.key_id,
  wrappedKey: row.wrapped_key,
  sealed: row.sealed,
  createdAt: new Date(row.created_at)
})

export const layer = Layer.effect(CardStore, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return CardStore.of({
    insert: (r) =>
      unavailable(sql`INSERT INTO vault_cards (token, merchant_id, brand, bin, last4, fingerprint, key_id, wrapped_key, sealed, created_at)
        VALUES (${r.token}, ${r.merchantId}, ${r.brand}, ${r.bin}, ${r.last4}, ${r.fingerprint}, ${r.keyId}, ${r.wrappedKey}, ${r.sealed}, ${r.createdAt})`),
    find: (token) =>
      unavailable(Effect.map(sql<CardRow>`SELECT * FROM vault_cards WHERE token = ${token}`, (rows) => rows[0] === undefined ? undefined : toRecord(rows[0]))),
    wrappedOtherThan: (keyId, limit) =>
      unavailable(Effect.map(
        sql<Pick<CardRow, "token" | "key_id" | "wrapped_key">>`SELECT token, key_id, wrapped_key FROM vault_cards WHERE key_id <> ${keyId} ORDER BY token LIMIT ${limit}`,
        (rows) => rows.map((row) => ({ token: row.token, keyId: row.key_id, wrappedKey: row.wrapped_key }))
      )),
    rewrap: (token, fromKeyId, toKeyId, wrappedKey) =>
      unavailable(Effect.map(
        sql<{ token: string }>`UPDATE vault_cards SET key_id = ${toKeyId}, wrapped_key = ${wrappedKey} WHERE token = ${token} AND key_id = ${fromKeyId} RETURNING token`,
        (rows) => rows.length === 1
      )),
    appendAudit: (e) =>
      unavailable(sql`INSERT INTO vault_audit (at, action, actor, merchant_id, token, provider_id, host)
        VALUES (${e.at}, ${e.action}, ${e.actor}, ${e.merchantId}, ${e.token}, ${e.providerId}, ${e.host})`),
    audit: (token) =>
      unavailable(Effect.map(sql<AuditRow>`SELECT * FROM vault_audit WHERE token = ${token} ORDER BY id`, (rows) =>
        rows.map((row): AuditEntry => ({
          at: new Date(row.at),
          action: row.action as AuditEntry["action"],
          actor: row.actor,
          merchantId: row.merchant_id,
          token: row.token,
          providerId: row.provider_id,
          host: row.host
        }))))
  })
}))
