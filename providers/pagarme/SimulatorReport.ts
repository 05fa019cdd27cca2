/**
 * The payables of the Pagar.me simulator (`PagarmeSimulator.ts`): `GET /payables` of
 * what the simulator was actually asked to do, in the documented payable shape
 * (https://docs.pagar.me/reference/recebíveis; every field the official SDK 7's
 * `GetPayableResponse` requires). A test tool, never imported by the plugin.
 *
 * - A paid charge is one `credit` payable per installment (PIX and boleto have one), `created_at`
 *   and `accrual_at` its payment, `payment_date` a day later (installment `n` of a card paid in
 *   more: 30 days times `n`), `status` `waiting_funds` until then and `paid` after; `fee` per the
 *   fee rule on the whole charge, in centavos. OURS (not documented): a card's amount and fee are
 *   split in equal centavos per installment, the first taking the remainder. Each refund paid is a `refund` payable
 *   (negative `amount`, the money taken back), each chargeback (`setStatus(id, "chargedback")`) a
 *   `chargeback` payable. `charge_id` is the charge's id (`ch_...`); the payable's `id` is the
 *   simulator's own (`pay_...`, a string as SDK 7 types it).
 * - `GET /payables` filters on `created_since` / `created_until` (inclusive), `charge_id`, `type`
 *   and `status`, and pages `size` items (default 10) with `paging.forward_cursor` (SDK 7), the
 *   next page asked with `cursor=<forward_cursor>`.
 * - Faults (`setFaults` for the endpoint, or `report(period, faults)`): `unknownCaptures` adds
 *   credit payables of charges nobody asked for (`ch_UNKNOWN...`), `duplicatedRefunds` (refund
 *   transaction ids, `tran_...`) books a refund twice, `changedFees` (charge ids) replaces a fee.
 */
import { BigDecimal } from "effect"
import { Money } from "../../core/ports/index.ts"
import type { ReportFaults, SimulatedFeeRule, SimulatorReports } from "../kit/SimulatorReports.ts"
import type { Answer, SimulatorRequest } from "../kit/SimulatorServer.ts"
import type { SimCharge } from "./SimulatorRules.ts"

const day = 86_400_000

export interface PayablesOptions {
  readonly charges: () => Iterable<SimCharge>
  readonly now: () => number
}

export interface SimulatorPayables extends SimulatorReports {
  readonly setFaults: (faults: ReportFaults) => void
  /** Answers `GET /payables`; `undefined` for any other path. */
  readonly route: (req: SimulatorRequest) => Answer | undefined
}

interface Booked {
  readonly id: string
  readonly type: "credit" | "refund" | "chargeback"
  readonly chargeId: string
  readonly method: string
  /** Signed centavos. */
  readonly amount: number
  readonly fee: number
  readonly at: number
  /** 1-based, of the charge's installments. */
  readonly installment: number
  /** Days from `at` to the payment date. */
  readonly paysAfterDays: number
}

/** `total` centavos in `count` parts of equal centavos, the first taking the remainder. */
const split = (total: number, count: number): ReadonlyArray<number> => {
  const each = Math.trunc(total / count)
  return Array.from({ length: count }, (_, i) => (i === 0 ? total - each * (count - 1) : each))
}

const cursorOf = (offset: number) => Buffer.from(`offset:${offset}`).toString("base64url")
const offsetOf = (cursor: string | null) => {
  if (cursor === null || cursor === "") return 0
  const m = /^offset:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"))
  return m === null ? undefined : Number(m[1])
}

