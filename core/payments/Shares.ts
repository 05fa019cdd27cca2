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
import type { Posting } from "../ledger/Journal.ts"
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
  /** Negative postings on `payin_pending`, `payin_reserve` and `payin_available` (zeros included). */
  readonly postings: ReadonlyArray<Posting>
  /** The payment's settlement with what was taken from its shares added. */
  readonly settlement: Settlement
  /** What the payment's shares and `available` could not cover. */
  readonly shortfall: BigDecimal.BigDecimal
  /** What the sources held: the payment's shares and `available`. */
  readonly held: BigDecimal.BigDecimal
}

/**
 * Takes `amount` USD for a claim on `p`: from the payment's own pending share first, then its own
 * reserve share, then the shop's `available` (`available` is that book's balance now).
 */
export const drawDown = (p: Payment, available: BigDecimal.BigDecimal, amount: BigDecimal.BigDecimal): DrawDown => {
  const sources = [pendingShare(p), reserveShare(p), BigDecimal.max(available, Money.zero)] as const
  let left = amount
  const [fromPending, fromReserve, fromAvailable] = sources.map((held) => {
    const part = BigDecimal.max(BigDecimal.min(held, left), Money.zero)
    left = BigDecimal.subtract(left, part)
    return part
  }) as [BigDecimal.BigDecimal, BigDecimal.BigDecimal, BigDecimal.BigDecimal]
  return {
    postings: [
      { book: "payin_pending", currency: "USD", amount: BigDecimal.negate(fromPending) },
      { book: "payin_reserve", currency: "USD", amount: BigDecimal.negate(fromReserve) },
      { book: "payin_available", currency: "USD", amount: BigDecimal.negate(fromAvailable) }
    ],
    settlement: {
      ...p.settlement,
      pendingTaken: BigDecimal.sum(p.settlement.pendingTaken, fromPending),
      reserveTaken: BigDecimal.sum(p.settlement.reserveTaken, fromReserve)
    },
    shortfall: left,
    held: BigDecimal.sumAll(sources)
  }
}
