/**
 * What a reconciliation keeps: the reports imported, and the discrepancies their
 * matching found, each with both sides, resolved by an operator with a note.
 */
import { Schema } from "effect"
import { Environment } from "../Environment.ts"

const Decimal = Schema.BigDecimal
const Instant = Schema.DateTimeUtc

export const DiscrepancyKind = Schema.Literals([
  "unknown_to_engine",
  "missing_from_report",
  "status_differs",
  "amount_differs",
  "fee_differs",
  "duplicate"
])

/** The provider's side: one line of its report, as parsed (`core/ports/ProviderReports.ts`). */
export const ReportLineRecord = Schema.Struct({
  line: Schema.Int,
  kind: Schema.Literals(["payment", "refund", "chargeback", "fee", "payout", "adjustment"]),
  providerRef: Schema.NullOr(Schema.String),
  reference: Schema.NullOr(Schema.String),
  status: Schema.String,
  normalized: Schema.Literals(["captured", "pending", "failed", "refunded", "charged_back", "settled", "other"]),
  amount: Decimal,
  currency: Schema.String,
  fee: Schema.NullOr(Decimal),
  feeCurrency: Schema.NullOr(Schema.String),
  occurredAt: Schema.NullOr(Instant)
})

/** The engine's side: its payment or refund as the report should show it (`Matching.EngineRecord`). */
export const EngineRecordSnapshot = Schema.Struct({
  kind: Schema.Literals(["payment", "refund"]),
  id: Schema.String,
  shopId: Schema.String,
  paymentId: Schema.NullOr(Schema.String),
  providerRef: Schema.NullOr(Schema.String),
  reference: Schema.String,
  moved: Schema.Boolean,
  status: Schema.String,
  amount: Decimal,
  currency: Schema.String,
  fee: Schema.NullOr(Schema.Struct({ usd: Decimal, localPerUsd: Decimal })),
  clearingUsd: Decimal,
  movedAt: Schema.NullOr(Instant)
})

/** The outcomes of one report's lines, counted. */
export const ReportCounts = Schema.Struct({
  lines: Schema.Int,
  matched: Schema.Int,
  /** Lines about neither a payment nor a refund (fees, payouts, adjustments): not matched to a record. */
  unmatchable: Schema.Int,
  discrepancies: Schema.Record(Schema.String, Schema.Int)
})

/** How the report explains the provider clearing account (`Clearing.explain`). */
export const ClearingExplanation = Schema.Struct({
  byCurrency: Schema.Array(Schema.Struct({
    currency: Schema.String,
    engineExpects: Decimal,
    providerReported: Decimal,
    pendingAtProvider: Decimal,
    discrepancies: Decimal
  })),
  /** What the report's records put in the ledger's `provider_clearing` book, USD (negative: owed by the provider). */
  clearingUsd: Decimal
})

export const ReconciliationReport = Schema.Struct({
  id: Schema.String,
  environment: Environment,
  /** The provider id (a configured connector instance) whose report it is. */
  provider: Schema.String,
  /** The format's name (`settlement-cross-border-csv`, ...). */
  format: Schema.String,
  /** SHA-256 of the file, hex: the same file imported again is this report. */
  fileSha256: Schema.String,
  source: Schema.Literals(["upload", "fetch"]),
  periodStart: Instant,
  periodEnd: Instant,
  counts: ReportCounts,
  clearing: ClearingExplanation,
  createdAt: Instant
})
export type ReconciliationReport = typeof ReconciliationReport.Type
export const ReconciliationReportJson = Schema.toCodecJson(ReconciliationReport)

export const DiscrepancyStatus = Schema.Literals(["open", "resolved"])

export const Discrepancy = Schema.Struct({
  id: Schema.String,
  environment: Environment,
  provider: Schema.String,
  kind: DiscrepancyKind,
  status: DiscrepancyStatus,
  /** The report that found it first. */
  reportId: Schema.String,
  /** Identity across reports: the same discrepancy found again by another report is this one. */
  dedupeKey: Schema.String,
  /** The shop of the engine's record, when there is one. */
  shopId: Schema.NullOr(Schema.String),
  detail: Schema.String,
  line: Schema.NullOr(ReportLineRecord),
  record: Schema.NullOr(EngineRecordSnapshot),
  /** The operator's note, once resolved. */
  resolution: Schema.NullOr(Schema.String),
  resolvedBy: Schema.NullOr(Schema.String),
  resolvedAt: Schema.NullOr(Instant),
  /** The journal entry a resolution booked, when money had to move. */
  adjustmentEntryId: Schema.NullOr(Schema.String),
  createdAt: Instant,
  version: Schema.Int
})
export type Discrepancy = typeof Discrepancy.Type
export const DiscrepancyJson = Schema.toCodecJson(Discrepancy)
