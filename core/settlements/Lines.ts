/**
 * The lines and the summary of a batch, as pure functions of the journal entries it sweeps.
 *
 * A line is one journal entry; its `amountUsd` (net) is exactly what that entry posted to the
 * shop's `payin_available` USD, so the lines of a batch sum to what the sweep took from that
 * balance. Each line splits its net by what moved it (gross, fees, reserve, owed recovered,
 * refunds, chargebacks, other), reading the entry's other postings and the payment it belongs to,
 * and the summary's figures are those columns summed, so that (`Statement.ts`)
 * `net = gross - fees - refunds - chargebacks - owedRecovered - reserveHeld + reserveReleased + other`
 * holds exactly for every batch.
 */
import { BigDecimal } from "effect"
import type { Book, JournalEntry } from "../ledger/Journal.ts"
import * as Money from "../Money.ts"
import type { Payment } from "../payments/Payment.ts"
import type { StatementLine, StatementLineKind, StatementSummary } from "./Statement.ts"

const sumOf = (entry: JournalEntry, book: Book): BigDecimal.BigDecimal =>
  BigDecimal.sumAll(entry.postings.filter((p) => p.book === book && p.currency === "USD").map((p) => p.amount))

/** What the entry posted to the shop's available USD: the line's amount. */
export const availableDelta = (entry: JournalEntry): BigDecimal.BigDecimal => BigDecimal.normalize(sumOf(entry, "payin_available"))

/** The line kind of a journal entry kind. */
export const lineKind = (kind: string): StatementLineKind => {
  switch (kind) {
    case "payment.settled":
      return "payment"
    case "reserve.released":
      return "reserve_released"
    case "claim.opened":
    case "refund.completed":
    case "claim.rejected":
      return "refund"
    case "chargeback.opened":
    case "chargeback.lost":
      return "chargeback"
    case "chargeback.won":
      return "chargeback_won"
    case "settlement.failed":
      return "settlement_returned"
  }
  if (kind.startsWith("withdrawal.")) return "withdrawal"
  if (kind.startsWith("payout.") || kind === "balance.swap") return "transfer"
  return "adjustment"
}

/** The payment (and its journal entry) a line is about; `payment` when the entry belongs to one. */
export interface LineSource {
  readonly entry: JournalEntry
  readonly payment: Payment | undefined
}

/**
 * What one entry did to the batch, split by what moved it: the line's columns and the summary's
 * addends. `net` is what the entry posted to available; for every entry
 * `gross - platform - provider - chargebackFee - reserveHeld + reserveReleased - owedRecovered - refunds - chargebacks + other = net`
 * exactly.
 */
interface Breakdown {
  readonly gross: BigDecimal.BigDecimal
  readonly platform: BigDecimal.BigDecimal
  readonly provider: BigDecimal.BigDecimal
  readonly chargebackFee: BigDecimal.BigDecimal
  readonly reserveHeld: BigDecimal.BigDecimal
  readonly reserveReleased: BigDecimal.BigDecimal
  readonly owedRecovered: BigDecimal.BigDecimal
  readonly refunds: BigDecimal.BigDecimal
  readonly chargebacks: BigDecimal.BigDecimal
  readonly other: BigDecimal.BigDecimal
  readonly net: BigDecimal.BigDecimal
}

const none: Omit<Breakdown, "net"> = {
  gross: Money.zero,
  platform: Money.zero,
  provider: Money.zero,
  chargebackFee: Money.zero,
  reserveHeld: Money.zero,
  reserveReleased: Money.zero,
  owedRecovered: Money.zero,
  refunds: Money.zero,
  chargebacks: Money.zero,
  other: Money.zero
}

const breakdownOf = ({ entry, payment }: LineSource): Breakdown => {
  const net = availableDelta(entry)
  // What the entry repaid of what the shop owed (a positive posting to the receivable).
  const repaid = BigDecimal.max(sumOf(entry, "merchant_receivable"), Money.zero)
  switch (lineKind(entry.kind)) {
    case "payment": {
      if (payment === undefined) return { ...none, other: net, net }
      // The payment's headline less its fees and its reserve is what it could bring; what it
      // brought less is what its refunds and chargeback took before it settled.
      const fees = BigDecimal.sumAll([payment.fees.platform, payment.fees.provider, payment.fees.network])
      const brought = BigDecimal.sum(net, repaid)
      const could = BigDecimal.subtract(BigDecimal.subtract(payment.amount, fees), payment.settlement.reserve)
      return {
        ...none,
        gross: payment.amount,
        platform: payment.fees.platform,
        provider: BigDecimal.sum(payment.fees.provider, payment.fees.network),
        reserveHeld: payment.settlement.reserve,
        owedRecovered: repaid,
        refunds: BigDecimal.subtract(could, brought),
        net
      }
    }
    case "reserve_released":
      return { ...none, reserveReleased: BigDecimal.sum(net, repaid), owedRecovered: repaid, net }
    case "refund":
      return { ...none, refunds: BigDecimal.negate(net), net }
    case "chargeback": {
      const fee = sumOf(entry, "fees_chargeback")
      return { ...none, chargebackFee: fee, chargebacks: BigDecimal.subtract(BigDecimal.negate(net), fee), net }
    }
    case "chargeback_won":
      return { ...none, chargebacks: BigDecimal.negate(BigDecimal.sum(net, repaid)), owedRecovered: repaid, net }
    default:
      return { ...none, other: BigDecimal.sum(net, repaid), owedRecovered: repaid, net }
  }
}

