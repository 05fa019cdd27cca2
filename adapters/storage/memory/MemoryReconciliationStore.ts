/** The reconciliation store in memory: reports by file, discrepancies by dedupe key, and the engine's records of a provider. */
import { DateTime, Effect, Layer, Option } from "effect"
import type { Claim } from "../../../core/refunds/Claim.ts"
import type { Payment } from "../../../core/payments/Payment.ts"
import { ReconciliationStore } from "../../../core/ports/ReconciliationStore.ts"
import type { Discrepancy, ReconciliationReport } from "../../../core/reconciliation/Discrepancy.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { newestFirst } from "./MemoryRows.ts"

const within = (t: DateTime.Utc | null, from: DateTime.Utc, to: DateTime.Utc) =>
  t !== null && !DateTime.isLessThan(t, from) && DateTime.isLessThan(t, to)

export const MemoryReconciliationStore = Layer.effect(
  ReconciliationStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const reports = db.table<ReconciliationReport>("reconciliation_reports")
    const reportByFile = db.table<string>("reconciliation_reports_by_file")
    const discrepancies = db.table<Discrepancy>("reconciliation_discrepancies")
    const discrepancyByKey = db.table<string>("reconciliation_discrepancies_by_key")
    // The payment and claim stores' own tables (MemoryPaymentStore, MemoryRefundStore).
    const payments = db.table<Payment>("payments")
    const claims = db.table<Claim>("claims")
    const page = <A extends { createdAt: DateTime.Utc; id: string }>(rows: Array<A>, p: { readonly limit: number; readonly offset: number }) => {
      const sorted = rows.sort(newestFirst)
      return { rows: sorted.slice(p.offset, p.offset + p.limit), total: sorted.length }
    }
    return ReconciliationStore.of({
      insertReport: (report) =>
        db.run(Effect.sync(() => {
          const file = `${report.environment}|${report.provider}|${report.fileSha256}`
          const existing = reportByFile.get(file)
          if (existing !== undefined) return Option.some(reports.get(existing)!)
          reports.set(report.id, report)
          reportByFile.set(file, report.id)
          return Option.none()
        })),
      findReport: (environment, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(reports.get(id)), (r) => r.environment === environment))),
      listReports: (environment, provider, p) =>
        db.run(Effect.sync(() =>
          page([...reports.values()].filter((r) => r.environment === environment && (provider === undefined || r.provider === provider)), p)
        )),
      records: (environment, provider, q) =>
        db.run(Effect.sync(() => {
          const refs = new Set(q.providerRefs)
          const ids = new Set(q.ids)
          const ofProvider = new Map<string, Payment>()
          for (const p of payments.values()) if (p.environment === environment && p.provider === provider) ofProvider.set(p.id, p)
          return {
            payments: [...ofProvider.values()].filter((p) => refs.has(p.providerRef) || ids.has(p.id) || within(p.completedAt, q.movedFrom, q.movedTo)),
            refunds: [...claims.values()].filter((c) =>
              c.environment === environment && c.kind === "user_dispute" && ofProvider.has(c.transactionId) &&
              ((c.providerRef !== null && refs.has(c.providerRef)) || ids.has(c.id) || refs.has(ofProvider.get(c.transactionId)!.providerRef) ||
                ids.has(c.transactionId) || (c.status === "approved" && within(c.resolvedAt, q.movedFrom, q.movedTo)))
            )
          }
        })),
      addDiscrepancies: (found) =>
        db.run(Effect.sync(() => {
          let added = 0
          for (const d of found) {
            const key = `${d.environment}|${d.provider}|${d.dedupeKey}`
            if (discrepancyByKey.has(key)) continue
            discrepancyByKey.set(key, d.id)
            discrepancies.set(d.id, d)
            added++
          }
          return added
        })),
      findDiscrepancy: (environment, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(discrepancies.get(id)), (d) => d.environment === environment))),
      listDiscrepancies: (environment, f, p) =>
        db.run(Effect.sync(() =>
          page(
            [...discrepancies.values()].filter((d) =>
              d.environment === environment && (f.provider === undefined || d.provider === f.provider) && (f.kind === undefined || d.kind === f.kind) &&
              (f.status === undefined || d.status === f.status) && (f.reportId === undefined || d.reportId === f.reportId) &&
              (f.shopId === undefined || d.shopId === f.shopId)
            ),
            p
          )
        )),
      updateDiscrepancy: (d) =>
        db.run(Effect.sync(() => {
          const current = discrepancies.get(d.id)
          if (current === undefined || current.version !== d.version - 1) return false
          discrepancies.set(d.id, d)
          return true
        }))
    })
  })
)
