/**
 * How a report explains the provider clearing account: for the records a report is
 * about, per currency, what the engine expects the provider to settle equals what the provider
 * reported settling, plus what it still has pending, plus the differences of the discrepancies
 * found:
 *
 *   engineExpects = providerReported + pendingAtProvider + discrepancies
 *
 * Each side counts a payment positive and a refund negative, and only money that moved: the
 * engine's side when its record completed (a payment) or was paid (a refund), the provider's when
 * its line says captured, settled or refunded. A matched line agrees with its record, so it adds
 * the same to both sides; a pending line whose record the engine already has as moved is money
 * still at the provider; every other difference is a discrepancy's (`recordSide - lineSide`).
 * `clearingUsd` is what the same records put in the ledger's `provider_clearing` book (negated:
 * the provider owes it), so the local-currency explanation is tied to the USD ledger.
 */
import { BigDecimal } from "effect"
import * as Money from "../Money.ts"
import type { ReportLine } from "../ports/ProviderReports.ts"
import { type EngineRecord, lineMoved, type Outcome } from "./Matching.ts"

export interface ClearingExplanation {
  readonly currency: string
  readonly engineExpects: BigDecimal.BigDecimal
  readonly providerReported: BigDecimal.BigDecimal
  readonly pendingAtProvider: BigDecimal.BigDecimal
  readonly discrepancies: BigDecimal.BigDecimal
}

/** The signed money a record moved: a payment in, a refund out; 0 when nothing moved. */
export const recordSide = (r: EngineRecord): BigDecimal.BigDecimal =>
  !r.moved ? Money.zero : r.kind === "payment" ? r.amount : BigDecimal.negate(r.amount)

/** The signed money a line says moved. */
export const lineSide = (l: ReportLine): BigDecimal.BigDecimal =>
  !lineMoved(l) ? Money.zero : l.kind === "refund" ? BigDecimal.negate(l.amount) : l.amount

/** The explanation of one report's outcomes, per currency (sorted by currency). */
export const explain = (outcomes: ReadonlyArray<Outcome>): {
  readonly byCurrency: ReadonlyArray<ClearingExplanation>
  readonly clearingUsd: BigDecimal.BigDecimal
} => {
  type Row = { engineExpects: BigDecimal.BigDecimal; providerReported: BigDecimal.BigDecimal; pendingAtProvider: BigDecimal.BigDecimal; discrepancies: BigDecimal.BigDecimal }
  const rows = new Map<string, Row>()
  const row = (currency: string) => {
    const found = rows.get(currency)
    if (found !== undefined) return found
    const fresh: Row = { engineExpects: Money.zero, providerReported: Money.zero, pendingAtProvider: Money.zero, discrepancies: Money.zero }
    rows.set(currency, fresh)
    return fresh
  }
  let clearingUsd = Money.zero
  const seen = new Set<string>()
  for (const o of outcomes) {
    const record = o.record
    // A record named by two outcomes (its line and a duplicate of it) counts once on the engine's side.
    const r = record === null || seen.has(record.id) ? null : record
    if (r !== null) {
      seen.add(r.id)
      clearingUsd = BigDecimal.sum(clearingUsd, r.clearingUsd)
      const at = row(r.currency)
      at.engineExpects = BigDecimal.sum(at.engineExpects, recordSide(r))
    }
    if (o.line !== null) {
      const at = row(o.line.currency)
      at.providerReported = BigDecimal.sum(at.providerReported, lineSide(o.line))
    }
    const bucket = o._tag === "matched" ? "pendingAtProvider" as const : "discrepancies" as const
    if (r !== null) row(r.currency)[bucket] = BigDecimal.sum(row(r.currency)[bucket], recordSide(r))
    if (o.line !== null) row(o.line.currency)[bucket] = BigDecimal.sum(row(o.line.currency)[bucket], BigDecimal.negate(lineSide(o.line)))
  }
  const byCurrency = [...rows].sort(([a], [b]) => a.localeCompare(b)).map(([currency, r]) => ({
    currency,
    engineExpects: Money.round(r.engineExpects, currency),
    providerReported: Money.round(r.providerReported, currency),
    pendingAtProvider: Money.round(r.pendingAtProvider, currency),
    discrepancies: Money.round(r.discrepancies, currency)
  }))
  return { byCurrency, clearingUsd }
}
