/**
 * The lines and the summary of a batch, as pure functions of the journal entries it sweeps.
 *
 * A line is one journal entry; its `amountUsd` is exactly what that entry posted to the shop's
 * `payin_available` USD, so the lines of a batch sum to what the sweep took from that balance.
 * The summary splits the same amounts by what moved them, reading the entry's other postings
 * and the payment it belongs to, so that (`Statement.ts`)
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

export const lineOf = ({ entry, payment }: LineSource): StatementLine => {
  const kind = lineKind(entry.kind)
  const ofPayment = payment !== undefined && (kind === "payment" || kind === "refund" || kind === "chargeback" || kind === "chargeback_won" || kind === "reserve_released")
  return {
    at: entry.createdAt,
    kind,
    transactionId: ofPayment ? payment.id : null,
    reference: entry.reference,
    merchantOrderId: ofPayment ? payment.merchantOrderId ?? null : null,
    method: ofPayment ? payment.method : null,
    amountLocal: ofPayment && kind === "payment" ? payment.amountLocal : null,
    currencyLocal: ofPayment && kind === "payment" ? payment.currencyLocal : null,
    amountUsd: availableDelta(entry),
    feesUsd: ofPayment && kind === "payment"
      ? BigDecimal.sumAll([payment.fees.platform, payment.fees.provider, payment.fees.network])
      : kind === "chargeback" && entry.kind === "chargeback.opened"
      ? BigDecimal.normalize(sumOf(entry, "fees_chargeback"))
      : null
  }
}

/** The batch's totals from its sources; `net` is the lines' exact sum. */
export const summaryOf = (sources: ReadonlyArray<LineSource>): StatementSummary => {
  let gross = Money.zero, platform = Money.zero, provider = Money.zero, chargebackFees = Money.zero
  let refunds = Money.zero, chargebacks = Money.zero, owedRecovered = Money.zero
  let reserveHeld = Money.zero, reserveReleased = Money.zero, other = Money.zero, net = Money.zero
  const add = (a: BigDecimal.BigDecimal, b: BigDecimal.BigDecimal) => BigDecimal.sum(a, b)
  for (const source of sources) {
    const { entry, payment } = source
    const line = availableDelta(entry)
    net = add(net, line)
    // What the entry repaid of what the shop owed (a positive posting to the receivable).
    const repaid = BigDecimal.max(sumOf(entry, "merchant_receivable"), Money.zero)
    switch (lineKind(entry.kind)) {
      case "payment": {
        if (payment === undefined) {
          other = add(other, line)
          break
        }
        // The payment's headline less its fees and its reserve is what it could bring; what it
        // brought less is what its refunds and chargeback took before it settled.
        const fees = BigDecimal.sumAll([payment.fees.platform, payment.fees.provider, payment.fees.network])
        const brought = BigDecimal.sum(line, repaid)
        const could = BigDecimal.subtract(BigDecimal.subtract(payment.amount, fees), payment.settlement.reserve)
        gross = add(gross, payment.amount)
        platform = add(platform, payment.fees.platform)
        provider = add(provider, BigDecimal.sum(payment.fees.provider, payment.fees.network))
        reserveHeld = add(reserveHeld, payment.settlement.reserve)
        owedRecovered = add(owedRecovered, repaid)
        refunds = add(refunds, BigDecimal.subtract(could, brought))
        break
      }
      case "reserve_released":
        reserveReleased = add(reserveReleased, BigDecimal.sum(line, repaid))
        owedRecovered = add(owedRecovered, repaid)
        break
      case "refund":
        refunds = add(refunds, BigDecimal.negate(line))
        break
      case "chargeback": {
        const fee = sumOf(entry, "fees_chargeback")
        chargebackFees = add(chargebackFees, fee)
        chargebacks = add(chargebacks, BigDecimal.subtract(BigDecimal.negate(line), fee))
        break
      }
      case "chargeback_won":
        chargebacks = add(chargebacks, BigDecimal.negate(BigDecimal.sum(line, repaid)))
        owedRecovered = add(owedRecovered, repaid)
        break
      default:
        other = add(other, BigDecimal.sum(line, repaid))
        owedRecovered = add(owedRecovered, repaid)
    }
  }
  const n = BigDecimal.normalize
  return {
    gross: n(gross),
    fees: { platform: n(platform), provider: n(provider), chargeback: n(chargebackFees) },
    refunds: n(refunds),
    chargebacks: n(chargebacks),
    owedRecovered: n(owedRecovered),
    reserveHeld: n(reserveHeld),
    reserveReleased: n(reserveReleased),
    other: n(other),
    net: n(net)
  }
}

/** `gross - fees - refunds - chargebacks - owedRecovered - reserveHeld + reserveReleased + other`: equals `net` for every summary `summaryOf` makes. */
export const summaryTotal = (s: StatementSummary): BigDecimal.BigDecimal =>
  BigDecimal.normalize(BigDecimal.sumAll([
    s.gross,
    BigDecimal.negate(BigDecimal.sumAll([s.fees.platform, s.fees.provider, s.fees.chargeback, s.refunds, s.chargebacks, s.owedRecovered, s.reserveHeld])),
    s.reserveReleased,
    s.other
  ]))
