/**
 * The operator's reconciliation, under `/admin/v1/reconciliation`: the providers'
 * reports (uploaded, or fetched by a run) and the discrepancies their matching found.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { DiscrepancyKind as Kinds } from "../../../core/reconciliation/Discrepancy.ts"
import { Environment, IsoDateTime } from "./Fields.ts"
import { PageQuery, Pagination } from "./PaymentsApi.ts"
import { AdminToken } from "./Security.ts"
import { admin, withErrors } from "./EndpointErrors.ts"

/** Decimal text, exact: report amounts keep the provider's precision. */
const Amount = Schema.String.annotate({ description: "Decimal text, exact (`\"1250.50\"`)" })

export const DiscrepancyKind = Kinds.annotate({
  description: "`unknown_to_engine`: a line no payment or refund of the engine answers (a capture the engine never heard about). " +
    "`missing_from_report`: a record that moved money in the report's period and is not in it. `status_differs`: e.g. the provider " +
    "captured a payment the engine has as failed. `amount_differs`: amount or currency. `fee_differs`: the provider's fee differs from " +
    "the one booked by more than one minor unit (conversion rounding). `duplicate`: a second line for the same record (a refund paid twice)."
})

const ReportQuery = {
  environment: Schema.optional(Environment).annotate({ description: "Default `production`" })
}

export const ReconciliationReportView = Schema.Struct({
  id: Schema.String.annotate({ description: "`rcr_...`" }),
  environment: Environment,
  provider: Schema.String.annotate({ description: "The provider id (a configured connector instance)" }),
  format: Schema.String,
  fileSha256: Schema.String.annotate({ description: "The file's SHA-256: the same file again is this report" }),
  source: Schema.Literals(["upload", "fetch"]),
  period: Schema.Struct({ start: IsoDateTime, end: IsoDateTime }).annotate({ description: "`[start, end)`" }),
  counts: Schema.Struct({
    lines: Schema.Int,
    matched: Schema.Int,
    unmatchable: Schema.Int.annotate({ description: "Lines about neither a payment nor a refund (fees, payouts, adjustments)" }),
    discrepancies: Schema.Record(Schema.String, Schema.Int).annotate({ description: "By kind" })
  }),
  clearing: Schema.Struct({
    byCurrency: Schema.Array(Schema.Struct({
      currency: Schema.String,
      engineExpects: Amount.annotate({ description: "Payments completed minus refunds paid, of the records the report is about" }),
      providerReported: Amount.annotate({ description: "Captured minus refunded, as the report says" }),
      pendingAtProvider: Amount.annotate({ description: "Records the engine has as done whose line the provider still has pending" }),
      discrepancies: Amount.annotate({ description: "The engine's side minus the provider's, over the discrepancies found" })
    })).annotate({ description: "Per currency: `engineExpects = providerReported + pendingAtProvider + discrepancies`" }),
    clearingUsd: Amount.annotate({ description: "What the same records booked in the ledger's `provider_clearing` (negative: owed by the provider), USD" })
  }),
  createdAt: IsoDateTime,
  imported: Schema.Boolean.annotate({ description: "false: this very file had been imported before; nothing changed" })
}).annotate({ identifier: "ReconciliationReport" })

const Line = Schema.Struct({
  line: Schema.Int.annotate({ description: "1-based line of the file" }),
  kind: Schema.String,
  providerRef: Schema.NullOr(Schema.String),
  reference: Schema.NullOr(Schema.String),
  status: Schema.String.annotate({ description: "The provider's own status text" }),
  normalized: Schema.String,
  amount: Amount,
  currency: Schema.String,
  fee: Schema.NullOr(Amount),
  feeCurrency: Schema.NullOr(Schema.String),
  occurredAt: Schema.NullOr(IsoDateTime)
})

const Record = Schema.Struct({
  kind: Schema.Literals(["payment", "refund"]),
  id: Schema.String.annotate({ description: "`TXN-...` or `CLM-...`" }),
  shopId: Schema.String,
  providerRef: Schema.NullOr(Schema.String),
  reference: Schema.String,
  status: Schema.String,
  moved: Schema.Boolean.annotate({ description: "Whether money moved at the provider in the engine's books" }),
  amount: Amount,
  currency: Schema.String,
  feeUsd: Schema.NullOr(Amount),
  clearingUsd: Amount,
  movedAt: Schema.NullOr(IsoDateTime)
})

export const DiscrepancyView = Schema.Struct({
  id: Schema.String.annotate({ description: "`rcd_...`" }),
  environment: Environment,
  provider: Schema.String,
  kind: DiscrepancyKind,
  status: Schema.Literals(["open", "resolved"]),
  reportId: Schema.String.annotate({ description: "The report that found it first" }),
  shopId: Schema.NullOr(Schema.String),
  detail: Schema.String,
  providerSide: Schema.NullOr(Line).annotate({ description: "The report's line, as parsed" }),
  engineSide: Schema.NullOr(Record).annotate({ description: "The engine's record, as matched" }),
  resolution: Schema.NullOr(Schema.Struct({
    note: Schema.String,
    by: Schema.String,
    at: IsoDateTime,
    adjustmentEntryId: Schema.NullOr(Schema.String).annotate({ description: "The journal entry booked, when money moved" })
  })),
  createdAt: IsoDateTime
}).annotate({ identifier: "ReconciliationDiscrepancy" })

