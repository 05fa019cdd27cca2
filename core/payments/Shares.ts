/**
 * A completed payment's own shares of the shop's pooled books, as pure functions of the payment:
 * its net waits in `payin_pending` until it settles, its rolling reserve in `payin_reserve` until
 * it is released. The books pool every payment of the shop; the shares say whose money is whose.
 *
 * Invariant (asserted by the ledger property tests): per shop, `payin_pending` = the sum of its
 * payments' `pendingShare`, and `payin_reserve` = the sum of their `reserveShare`. It holds
 * because every posting to those books names one payment and changes its share in the same
 * transaction: completion adds the shares, a claim takes from its own payment's shares
 * (`drawDown`, recorded in `settlement.pendingTaken` / `reserveTaken`), settlement and release
 * move exactly what is left. So a settlement never spends another payment's money and never
 * finds its money gone.
 */
import { BigDecimal } from "effect"
import type { Book, Transfer } from "../ledger/Journal.ts"
import * as Money from "../Money.ts"
import type { Payment, Settlement } from "./Payment.ts"
import * as Pricing from "./Pricing.ts"

/** USD of this payment still in `payin_pending`: its net less what its claims took, until it settles. */
export const pendingShare = (p: Payment): BigDecimal.BigDecimal =>
  p.completedAt === null || p.settlement.status !== "pending"
    ? Money.zero
    : BigDecimal.subtract(Pricing.net(p.amount, p.fees, p.settlement), p.settlement.pendingTaken)

/** USD of this payment still in `payin_reserve`: its reserve less what its claims took, until released. */
export const reserveShare = (p: Payment): BigDecimal.BigDecimal =>
  p.completedAt === null || p.settlement.reserveReleasedAt !== null
    ? Money.zero
    : BigDecimal.subtract(p.settlement.reserve, p.settlement.reserveTaken)

export interface DrawDown {
  /**
   * What is taken, to each destination in turn: from the payment's pending share, then its
   * reserve share, then `payin_available`, then what could not be covered, owed
   * (`merchant_receivable`). Zero transfers included.
   */
  readonly transfers: ReadonlyArray<Transfer>
  /** The payment's settlement with what was taken from its shares added. */
  readonly settlement: Settlement
  /** What the payment's shares and `available` could not cover. */
  readonly shortfall: BigDecimal.BigDecimal
  /** What the sources held: the payment's shares and `available`. */
  readonly held: BigDecimal.BigDecimal
}

/**
 * Takes USD for a claim on `p`, the amount each destination (`to`, in order) receives: from the
 * payment's own pending share first, then its own reserve share, then the shop's `available`
 * (`available` is that book's balance now); the rest is owed.
 */
export const drawDown = (
  p: Payment,
  available: BigDecimal.BigDecimal,
  to: ReadonlyArray<{ readonly book: Book; readonly amount: BigDecimal.BigDecimal }>
): DrawDown => {
  const source = (book: Book, held: BigDecimal.BigDecimal) => ({ book, held, taken: Money.zero })
  const fromPending = source("payin_pending", pendingShare(p))
  const fromReserve = source("payin_reserve", reserveShare(p))
  const sources = [fromPending, fromReserve, source("payin_available", BigDecimal.max(available, Money.zero))]
  const transfers: Array<Transfer> = []
  let shortfall = Money.zero
  for (const destination of to) {
    let left = destination.amount
    for (const from of sources) {
      const part = BigDecimal.max(BigDecimal.min(BigDecimal.subtract(from.held, from.taken), left), Money.zero)
      from.taken = BigDecimal.sum(from.taken, part)
      left = BigDecimal.subtract(left, part)
      transfers.push({ from: from.book, to: destination.book, currency: "USD", amount: part })
    }
    transfers.push({ from: "merchant_receivable", to: destination.book, currency: "USD", amount: left })
    shortfall = BigDecimal.sum(shortfall, left)
  }
  return {
    transfers,
    settlement: {
      ...p.settlement,
      pendingTaken: BigDecimal.sum(p.settlement.pendingTaken, fromPending.taken),
      reserveTaken: BigDecimal.sum(p.settlement.reserveTaken, fromReserve.taken)
    },
    shortfall,
    held: BigDecimal.sumAll(sources.map((s) => s.held))
  }
}
