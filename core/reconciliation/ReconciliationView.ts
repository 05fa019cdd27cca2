/** The operator API's shapes of reports and discrepancies (`/admin/v1/reconciliation`). */
import { BigDecimal, DateTime } from "effect"
import * as Money from "../Money.ts"
import type { Discrepancy, ReconciliationReport } from "./Discrepancy.ts"

const text = Money.toText
const instant = DateTime.formatIso
const instantOrNull = (t: DateTime.Utc | null) => t === null ? null : instant(t)

export const reportView = (r: ReconciliationReport, imported: boolean) => ({
  id: r.id,
  environment: r.environment,
  provider: r.provider,
  format: r.format,
  fileSha256: r.fileSha256,
  source: r.source,
  period: { start: instant(r.periodStart), end: instant(r.periodEnd) },
  counts: r.counts,
  clearing: {
    byCurrency: r.clearing.byCurrency.map((c) => ({
      currency: c.currency,
      engineExpects: text(c.engineExpects),
      providerReported: text(c.providerReported),
      pendingAtProvider: text(c.pendingAtProvider),
      discrepancies: text(c.discrepancies)
    })),
    clearingUsd: text(r.clearing.clearingUsd)
  },
  createdAt: instant(r.createdAt),
  imported
})

export const discrepancyView = (d: Discrepancy) => ({
  id: d.id,
  environment: d.environment,
  provider: d.provider,
  kind: d.kind,
  status: d.status,
  reportId: d.reportId,
  shopId: d.shopId,
  detail: d.detail,
  providerSide: d.line === null ? null : {
    ...d.line,
    amount: text(d.line.amount),
    fee: d.line.fee === null ? null : text(d.line.fee),
    occurredAt: instantOrNull(d.line.occurredAt)
  },
  engineSide: d.record === null ? null : {
    kind: d.record.kind,
    id: d.record.id,
    shopId: d.record.shopId,
    providerRef: d.record.providerRef,
    reference: d.record.reference,
    status: d.record.status,
    moved: d.record.moved,
    amount: text(d.record.amount),
    currency: d.record.currency,
    feeUsd: d.record.fee === null ? null : text(BigDecimal.normalize(d.record.fee.usd)),
    clearingUsd: text(d.record.clearingUsd),
    movedAt: instantOrNull(d.record.movedAt)
  },
  resolution: d.resolvedAt === null ? null : {
    note: d.resolution ?? "",
    by: d.resolvedBy ?? "",
    at: instant(d.resolvedAt),
    adjustmentEntryId: d.adjustmentEntryId
  },
  createdAt: instant(d.createdAt)
})
