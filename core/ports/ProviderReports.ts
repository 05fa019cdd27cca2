/**
 * The contract of a provider report format (reconciliation): how a connector reads the
 * settlement or transactions report its provider sends (a file in the provider's documented CSV or
 * JSON format), line by line, into what the engine compares with its own records.
 *
 * A parser is all or nothing: a file with one malformed line is refused whole, naming the line
 * and the column, so that nothing is half-imported.
 */
import type { BigDecimal, DateTime, Duration, Effect, Result } from "effect"
import { Context, Layer, Schema } from "effect"
import type { Environment } from "../Environment.ts"

/** What a report line is about, in the engine's words. */
export type ReportLineKind = "payment" | "refund" | "chargeback" | "fee" | "payout" | "adjustment"

/** The provider's status of the line, in the engine's words; `other` keeps the provider's own in `status`. */
export type ReportStatus = "captured" | "pending" | "failed" | "refunded" | "charged_back" | "settled" | "other"

export interface ReportLine {
  /** 1-based line number in the file (the header is line 1 of a CSV). */
  readonly line: number
  readonly kind: ReportLineKind
  /** The provider's id of the transaction (dLocal's `id`, Mercado Pago's `SOURCE_ID`...). */
  readonly providerRef: string | null
  /**
   * The reference the engine sent the provider: the upstream idempotency key or the order id the
   * provider echoes (dLocal's `order_id`, Mercado Pago's `EXTERNAL_REFERENCE`), when the report has it.
   */
  readonly reference: string | null
  /** The provider's own status text, as in the file. */
  readonly status: string
  readonly normalized: ReportStatus
  /** Gross amount of the line, unsigned, in `currency` (major units, exact). */
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  /** The provider's fee on the line, unsigned, in `feeCurrency` (often the settlement currency); null when the report has none. */
  readonly fee: BigDecimal.BigDecimal | null
  readonly feeCurrency: string | null
  /** When the provider says it happened (created, approved). */
  readonly occurredAt: DateTime.Utc | null
}

/** The file breaks the documented format: refused whole. */
export class ReportFormatError extends Schema.TaggedError<ReportFormatError>()("ReportFormatError", {
  /** 1-based line of the file. */
  line: Schema.Int,
  /** The column's name as the provider documents it (empty when the whole line is wrong). */
  column: Schema.String,
  message: Schema.String
}) {}

export interface ReportFormat {
  /** The connector kind the format belongs to (`dlocal`, `mercadopago`, `ebanx`...). */
  readonly provider: string
  /** The format's name as an operator names it on upload (`settlement-csv`, `release-report-csv`...). */
  readonly name: string
  /** The provider's documentation of the format, cited. */
  readonly documentation: string
  readonly parse: (text: string) => Result.Result<ReadonlyArray<ReportLine>, ReportFormatError>
}

/** The provider's reports API did not answer with the report (down, not ready yet, refused). */
export class ReportUnavailable extends Schema.TaggedError<ReportUnavailable>()("ReportUnavailable", {
  provider: Schema.String,
  reason: Schema.String
}) {}

/** The period a report covers, `[start, end)`. */
export interface ReportPeriod {
  readonly start: DateTime.Utc
  readonly end: DateTime.Utc
}

/**
 * A connector's way to fetch its provider's report for a period, where the provider has a reports
 * API (Mercado Pago's release report API). Providers that only e-mail or SFTP their reports have
 * none: their files are uploaded by an operator.
 */
export interface ReportSource {
  /** The format of what `fetch` answers. */
  readonly format: ReportFormat
  /** How long after a period ends the provider's report for it is complete (its documented delay). */
  readonly delay: Duration.Duration
  /** The report's file text for the period, asked with the connector's own credentials. */
  readonly fetch: (period: ReportPeriod) => Effect.Effect<string, ReportUnavailable>
}

/** One provider instance's reports: the formats an operator may upload, and its reports API if it has one. */
export interface ProviderReportsEntry {
  /** The provider id (a configured connector instance). */
  readonly provider: string
  readonly environment: Environment
  readonly formats: ReadonlyArray<ReportFormat>
  readonly source: ReportSource | null
}

/** The report formats and sources of the configured providers, by environment and provider id. */
export class ProviderReports extends Context.Service<ProviderReports, {
  readonly entry: (environment: Environment, provider: string) => ProviderReportsEntry | undefined
  /** Every instance with a reports API: the scheduled runs' work. */
  readonly sources: ReadonlyArray<ProviderReportsEntry & { readonly source: ReportSource }>
}>()("core/ports/ProviderReports") {
  static readonly layer = (entries: ReadonlyArray<ProviderReportsEntry>) =>
    Layer.succeed(ProviderReports, ProviderReports.of({
      entry: (environment, provider) => entries.find((e) => e.environment === environment && e.provider === provider),
      sources: entries.filter((e): e is ProviderReportsEntry & { readonly source: ReportSource } => e.source !== null)
    }))
  /** No provider reports: every upload and run answers that the provider has none. */
  static readonly none = ProviderReports.layer([])
}
