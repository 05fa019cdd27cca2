/**
 * The audit log on SQL (`audit_log`): rows are only inserted. An append takes the chain's
 * advisory lock for the rest of its transaction, reads the chain's last row and inserts the next,
 * so concurrent changes of one merchant line up one after the other in its chain.
 */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { genesisHash } from "../../../core/audit/Audit.ts"
import { type AuditEntry, AuditStore } from "../../../core/ports/AuditStore.ts"
import { date, utc } from "./Rows.ts"

export interface AuditRow {
  readonly id: string
  readonly chain: string
  readonly seq: string | number
  readonly at: Date
  readonly environment: AuditEntry["environment"]
  readonly merchantId: string | null
  readonly actorKind: AuditEntry["actor"]["kind"]
  readonly actorId: string
  readonly ip: string | null
  readonly operation: string
  readonly objectType: string
  readonly objectId: string
  readonly changes: string
  readonly prevHash: string
  readonly hash: string
  readonly signature: string | null
}

export const toEntry = (r: AuditRow): AuditEntry => ({
  id: r.id,
  chain: r.chain,
  seq: Number(r.seq),
  at: utc(r.at),
  environment: r.environment,
  merchantId: r.merchantId,
  actor: { kind: r.actorKind, id: r.actorId },
  ip: r.ip,
  operation: r.operation,
  object: { type: r.objectType, id: r.objectId },
  changes: JSON.parse(r.changes) as AuditEntry["changes"],
  prevHash: r.prevHash,
  hash: r.hash,
  signature: r.signature
})

export const SqlAuditStore = Layer.effect(
  AuditStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return AuditStore.of({
      append: (chain, build) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`audit:${chain}`}))`
          const [last] = yield* sql<{ readonly seq: string | number; readonly hash: string }>`
            SELECT seq, hash FROM audit_log WHERE chain = ${chain} ORDER BY seq DESC LIMIT 1`
          const entry = yield* build(last === undefined ? 1 : Number(last.seq) + 1, last?.hash ?? genesisHash)
          yield* sql`INSERT INTO audit_log ${
            sql.insert({
              id: entry.id,
              chain: entry.chain,
              seq: entry.seq,
              at: date(entry.at),
              environment: entry.environment,
              merchantId: entry.merchantId,
              actorKind: entry.actor.kind,
              actorId: entry.actor.id,
              ip: entry.ip,
              operation: entry.operation,
              objectType: entry.object.type,
              objectId: entry.object.id,
              changes: JSON.stringify(entry.changes),
              prevHash: entry.prevHash,
              hash: entry.hash,
              signature: entry.signature
            })
          }`
          return entry
        })).pipe(Effect.orDie),
      list: (filter, page) => {
        const where = sql.and([
          filter.chain === undefined ? sql`true` : sql`chain = ${filter.chain}`,
          filter.operation === undefined ? sql`true` : sql`operation = ${filter.operation}`,
          filter.objectId === undefined ? sql`true` : sql`object_id = ${filter.objectId}`
        ])
        return Effect.all([
          sql<AuditRow>`SELECT * FROM audit_log WHERE ${where} ORDER BY at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ readonly n: string | number }>`SELECT count(*) AS n FROM audit_log WHERE ${where}`
        ]).pipe(
          Effect.map(([rows, [count]]) => ({ rows: rows.map(toEntry), total: Number(count?.n ?? 0) })),
          Effect.orDie
        )
      },
      chainOf: (chain) =>
        sql<AuditRow>`SELECT * FROM audit_log WHERE chain = ${chain} ORDER BY seq`.pipe(Effect.map((rows) => rows.map(toEntry)), Effect.orDie),
      chains: sql<{ readonly chain: string }>`SELECT DISTINCT chain FROM audit_log ORDER BY chain`.pipe(
        Effect.map((rows) => rows.map((r) => r.chain)),
        Effect.orDie
      ),
      prune: (chain, before, sign) =>
        sql.withTransaction(Effect.gen(function*() {
          // The chain's lock: no append lands between the last row read and its deletion.
          yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`audit:${chain}`}))`
          const [last] = yield* sql<AuditRow>`
            SELECT * FROM audit_log WHERE chain = ${chain} AND at < ${date(before)} ORDER BY seq DESC LIMIT 1`
          if (last === undefined) return 0
          const entry = toEntry(last)
          const checkpoint = yield* sign(entry)
          const deleted = yield* sql<{ readonly seq: string | number }>`DELETE FROM audit_log WHERE chain = ${chain} AND seq <= ${entry.seq} RETURNING seq`
          yield* sql`INSERT INTO audit_checkpoints ${sql.insert({ chain, seq: checkpoint.seq, hash: checkpoint.hash, signature: checkpoint.signature })}
            ON CONFLICT (chain) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash, signature = EXCLUDED.signature`
          return deleted.length
        })).pipe(Effect.orDie),
      checkpoint: (chain) =>
        sql<{ readonly chain: string; readonly seq: string | number; readonly hash: string; readonly signature: string | null }>`
          SELECT * FROM audit_checkpoints WHERE chain = ${chain}`.pipe(
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map((r) => ({ ...r, seq: Number(r.seq) })))),
          Effect.orDie
        )
    })
  })
)
