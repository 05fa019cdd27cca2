import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Claim } from "../refunds/Claim.ts"
import type { Environment } from "../Environment.ts"
import type { Payment } from "../payments/Payment.ts"
import type { Discrepancy, ReconciliationReport } from "../reconciliation/Discrepancy.ts"

export interface DiscrepancyFilter {
  readonly provider?: string | undefined
  readonly kind?: string | undefined
  readonly status?: "open" | "resolved" | undefined
  readonly reportId?: string | undefined
  readonly shopId?: string | undefined
}

/** What a report names, and the period it covers: the engine's records to match it with. */
export interface RecordsQuery {
  /** Provider references in the report. */
  readonly providerRefs: ReadonlyArray<string>
  /** Engine ids the report's references name (`TXN-...` of an upstream key, `CLM-...`). */
  readonly ids: ReadonlyArray<string>
  /** Records that moved money in `[movedFrom, movedTo)` are due in the report even when it does not name them. */
  readonly movedFrom: DateTime.Utc
  readonly movedTo: DateTime.Utc
}

/** Reports imported and the discrepancies they found. */
export class ReconciliationStore extends Context.Service<ReconciliationStore, {
  /**
   * Inserts the report unless one of the same file (environment, provider, SHA-256) exists,
   * which it answers instead: importing a file twice is one report (a unique index on SQL).
   */
  readonly insertReport: (report: ReconciliationReport) => Effect.Effect<Option.Option<ReconciliationReport>>
  readonly findReport: (environment: Environment, id: string) => Effect.Effect<Option.Option<ReconciliationReport>>
  /** Newest first. */
  readonly listReports: (
    environment: Environment,
    provider: string | undefined,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<ReconciliationReport>; readonly total: number }>
  /**
   * The environment's payments with `provider` that the query names or that completed in its
   * period, and their refunds (claims of kind `user_dispute`) named, of a payment named (providers
   * write a refund's line with its payment's references), or paid in the period.
   */
  readonly records: (environment: Environment, provider: string, query: RecordsQuery) => Effect.Effect<{
    readonly payments: ReadonlyArray<Payment>
    readonly refunds: ReadonlyArray<Claim>
  }>
  /** Inserts those not found before (by environment, provider and dedupe key); answers how many were new. */
  readonly addDiscrepancies: (discrepancies: ReadonlyArray<Discrepancy>) => Effect.Effect<number>
  readonly findDiscrepancy: (environment: Environment, id: string) => Effect.Effect<Option.Option<Discrepancy>>
  /** Newest first, with the total of the filtered set. */
  readonly listDiscrepancies: (
    environment: Environment,
    filter: DiscrepancyFilter,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Discrepancy>; readonly total: number }>
  /** Writes `discrepancy` if the stored version is `discrepancy.version - 1`; false when another writer won. */
  readonly updateDiscrepancy: (discrepancy: Discrepancy) => Effect.Effect<boolean>
}>()("core/ports/ReconciliationStore") {}
