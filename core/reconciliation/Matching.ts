/**
 * Matching a provider's report with the engine's records, as a pure function: the
 * report's lines on one side, the engine's payments and refunds with that provider on the other.
 *
 * A line is matched to a record by the provider's reference (`providerRef`), or else by the
 * reference the engine sent the provider (a payment's upstream idempotency key
 * `<transactionId>:<providerId>`, a refund's claim id). Then status, amount, currency and fee are
 * compared (the engine's own id, which connectors send as the order reference, is a reference too). Outcomes:
 * - `matched`: the line agrees with its record;
 * - `unknown_to_engine`: a line no record answers (a capture the engine never heard about);
 * - `missing_from_report`: a record that moved money in the report's period and is not in it;
 * - `status_differs`: e.g. the provider captured a payment the engine has as failed or expired;
 * - `amount_differs`, `fee_differs`: amount or currency, or the provider's fee, differ;
 * - `duplicate`: a second line for a record already matched (a refund paid twice).
 */
import { BigDecimal, DateTime } from "effect"
import * as Money from "../Money.ts"
import type { ReportLine, ReportStatus } from "../ports/ProviderReports.ts"

/** The engine's side of one thing the provider did: a payment or a refund, as the report should show it. */
export interface EngineRecord {
  readonly kind: "payment" | "refund"
  /** `TXN-...` or `CLM-...`. */
  readonly id: string
  /** The shop whose record it is (where a correction of it is booked). */
  readonly shopId: string
  /** A refund's payment (`TXN-...`); null for a payment. */
  readonly paymentId: string | null
  readonly providerRef: string | null
  /** What the engine sent the provider as its reference (upstream key, refund id). */
  readonly reference: string
  /** Whether the money moved at the provider in the engine's books: a completed payment, an approved refund. */
  readonly moved: boolean
  /** The engine's status, for the operator's side-by-side view. */
  readonly status: string
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  /**
   * The provider's fee the engine booked (USD) and the payment's local units per USD, to compare
   * with a report that states fees in USD or in the local currency; null when the engine has none.
   */
  readonly fee: { readonly usd: BigDecimal.BigDecimal; readonly localPerUsd: BigDecimal.BigDecimal } | null
  /**
   * What the record did to the provider clearing account, USD: a payment's completion books the
   * provider owing its headline (`-amount`), a refund paid gives back its USD share (`+amountUsd`).
   * 0 while no money moved.
   */
  readonly clearingUsd: BigDecimal.BigDecimal
  /** When the money moved (completion, refund approval): the report is due after the provider's delay. */
  readonly movedAt: DateTime.Utc | null
}

export type DiscrepancyKind = "unknown_to_engine" | "missing_from_report" | "status_differs" | "amount_differs" | "fee_differs" | "duplicate"

export type Outcome =
  | { readonly _tag: "matched"; readonly line: ReportLine; readonly record: EngineRecord }
  | { readonly _tag: "discrepancy"; readonly kind: DiscrepancyKind; readonly line: ReportLine | null; readonly record: EngineRecord | null; readonly detail: string }

/** Report statuses that say the money moved for a line of this kind. */
const movedStatuses: Record<"payment" | "refund", ReadonlyArray<ReportStatus>> = {
  payment: ["captured", "settled", "refunded", "charged_back"],
  refund: ["refunded", "settled", "captured"]
}

/** Whether a line says the money moved (captured, settled, refunded...) for its kind. */
export const lineMoved = (line: ReportLine): boolean => {
  const kind = recordKindOf(line)
  return kind !== null && movedStatuses[kind].includes(line.normalized)
}

const recordKindOf = (line: ReportLine): "payment" | "refund" | null =>
  line.kind === "payment" ? "payment" : line.kind === "refund" ? "refund" : null

const same = (a: BigDecimal.BigDecimal, b: BigDecimal.BigDecimal) => BigDecimal.equals(BigDecimal.normalize(a), BigDecimal.normalize(b))

/**
 * The fee the engine expects on the line, in the line's fee currency: the booked USD fee, or it
 * converted at the payment's own rate when the report states fees in the local currency; null
 * when the report uses a third currency (not compared).
 */
const expectedFee = (record: EngineRecord, feeCurrency: string): BigDecimal.BigDecimal | null =>
  record.fee === null ? null
  : feeCurrency === "USD" ? record.fee.usd
  : feeCurrency === record.currency ? Money.round(BigDecimal.multiply(record.fee.usd, record.fee.localPerUsd), feeCurrency)
  : null

/**
 * Fees are a contract's percent of an amount the provider converted at its own rate, and the
 * engine's booked fee is rounded to the USD cent, so the two can differ by those roundings
 * without anything being wrong; a larger difference is a fee charged differently.
 */
const feeAgrees = (reported: BigDecimal.BigDecimal, expected: BigDecimal.BigDecimal, currency: string, record: EngineRecord) => {
  const over = BigDecimal.subtract(reported, expected)
  return BigDecimal.isLessThanOrEqualTo(over, feeTolerance(currency, record, "5")) &&
    BigDecimal.isLessThanOrEqualTo(BigDecimal.negate(over), feeTolerance(currency, record, "10"))
}

