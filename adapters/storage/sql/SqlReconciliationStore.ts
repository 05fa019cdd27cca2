/**
 * The reconciliation store on SQL: reports (one per file: a unique index on its hash)
 * and discrepancies (one per finding: a unique index on its dedupe key) as JSON documents, and
 * the engine's records of a provider read by the references a report names or the period it covers.
 */
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { ClaimJson } from "../../../core/refunds/Claim.ts"
import { PaymentJson } from "../../../core/payments/Payment.ts"
import { ReconciliationStore } from "../../../core/ports/ReconciliationStore.ts"
import { DiscrepancyJson, ReconciliationReportJson } from "../../../core/reconciliation/Discrepancy.ts"
import { jsonDocuments } from "./JsonDocuments.ts"
import { date } from "./Rows.ts"

const decodePayment = Schema.decodeUnknownSync(PaymentJson)
const decodeClaim = Schema.decodeUnknownSync(ClaimJson)
const decodeReport = Schema.decodeUnknownSync(ReconciliationReportJson)
const encodeReport = Schema.encodeSync(ReconciliationReportJson)
const encodeDiscrepancy = Schema.encodeSync(DiscrepancyJson)

export const SqlReconciliationStore = Layer.effect(
  ReconciliationStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const discrepancies = jsonDocuments(sql, "reconciliation_discrepancies", DiscrepancyJson)
    const reports = (where: Statement.Fragment, tail: Statement.Fragment = sql``) =>
      sql<{ readonly data: unknown }>`SELECT data FROM reconciliation_reports WHERE ${where} ${tail}`.pipe(
        Effect.map((rows) => rows.map((r) => decodeReport(r.data))),
        Effect.orDie
      )
    // A list of any length as one parameter: the texts of a JSON array.
    const texts = (values: ReadonlyArray<string>) => sql`(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`
    return ReconciliationStore.of({
      insertReport: (report) =>
        sql<{ readonly id: string }>`
          INSERT INTO reconciliation_reports ${sql.insert({
            id: report.id,
            environment: report.environment,
            provider: report.provider,
            fileSha256: report.fileSha256,
            createdAt: date(report.createdAt),
            data: JSON.stringify(encodeReport(report))
          })}
          ON CONFLICT (environment, provider, file_sha256) DO NOTHING RETURNING id`.pipe(
          Effect.flatMap((inserted) =>
            inserted.length === 1 ? Effect.succeedNone : Effect.map(
              reports(sql`environment = ${report.environment} AND provider = ${report.provider} AND file_sha256 = ${report.fileSha256}`),
              (rows) => Option.fromNullishOr(rows[0])
            )
          ),
          Effect.orDie
        ),
      findReport: (environment, id) => Effect.map(reports(sql`environment = ${environment} AND id = ${id}`), (rows) => Option.fromNullishOr(rows[0])),
      listReports: (environment, provider, page) => {
        const where = provider === undefined ? sql`environment = ${environment}` : sql`environment = ${environment} AND provider = ${provider}`
        return Effect.all({
          rows: reports(where, sql`ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`),
          total: sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM reconciliation_reports WHERE ${where}`.pipe(
            Effect.map((r) => r[0]?.n ?? 0),
            Effect.orDie
          )
        })
      },
      records: (environment, provider, q) =>
        Effect.all({
          payments: sql<{ readonly data: unknown }>`
            SELECT data FROM payments
            WHERE environment = ${environment} AND data->>'provider' = ${provider}
              AND (data->>'providerRef' IN ${texts(q.providerRefs)} OR id IN ${texts(q.ids)}
                OR (data->>'completedAt' >= ${isoText(q.movedFrom)} AND data->>'completedAt' < ${isoText(q.movedTo)}))`.pipe(
            Effect.map((rows) => rows.map((r) => decodePayment(r.data)))
          ),
          refunds: sql<{ readonly data: unknown }>`
            SELECT c.data FROM claims c JOIN payments p ON p.id = c.transaction_id
            WHERE c.environment = ${environment} AND p.data->>'provider' = ${provider} AND c.data->>'kind' = 'user_dispute'
              AND (c.data->>'providerRef' IN ${texts(q.providerRefs)} OR c.id IN ${texts(q.ids)}
                OR p.data->>'providerRef' IN ${texts(q.providerRefs)} OR p.id IN ${texts(q.ids)}
                OR (c.data->>'status' = 'approved' AND c.data->>'resolvedAt' >= ${isoText(q.movedFrom)} AND c.data->>'resolvedAt' < ${isoText(q.movedTo)}))`.pipe(
            Effect.map((rows) => rows.map((r) => decodeClaim(r.data)))
          )
        }).pipe(Effect.orDie),
      addDiscrepancies: (found) =>
        Effect.forEach(
          Arr.chunksOf(found, 1000),
          (chunk) =>
            sql<{ readonly id: string }>`
              INSERT INTO reconciliation_discrepancies ${sql.insert(Arr.map(chunk, (d): Record<string, unknown> => ({
                id: d.id,
                environment: d.environment,
                provider: d.provider,
                dedupeKey: d.dedupeKey,
                kind: d.kind,
                status: d.status,
                reportId: d.reportId,
                shopId: d.shopId,
                version: d.version,
                createdAt: date(d.createdAt),
                data: JSON.stringify(encodeDiscrepancy(d))
              })))}
              ON CONFLICT (environment, provider, dedupe_key) DO NOTHING RETURNING id`.pipe(Effect.map((rows) => rows.length))
        ).pipe(Effect.map((counts) => counts.reduce((a, b) => a + b, 0)), Effect.orDie),
      findDiscrepancy: (environment, id) => discrepancies.first(sql`environment = ${environment} AND id = ${id}`),
      listDiscrepancies: (environment, filter, page) =>
        discrepancies.page(
          sql.and([
            sql`environment = ${environment}`,
            ...(filter.provider === undefined ? [] : [sql`provider = ${filter.provider}`]),
            ...(filter.kind === undefined ? [] : [sql`kind = ${filter.kind}`]),
            ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`]),
            ...(filter.reportId === undefined ? [] : [sql`report_id = ${filter.reportId}`]),
            ...(filter.shopId === undefined ? [] : [sql`shop_id = ${filter.shopId}`])
          ]),
          page
        ),
      updateDiscrepancy: (d) => discrepancies.update(d, d.id, d.version, sql`, status = ${d.status}`)
    })
  })
)

/** An instant as the JSON documents store it (`DateTime.formatIso`): comparable as text. */
const isoText = (t: Parameters<typeof date>[0]) => date(t).toISOString()