export const lineOf = (source: LineSource): StatementLine => {
  const { entry, payment } = source
  const kind = lineKind(entry.kind)
  const ofPayment = payment !== undefined && (kind === "payment" || kind === "refund" || kind === "chargeback" || kind === "chargeback_won" || kind === "reserve_released")
  const b = breakdownOf(source)
  const n = BigDecimal.normalize
  return {
    at: entry.createdAt,
    kind,
    transactionId: ofPayment ? payment.id : null,
    reference: entry.reference,
    merchantOrderId: ofPayment ? payment.merchantOrderId ?? null : null,
    method: ofPayment ? payment.method : null,
    amountLocal: ofPayment && kind === "payment" ? payment.amountLocal : null,
    currencyLocal: ofPayment && kind === "payment" ? payment.currencyLocal : null,
    ...(ofPayment && kind === "payment" && payment.installments !== undefined ? { installments: payment.installments.count } : {}),
    grossUsd: n(b.gross),
    feesUsd: n(BigDecimal.sumAll([b.platform, b.provider, b.chargebackFee])),
    reserveUsd: n(BigDecimal.subtract(b.reserveReleased, b.reserveHeld)),
    owedRecoveredUsd: n(b.owedRecovered),
    refundsUsd: n(b.refunds),
    chargebacksUsd: n(b.chargebacks),
    otherUsd: n(b.other),
    amountUsd: n(b.net)
  }
}

/** The batch's totals from its sources: each the sum of that column over the lines; `net` is the lines' exact sum. */
export const summaryOf = (sources: ReadonlyArray<LineSource>): StatementSummary => {
  let t: Breakdown = { ...none, net: Money.zero }
  for (const source of sources) {
    const b = breakdownOf(source)
    t = {
      gross: BigDecimal.sum(t.gross, b.gross),
      platform: BigDecimal.sum(t.platform, b.platform),
      provider: BigDecimal.sum(t.provider, b.provider),
      chargebackFee: BigDecimal.sum(t.chargebackFee, b.chargebackFee),
      reserveHeld: BigDecimal.sum(t.reserveHeld, b.reserveHeld),
      reserveReleased: BigDecimal.sum(t.reserveReleased, b.reserveReleased),
      owedRecovered: BigDecimal.sum(t.owedRecovered, b.owedRecovered),
      refunds: BigDecimal.sum(t.refunds, b.refunds),
      chargebacks: BigDecimal.sum(t.chargebacks, b.chargebacks),
      other: BigDecimal.sum(t.other, b.other),
      net: BigDecimal.sum(t.net, b.net)
    }
  }
  const n = BigDecimal.normalize
  return {
    gross: n(t.gross),
    fees: { platform: n(t.platform), provider: n(t.provider), chargeback: n(t.chargebackFee) },
    refunds: n(t.refunds),
    chargebacks: n(t.chargebacks),
    owedRecovered: n(t.owedRecovered),
    reserveHeld: n(t.reserveHeld),
    reserveReleased: n(t.reserveReleased),
    other: n(t.other),
    net: n(t.net)
  }
}

/** `gross - fees + reserve - owedRecovered - refunds - chargebacks + other` of one line: equals its `amountUsd` (net) for every line `lineOf` makes. */
export const lineTotal = (l: StatementLine): BigDecimal.BigDecimal =>
  BigDecimal.normalize(BigDecimal.sumAll([
    l.grossUsd,
    BigDecimal.negate(BigDecimal.sumAll([l.feesUsd, l.owedRecoveredUsd, l.refundsUsd, l.chargebacksUsd])),
    l.reserveUsd,
    l.otherUsd
  ]))

/** `gross - fees - refunds - chargebacks - owedRecovered - reserveHeld + reserveReleased + other`: equals `net` for every summary `summaryOf` makes. */
export const summaryTotal = (s: StatementSummary): BigDecimal.BigDecimal =>
  BigDecimal.normalize(BigDecimal.sumAll([
    s.gross,
    BigDecimal.negate(BigDecimal.sumAll([s.fees.platform, s.fees.provider, s.fees.chargeback, s.refunds, s.chargebacks, s.owedRecovered, s.reserveHeld])),
    s.reserveReleased,
    s.other
  ]))
