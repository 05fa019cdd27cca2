/**
 * The Conekta simulator's transactions (test tooling, never imported by the plugin):
 * what `ConektaSimulator.ts` was actually asked to do in a period, written as the answer of
 * Conekta's `GET /transactions` that `Report.ts` parses (one page, one transaction object a
 * line): every order it saw paid (`capture`), every refund it settled (`refund`, amount negative
 * as Conekta writes refund amounts) and every chargeback it booked (`setStatus(id,
 * "charged_back")`: `chargeback`, negative), each `available`, with the order id in `charge`
 * (the reference the engine holds), amounts in centavos exactly as charged, and the fee per the
 * rule (`percent` of the amount plus `flat` pesos, rounded half-even to the centavo) on captures,
 * 0 on the others; `net` is amount minus fee.
 * Faults: `unknownCaptures` adds captures of fresh orders nobody created; `duplicatedRefunds`
 * (refund ids) writes a refund's transaction twice; `changedFees` (order ids) replaces a fee.
 */
import { BigDecimal, DateTime } from "effect"
import type { ReportFaults, SimulatedFeeRule, SimulatorReports } from "../kit/SimulatorReports.ts"

/** One capture, settled refund or chargeback as the simulator booked it. */
export interface BookedMove {
  readonly type: "capture" | "refund" | "chargeback"
  /** The transaction's own id. */
  readonly id: string
  readonly orderId: string
  /** The refund's id, on a refund. */
  readonly refundId?: string | undefined
  /** Centavos, unsigned. */
  readonly amount: number
  /** When it happened at the simulator (epoch ms). */
  readonly at: number
}

const d = (text: string) => BigDecimal.fromStringUnsafe(text)

/** Pesos (decimal text) as integer centavos, rounded half-even. */
const centavos = (x: BigDecimal.BigDecimal): bigint => {
  const rounded = BigDecimal.round(BigDecimal.multiply(x, d("100")), { scale: 0, mode: "half-even" })
  return BigInt(BigDecimal.format(BigDecimal.normalize(rounded)))
}

export const makeSimulatorReports = (booked: () => ReadonlyArray<BookedMove>): SimulatorReports => {
  let rule: SimulatedFeeRule = { percent: "0", flat: "0" }
  let unknownSequence = 0

  const report = (period: { readonly start: DateTime.Utc; readonly end: DateTime.Utc }, faults: ReportFaults = {}): string => {
    const start = DateTime.toEpochMillis(period.start)
    const end = DateTime.toEpochMillis(period.end)
    const moves: Array<BookedMove> = booked().filter((m) => m.at >= start && m.at < end).sort((a, b) => a.at - b.at)
    for (let i = 0; i < (faults.unknownCaptures ?? 0); i++) {
      const n = String(++unknownSequence).padStart(6, "0")
      moves.push({ type: "capture", id: `txn_unknown_${n}`, orderId: `ord_SIMUNKNOWN${n}`, amount: 10000, at: start })
    }
    const lines: Array<string> = []
    for (const move of moves) {
      const changed = move.type === "capture" ? faults.changedFees?.[move.orderId] : undefined
      const fee = move.type !== "capture"
        ? 0n
        : centavos(
          changed !== undefined
            ? d(changed)
            : BigDecimal.sum(BigDecimal.multiply(BigDecimal.make(BigInt(move.amount), 2), BigDecimal.divideUnsafe(d(rule.percent), d("100"))), d(rule.flat))
        )
      const amount = move.type === "capture" ? BigInt(move.amount) : -BigInt(move.amount)
      // Amounts are spliced as integer text: no float ever holds them.
      const line = `{"id":${JSON.stringify(move.id)},"object":"transaction","type":"${move.type}","status":"available",` +
        `"amount":${amount},"fee":${fee},"net":${amount - fee},"currency":"MXN","charge":${JSON.stringify(move.orderId)},` +
        `"created_at":${Math.floor(move.at / 1000)},"livemode":false}`
      const times = move.type === "refund" && move.refundId !== undefined && faults.duplicatedRefunds?.includes(move.refundId) === true ? 2 : 1
      for (let i = 0; i < times; i++) lines.push(line)
    }
    return `{"object":"list","has_more":false,"next_page_url":null,"previous_page_url":null,"data":[\n${lines.join(",\n")}${lines.length === 0 ? "" : "\n"}]}\n`
  }

  return { report, setFeeRule: (next) => void (rule = next) }
}