/**
 * One minor unit of the fee's currency; in the local currency, plus what the booked fee's rounding
 * to the USD cent is worth there, in thousandths of a USD at the payment's rate. The booked fee
 * rounds up, in the platform's favour (`Money.roundFor`): it may stand up to a whole cent above
 * the exact fee (1.25 BRL expected may be reported as low as 1.19 at 5 BRL per USD), and half a
 * cent below it (as high as 1.285).
 */
const feeTolerance = (currency: string, record: EngineRecord, thousandthsUsd: string) => {
  const unit = BigDecimal.make(1n, Money.exponent(currency))
  return currency === "USD" || record.fee === null ? unit : BigDecimal.sum(unit, BigDecimal.multiply(BigDecimal.make(BigInt(thousandthsUsd), 3), record.fee.localPerUsd))
}

/**
 * The period the report covers, `[start, end)`. A run matches a period only once the provider's
 * documented delay after its end has passed, so every record that moved money in it is due.
 */
export interface MatchOptions {
  readonly periodStart: DateTime.Utc
  readonly periodEnd: DateTime.Utc
}

/** Matches every line of a report with the engine's records of that provider; answers one outcome per line and per missing record. */
export const match = (lines: ReadonlyArray<ReportLine>, records: ReadonlyArray<EngineRecord>, options: MatchOptions): ReadonlyArray<Outcome> => {
  const byRef = new Map<string, EngineRecord>()
  const byReference = new Map<string, EngineRecord>()
  const refundsOf = new Map<string, Array<EngineRecord>>()
  for (const r of records) {
    if (r.paymentId !== null) refundsOf.set(r.paymentId, [...refundsOf.get(r.paymentId) ?? [], r])
    if (r.providerRef !== null) byRef.set(`${r.kind}|${r.providerRef}`, r)
    byReference.set(`${r.kind}|${r.reference}`, r)
    byReference.set(`${r.kind}|${r.id}`, r) // connectors send the engine's id as the provider's order reference
  }
  const seen = new Set<string>()
  const outcomes: Array<Outcome> = []
  const find = (kind: "payment" | "refund", line: ReportLine) =>
    (line.providerRef === null ? undefined : byRef.get(`${kind}|${line.providerRef}`)) ??
      (line.reference === null ? undefined : byReference.get(`${kind}|${line.reference}`))
  /**
   * Many providers write a refund's line with the payment's references (Mercado Pago's
   * `SOURCE_ID`, dLocal's and EBANX's order reference): it is then the payment's refund of the
   * same amount not matched yet, else the first one not matched, else (all matched) the one of
   * the same amount again, which makes the line a duplicate.
   */
  const refundOfPayment = (line: ReportLine) => {
    const payment = find("payment", line)
    const refunds = payment === undefined ? [] : refundsOf.get(payment.id) ?? []
    const sameAmount = (r: EngineRecord) => r.currency === line.currency && same(r.amount, line.amount)
    return refunds.find((r) => !seen.has(r.id) && sameAmount(r)) ?? refunds.find((r) => !seen.has(r.id)) ?? refunds.find(sameAmount)
  }
  for (const line of lines) {
    const kind = recordKindOf(line)
    if (kind === null) continue // fees, payouts and adjustments have no record of their own here
    const record = find(kind, line) ?? (kind === "refund" ? refundOfPayment(line) : undefined)
    if (record === undefined) {
      outcomes.push({ _tag: "discrepancy", kind: "unknown_to_engine", line, record: null, detail: `no ${kind} of the engine has reference ${line.providerRef ?? line.reference ?? "(none)"}` })
      continue
    }
    if (seen.has(record.id)) {
      outcomes.push({ _tag: "discrepancy", kind: "duplicate", line, record, detail: `a second line for ${record.id}` })
      continue
    }
    seen.add(record.id)
    const reportMoved = lineMoved(line)
    if (reportMoved !== record.moved && line.normalized !== "pending") {
      outcomes.push({
        _tag: "discrepancy",
        kind: "status_differs",
        line,
        record,
        detail: `the provider says ${line.status}; the engine has ${record.id} ${record.status}`
      })
      continue
    }
    if (line.currency !== record.currency || !same(line.amount, record.amount)) {
      outcomes.push({
        _tag: "discrepancy",
        kind: "amount_differs",
        line,
        record,
        detail: `the provider says ${BigDecimal.format(line.amount)} ${line.currency}; the engine has ${BigDecimal.format(record.amount)} ${record.currency}`
      })
      continue
    }
    const expected = line.fee === null || line.feeCurrency === null ? null : expectedFee(record, line.feeCurrency)
    if (line.fee !== null && line.feeCurrency !== null && expected !== null && !feeAgrees(line.fee, expected, line.feeCurrency, record)) {
      outcomes.push({
        _tag: "discrepancy",
        kind: "fee_differs",
        line,
        record,
        detail: `the provider charged ${Money.toText(line.fee)} ${line.feeCurrency}; the engine expected ${Money.toText(expected)} ${line.feeCurrency}`
      })
      continue
    }
    outcomes.push({ _tag: "matched", line, record })
  }
  for (const record of records) {
    if (seen.has(record.id) || !record.moved || record.movedAt === null) continue
    if (DateTime.isLessThan(record.movedAt, options.periodStart) || !DateTime.isLessThan(record.movedAt, options.periodEnd)) continue
    outcomes.push({ _tag: "discrepancy", kind: "missing_from_report", line: null, record, detail: `${record.id} moved money at the provider but is not in its report` })
  }
  return outcomes
}