export const makePayables = (options: PayablesOptions): SimulatorPayables => {
  let feeRule: SimulatedFeeRule = { percent: "0", flat: "0" }
  let faults: ReportFaults = {}

  /** Centavos of `amount` centavos by the fee rule (percent, then flat reais), half-even. */
  const feeOf = (amount: number): number => {
    const reais = BigDecimal.make(BigInt(amount), 2)
    const fee = BigDecimal.sum(BigDecimal.divideUnsafe(BigDecimal.multiply(reais, Money.decimal(feeRule.percent)), Money.decimal("100")), Money.decimal(feeRule.flat))
    return Number(BigDecimal.scale(Money.round(fee, "BRL"), 2).value)
  }
  const centavosOf = (text: string) => Number(BigDecimal.scale(Money.round(Money.decimal(text), "BRL"), 2).value)

  const booked = (applied: ReportFaults, start: number): Array<Booked> => {
    const out: Array<Booked> = []
    for (const c of options.charges()) {
      const base = { chargeId: c.id, method: c.method, installment: 1, paysAfterDays: 1 }
      if (c.paidAt !== undefined) {
        const changed = applied.changedFees?.[c.id]
        const count = Math.max(1, c.installments)
        const fees = split(changed === undefined ? feeOf(c.paidAmount) : centavosOf(changed), count)
        split(c.paidAmount, count).forEach((amount, i) =>
          out.push({
            ...base,
            id: `pay_${c.id.slice(3)}C${count === 1 ? "" : i + 1}`,
            type: "credit",
            amount,
            fee: fees[i]!,
            at: c.paidAt!,
            installment: i + 1,
            paysAfterDays: count === 1 ? 1 : 30 * (i + 1)
          }))
      }
      for (const t of c.transactions) {
        if (t.kind !== "refund" || t.refundedAt === undefined) continue
        out.push({ ...base, id: `pay_${t.id.slice(5)}R`, type: "refund", amount: -t.amount, fee: 0, at: t.refundedAt })
        if (applied.duplicatedRefunds?.includes(t.id) === true) {
          out.push({ ...base, id: `pay_${t.id.slice(5)}D`, type: "refund", amount: -t.amount, fee: 0, at: t.refundedAt })
        }
      }
      if (c.chargedBackAt !== undefined) {
        out.push({ ...base, id: `pay_${c.id.slice(3)}K`, type: "chargeback", amount: -c.paidAmount, fee: 0, at: c.chargedBackAt })
      }
    }
    for (let i = 1; i <= (applied.unknownCaptures ?? 0); i++) {
      const amount = 1_090 + i * 100
      const chargeId = `ch_UNKNOWN${String(i).padStart(9, "0")}`
      out.push({ id: `pay_UNKNOWN${String(i).padStart(9, "0")}`, type: "credit", chargeId, method: "pix", amount, fee: feeOf(amount), at: start + i * 1000, installment: 1, paysAfterDays: 1 })
    }
    return out.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id))
  }

  const view = (b: Booked) => {
    const paymentDate = b.at + b.paysAfterDays * day
    return {
      id: b.id,
      status: b.type === "credit" && options.now() < paymentDate ? "waiting_funds" : "paid",
      amount: b.amount,
      fee: b.fee,
      anticipation_fee: 0,
      fraud_coverage_fee: 0,
      installment: b.installment,
      gateway_id: null,
      charge_id: b.chargeId,
      split_id: null,
      bulk_anticipation_id: null,
      anticipation_id: null,
      recipient_id: "rp_SIMULATOR000000000",
      originator_model: "charge",
      originator_model_id: b.chargeId,
      payment_date: new Date(paymentDate).toISOString(),
      original_payment_date: null,
      type: b.type,
      payment_method: b.method,
      accrual_at: new Date(b.at).toISOString(),
      created_at: new Date(b.at).toISOString(),
      liquidation_arrangement_id: null,
      settlement_id: null,
      payment_profile_id: null
    }
  }

  const within = (applied: ReportFaults, start: number, end: number) => booked(applied, start).filter((b) => b.at >= start && b.at < end)

  const route = (req: SimulatorRequest): Answer | undefined => {
    if (req.method !== "GET" || !/^\/payables\/?$/i.test(req.path)) return undefined
    const q = req.query
    const since = q.get("created_since")
    const until = q.get("created_until")
    const start = since === null ? 0 : Date.parse(since)
    const end = until === null ? Number.MAX_SAFE_INTEGER : Date.parse(until) + 1
    const size = q.get("size") === null ? 10 : Number(q.get("size"))
    const offset = offsetOf(q.get("cursor"))
    if (Number.isNaN(start) || Number.isNaN(end)) return { status: 422, body: { message: "The request is invalid.", errors: { created_since: ["Invalid date."] } } }
    if (!Number.isInteger(size) || size < 1 || size > 1000) return { status: 422, body: { message: "The request is invalid.", errors: { size: ["Invalid size."] } } }
    if (offset === undefined) return { status: 422, body: { message: "The request is invalid.", errors: { cursor: ["Invalid cursor."] } } }
    const all = within(faults, start, end)
      .map(view)
      .filter((p) => ["charge_id", "type", "status"].every((f) => q.get(f) === null || q.get(f) === (p as Record<string, unknown>)[f]))
    const data = all.slice(offset, offset + size)
    return { status: 200, body: { data, paging: { forward_cursor: offset + size < all.length ? cursorOf(offset + size) : null } } }
  }

  return {
    report: (period, applied = {}) => {
      const start = period.start.epochMilliseconds
      return JSON.stringify({ data: within(applied, start, period.end.epochMilliseconds).map(view), paging: { forward_cursor: null } })
    },
    setFeeRule: (rule) => void (feeRule = rule),
    setFaults: (next) => void (faults = next),
    route
  }
}