const Id = { id: Schema.String }

export class ReconciliationAdminApi extends HttpApiGroup.make("reconciliationAdmin")
  .add(
    HttpApiEndpoint.post("upload", "/reconciliation/reports", {
      query: {
        ...ReportQuery,
        provider: Schema.String.annotate({ description: "The provider id the file is from" }),
        format: Schema.String.annotate({ description: "The format's name, e.g. `settlement-cross-border-csv` (dLocal), `release-report-csv` (Mercado Pago)" }),
        periodStart: Schema.optional(Schema.DateTimeUtcFromString).annotate({ description: "ISO 8601; default: the first UTC day of the lines" }),
        periodEnd: Schema.optional(Schema.DateTimeUtcFromString).annotate({ description: "ISO 8601, exclusive; default: the day after the last line's" })
      },
      payload: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })).annotate({
        description: "The provider's file as received, of any Content-Type (`--data-binary @report.csv`), up to 32 MiB"
      }),
      success: ReconciliationReportView
    }).annotate(
      OpenApi.Description,
      "Imports a provider's report file and matches it with the engine's payments and refunds of that provider. All or nothing: a malformed file is " +
        "`400 report_malformed` naming the line and the column, and nothing is imported. The same file again answers the same report with " +
        "`imported: false` and changes nothing; a discrepancy found again by another report (an overlapping period) is the same discrepancy."
    ),
    HttpApiEndpoint.post("run", "/reconciliation/runs", {
      query: ReportQuery,
      payload: Schema.Struct({
        provider: Schema.String,
        periodStart: Schema.DateTimeUtcFromString.annotate({ description: "ISO 8601" }),
        periodEnd: Schema.DateTimeUtcFromString.annotate({ description: "ISO 8601, exclusive" })
      }),
      success: ReconciliationReportView
    }).annotate(
      OpenApi.Description,
      "Fetches the provider's report for the period from its reports API and imports it, as the daily scheduled run does (once a day per provider, " +
        "after the provider's report delay). A provider without a reports API is `422 report_source_unavailable`; one whose API does not answer " +
        "`502 report_unavailable`. Idempotent: the same report fetched again changes nothing."
    ),
    HttpApiEndpoint.get("listReports", "/reconciliation/reports", {
      query: { ...ReportQuery, ...PageQuery, provider: Schema.optional(Schema.String) },
      success: Schema.Struct({ data: Schema.Array(ReconciliationReportView), pagination: Pagination })
    }).annotate(OpenApi.Description, "Reports imported, newest first."),
    HttpApiEndpoint.get("getReport", "/reconciliation/reports/:id", { params: Id, query: ReportQuery, success: ReconciliationReportView }).annotate(
      OpenApi.Description,
      "One report: its counts, and how it explains the provider clearing account."
    ),
    HttpApiEndpoint.get("listDiscrepancies", "/reconciliation/discrepancies", {
      query: {
        ...ReportQuery,
        ...PageQuery,
        provider: Schema.optional(Schema.String),
        kind: Schema.optional(DiscrepancyKind),
        status: Schema.optional(Schema.Literals(["open", "resolved"])),
        reportId: Schema.optional(Schema.String),
        shopId: Schema.optional(Schema.String)
      },
      success: Schema.Struct({ data: Schema.Array(DiscrepancyView), pagination: Pagination })
    }).annotate(OpenApi.Description, "Discrepancies, newest first, filtered by provider, kind, status, report or shop."),
    HttpApiEndpoint.get("getDiscrepancy", "/reconciliation/discrepancies/:id", { params: Id, query: ReportQuery, success: DiscrepancyView }).annotate(
      OpenApi.Description,
      "One discrepancy with both sides: the provider's line and the engine's record."
    ),
    HttpApiEndpoint.post("resolve", "/reconciliation/discrepancies/:id/resolve", {
      params: Id,
      query: ReportQuery,
      payload: Schema.Struct({
        note: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(2000)).annotate({ description: "What was found and done, 1 to 2000 characters" }),
        resolvedBy: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({ description: "Who resolves it" }),
        writeOffUsd: Schema.optional(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(-1e12), Schema.isLessThanOrEqualTo(1e12))).annotate({
          description: "USD to book: the provider clearing receivable is reduced by it against the platform's fee revenue (negative: the provider owes " +
            "more). A new journal entry `reconciliation.adjustment` on the record's shop, in the same transaction; history is never edited"
        })
      }),
      success: DiscrepancyView
    }).annotate(
      OpenApi.Description,
      "Resolves an open discrepancy with a note, once: a second resolution is `409 discrepancy_resolved`. A write-off needs the engine's record " +
        "(`422 adjustment_needs_record` for a line unknown to the engine)."
    )
  )
  .middleware(AdminToken)
  .prefix("/admin/v1")
  .annotate(OpenApi.Title, "Admin: reconciliation")
  .pipe(withErrors({
    upload: [...admin, "invalid_request", "report_format_unknown", "report_malformed", "payload_too_large"],
    run: [...admin, "invalid_request", "report_format_unknown", "report_malformed", "report_source_unavailable", "report_unavailable"],
    listReports: admin,
    getReport: admin,
    listDiscrepancies: admin,
    getDiscrepancy: admin,
    resolve: [...admin, "invalid_request", "discrepancy_resolved", "adjustment_needs_record"]
  }))
{}
