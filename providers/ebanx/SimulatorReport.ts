/**
 * The EBANX simulator's transactions report (test tooling, never imported by the
 * plugin): what `EbanxSimulator.ts` was actually asked to do in a period, in the All Transactions
 * Report CSV that `Report.ts` parses: every payment it confirmed (`Payment`, `CO`), every refund
 * it confirmed (`Refund`, `CO`, with its EBANX `REFUND ID`) and every chargeback booked with
 * `chargeback(hash)` (`Chargeback`, `CO`), each with the simulator's payment `hash` and the
 * `merchant_payment_code` the engine sent, the amount exactly as asked in the request's currency
 * (`AMOUNT EXT`; the simulator converts nothing, so `AMOUNT LOCAL` is the same), and the fee:
 * `percent` of the amount plus `flat`, rounded to two decimals, on payments; 0 on the others.
 * Faults: `unknownCaptures` adds `Payment` rows with fresh hashes and codes nobody sent;
 * `duplicatedRefunds` writes a refund's row twice; `changedFees` replaces a payment's fee.
 */
import { createHash } from "node:crypto"
import { BigDecimal, DateTime } from "effect"
import type { ReportFaults, SimulatedFeeRule, SimulatorReports } from "../kit/SimulatorReports.ts"

/** One confirmed payment, refund or chargeback as the simulator booked it. */
export interface BookedMove {
  readonly kind: "Payment" | "Refund" | "Chargeback"
  readonly hash: string
  readonly merchantPaymentCode: string
  /** EBANX's refund id on a refund. */
  readonly refundId?: string | undefined
  /** Decimal text exactly as asked (unsigned). */
  readonly amountText: string
  readonly currency: string
  /** When the payment was created (epoch ms). */
  readonly openedAt: number
  /** When the move happened at the simulator (epoch ms). */
  readonly at: number
}

const d = (text: string) => BigDecimal.fromStringUnsafe(text)
const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ")
const two = (x: BigDecimal.BigDecimal) => BigDecimal.format(BigDecimal.round(x, { scale: 2, mode: "half-even" }))

export const header = [
  "MERCHANT", "TRANSACTION TYPE", "PAYMENT HASH", "MERCHANT PAYMENT CODE", "REFUND ID", "STATUS", "OPEN DATE", "CONFIRM DATE",
  "AMOUNT LOCAL", "CURRENCY LOCAL", "AMOUNT EXT", "CURRENCY EXT", "FEE"
]

export const makeSimulatorReports = (booked: () => ReadonlyArray<BookedMove>): SimulatorReports => {
  let rule: SimulatedFeeRule = { percent: "0", flat: "0" }
  let unknownSequence = 0

  const report = (period: { readonly start: DateTime.Utc; readonly end: DateTime.Utc }, faults: ReportFaults = {}): string => {
    const start = DateTime.toEpochMillis(period.start)
    const end = DateTime.toEpochMillis(period.end)
    const moves: Array<BookedMove> = booked().filter((m) => m.at >= start && m.at < end).sort((a, b) => a.at - b.at)
    for (let i = 0; i < (faults.unknownCaptures ?? 0); i++) {
      const code = `SIM-UNKNOWN-${String(++unknownSequence).padStart(6, "0")}`
      moves.push({ kind: "Payment", hash: createHash("sha1").update(code).digest("hex"), merchantPaymentCode: code, amountText: "100.00", currency: "BRL", openedAt: start, at: start })
    }
    const rows: Array<string> = []
    for (const move of moves) {
      const changed = move.kind === "Payment" ? faults.changedFees?.[move.hash] : undefined
      const fee = move.kind !== "Payment"
        ? "0.00"
        : changed ?? two(BigDecimal.sum(BigDecimal.multiply(d(move.amountText), BigDecimal.divideUnsafe(d(rule.percent), d("100"))), d(rule.flat)))
      const row = [
        "Simulated Merchant", move.kind, move.hash, move.merchantPaymentCode, move.refundId ?? "", "CO", stamp(move.openedAt), stamp(move.at),
        move.amountText, move.currency, move.amountText, move.currency, fee
      ].join(",")
      const times = move.kind === "Refund" && move.refundId !== undefined && faults.duplicatedRefunds?.includes(move.refundId) === true ? 2 : 1
      for (let i = 0; i < times; i++) rows.push(row)
    }
    return [header.join(","), ...rows].join("\n") + "\n"
  }

  return { report, setFeeRule: (next) => void (rule = next) }
}
