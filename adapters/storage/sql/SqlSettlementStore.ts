/**
 * The settlement store on SQL: schedules and batches as versioned JSON documents, and
 * `settlement_lines`, whose primary key (the journal entry) makes "every entry in one batch at
 * most" a constraint of the database.
 */
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { SettlementStore } from "../../../core/ports/SettlementStore.ts"
import { SettlementScheduleJson } from "../../../core/settlements/Schedule.ts"
import { SettlementBatchJson, sweepKind } from "../../../core/settlements/Settlement.ts"
import { StatementLine, upgradeStoredLine } from "../../../core/settlements/Statement.ts"
import { jsonDocuments } from "./JsonDocuments.ts"
import { date } from "./Rows.ts"
import { type EntryRow, entryOf, postingsJson } from "./SqlLedgerStore.ts"

const LineJson = Schema.toCodecJson(StatementLine)
const encodeLine = Schema.encodeSync(LineJson)
const decodeLine = Schema.decodeUnknownSync(LineJson)

export const SqlSettlementStore = Layer.effect(
  SettlementStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const batches = jsonDocuments(sql, "settlement_batches", SettlementBatchJson)
    const decodeSchedule = Schema.decodeUnknownSync(SettlementScheduleJson)
    const encodeSchedule = Schema.encodeSync(SettlementScheduleJson)
    return SettlementStore.of({
      schedule: (environment, shopId) =>
        sql<{ readonly data: unknown }>`SELECT data FROM settlement_schedules WHERE environment = ${environment} AND shop_id = ${shopId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (r) => decodeSchedule(r.data))),
          Effect.orDie
        ),
      putSchedule: (s) =>
        sql`INSERT INTO settlement_schedules (environment, shop_id, version, data)
            VALUES (${s.environment}, ${s.shopId}, ${s.version}, ${JSON.stringify(encodeSchedule(s))})
            ON CONFLICT (environment, shop_id) DO UPDATE SET version = EXCLUDED.version, data = EXCLUDED.data`.pipe(Effect.asVoid, Effect.orDie),
      insert: (b) =>
        batches.insert(b, {
          id: b.id,
          environment: b.environment,
          shopId: b.shopId,
          status: b.status,
          provider: b.provider,
          providerRef: b.providerRef,
          version: b.version,
          createdAt: date(b.createdAt)
        }),
      update: (b) => batches.update(b, b.id, b.version, sql`, status = ${b.status}, provider = ${b.provider}, provider_ref = ${b.providerRef}`),
      find: (environment, shopId, id) => batches.first(sql`id = ${id} AND environment = ${environment} AND shop_id = ${shopId}`),
      findById: (id) => batches.first(sql`id = ${id}`),
      findByProviderRef: (provider, providerRef) => batches.first(sql`provider = ${provider} AND provider_ref = ${providerRef}`),
      open: (environment, shopId) => batches.first(sql`environment = ${environment} AND shop_id = ${shopId} AND status = 'open'`),
      list: (environment, shopId, page) => batches.page(sql`environment = ${environment} AND shop_id = ${shopId}`, page),
      unbatched: (environment, shopId) =>
        sql<EntryRow>`
          SELECT e.*, ${sql.literal(postingsJson)}
          FROM journal_entries e
          WHERE e.environment = ${environment} AND e.shop_id = ${shopId} AND e.kind <> ${sweepKind}
            AND EXISTS (SELECT 1 FROM postings p WHERE p.entry_id = e.id AND p.book = 'payin_available' AND p.currency = 'USD')
            AND NOT EXISTS (SELECT 1 FROM settlement_lines l WHERE l.entry_id = e.id)
          ORDER BY e.created_at, e.id`.pipe(
          Effect.map((rows) => rows.map(entryOf)),
          Effect.orDie
        ),
      addLines: (batchId, lines) =>
        Effect.forEach(
          Arr.chunksOf(lines.map((l, seq) => ({ entryId: l.entryId, batchId, seq, line: JSON.stringify(encodeLine(l.line)) })), 1000),
          (chunk) => sql`INSERT INTO settlement_lines ${sql.insert(chunk)}`,
          { discard: true }
        ).pipe(Effect.orDie),
      lines: (batchId) =>
        sql<{ readonly line: unknown }>`SELECT line FROM settlement_lines WHERE batch_id = ${batchId} ORDER BY seq`.pipe(
          Effect.map((rows) => rows.map((r) => decodeLine(upgradeStoredLine(r.line)))),
          Effect.orDie
        )
    })
  })
)
