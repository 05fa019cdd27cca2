/**
 * The dLocal simulator's settlement report (test tooling, never imported by the plugin):
 * what `DLocalSimulator.ts` was actually asked to do in a period, written in the "Settlement -
 * Cross-border Payins Model" CSV that `Report.ts` parses (the transfer section, then one row per
 * transaction): every payment it captured (`PAYMENT`, `PAID`), every refund it paid (`REFUND`,
 * `SUCCESS`), every chargeback it booked (`CHARGEBACK`), each with the simulator's own id in
 * `DLOCAL_TRANSACTION_ID` and the `order_id` the engine sent in `TRANSACTION_ID`, the local amount
 * exactly as charged, and the gross, fee and net in the settlement currency (USD).
 *
 * USD amounts: the local amount divided by the fee rule's `localPerUsd` (1 when absent, which is
 * exact for a payment made in USD), six decimals as dLocal writes them. The fee (payments only)
 * is `percent` of that plus `flat`, rounded to six decimals; refunds and chargebacks carry fee 0.
 * Faults: `unknownCaptures` adds `PAYMENT` rows with fresh ids and references nobody sent;
 * `duplicatedRefunds` writes a refund's row twice; `changedFees` replaces a payment's fee.
 */
import { BigDecimal, DateTime } from "effect"
import type { ReportFaults, SimulatedFeeRule, SimulatorReports } from "../kit/SimulatorReports.ts"

/** One capture, refund or chargeback as the simulator booked it. */
export interface BookedMove {
  readonly kind: "PAYMENT" | "REFUND" | "CHARGEBACK"
  /** The simulator's id of the row (payment, refund or chargeback id). */
  readonly id: string
  /** The payment's id, for `changedFees`. */
  readonly paymentId: string
  /** The `order_id` the engine sent with the payment. */
  readonly orderId: string
  readonly country: string
  /** Local amount, decimal text, exactly as charged (unsigned). */
  readonly amountText: string
  readonly currency: string
  /** When the payment was created (epoch ms). */
  readonly createdAt: number
  /** When the move happened at the simulator (epoch ms). */
  readonly at: number
}

const d = (text: string) => BigDecimal.fromStringUnsafe(text)
const zero = d("0")
const six = (x: BigDecimal.BigDecimal) => BigDecimal.format(BigDecimal.round(x, { scale: 6, mode: "half-even" }))
const plain = (x: BigDecimal.BigDecimal) => BigDecimal.format(BigDecimal.normalize(x))
const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ")
const negate = (x: BigDecimal.BigDecimal) => BigDecimal.negate(x)

const transactionHeader = [
  "ROW_TYPE", "MID", "LOGIN", "COUNTRY", "CREATION_DATE", "APPROVED_DATE", "TRANSACTION_ID", "DLOCAL_TRANSACTION_ID",
  "LOCAL_AMOUNT", "LOCAL_CURRENCY", "FX_RATE", "GROSS_AMOUNT", "FEE_AMOUNT", "NET_AMOUNT", "PAYMENT_TYPE", "STATUS", "STATUS_DETAILS"
]

/** The report writer over the simulator's booked moves (read when a report is asked for). */
export const makeSimulatorReports = (booked: () => ReadonlyArray<BookedMove>, login: string): SimulatorReports => {
  let rule: SimulatedFeeRule = { percent: "0", flat: "0" }
  let unknownSequence = 0
  let transferSequence = 0

  const report = (period: { readonly start: DateTime.Utc; readonly end: DateTime.Utc }, faults: ReportFaults = {}): string => {
    const start = DateTime.toEpochMillis(period.start)
    const end = DateTime.toEpochMillis(period.end)
    const rate = d(rule.localPerUsd ?? "1")
    const moves: Array<BookedMove> = booked().filter((m) => m.at >= start && m.at < end).sort((a, b) => a.at - b.at)
    for (let i = 0; i < (faults.unknownCaptures ?? 0); i++) {
      const n = String(++unknownSequence).padStart(6, "0")
      moves.push({
        kind: "PAYMENT", id: `D-4-UNKNOWN-${n}`, paymentId: `D-4-UNKNOWN-${n}`, orderId: `SIM-UNKNOWN-${n}`, country: "BR",
        amountText: "100.00", currency: "BRL", createdAt: start, at: start
      })
    }
    const rows: Array<Array<string>> = []
    let gross = zero
    let fees = zero
    for (const move of moves) {
      const usd = BigDecimal.round(BigDecimal.divideUnsafe(d(move.amountText), rate), { scale: 6, mode: "half-even" })
      const changed = move.kind === "PAYMENT" ? faults.changedFees?.[move.paymentId] : undefined
      const fee = move.kind !== "PAYMENT"
        ? zero
        : changed !== undefined
        ? d(changed)
        : BigDecimal.sum(BigDecimal.multiply(usd, BigDecimal.divideUnsafe(d(rule.percent), d("100"))), d(rule.flat))
      const signedGross = move.kind === "PAYMENT" ? usd : negate(usd)
      const net = BigDecimal.subtract(signedGross, fee)
      const row = [
        move.kind, "1", login, move.country, stamp(move.createdAt), stamp(move.at), move.orderId, move.id,
        plain(move.kind === "PAYMENT" ? d(move.amountText) : negate(d(move.amountText))), move.currency, six(rate),
        six(signedGross), six(negate(fee)), six(net), "TICKET",
        move.kind === "PAYMENT" ? "PAID" : move.kind === "REFUND" ? "SUCCESS" : "CHARGEBACK",
        move.kind === "PAYMENT" ? "The payment was paid." : move.kind === "REFUND" ? "The refund was paid." : "The payment was charged back."
      ]
      const times = move.kind === "REFUND" && faults.duplicatedRefunds?.includes(move.id) === true ? 2 : 1
      for (let i = 0; i < times; i++) {
        rows.push(row)
        gross = BigDecimal.sum(gross, signedGross)
        fees = BigDecimal.sum(fees, fee)
      }
    }
    const transfer = [
      "HEADER", "USD", String(rows.length), six(gross), six(negate(fees)), six(BigDecimal.subtract(gross, fees)),
      DateTime.formatIso(period.end).slice(0, 10), String(770000 + ++transferSequence)
    ]
    const summaryHeader = ["ROW_TYPE", "SETTLEMENT_CURRENCY", "NUMBER_OF_ITEMS", "GROSS_TOTAL_AMOUNT", "FEE_TOTAL_AMOUNT", "NET_TOTAL_AMOUNT", "TRANSFER_DATE", "TRANSFER_ID"]
    return [summaryHeader, transfer, transactionHeader, ...rows].map((cells) => cells.join(",")).join("\n") + "\n"
  }

  return { report, setFeeRule: (next) => void (rule = next) }
}
