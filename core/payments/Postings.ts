/**
 * The journal postings of a payment's life, as pure functions of the payment. Each list balances
 * per currency (the ledger refuses one that does not).
 */
import { BigDecimal } from "effect"
import * as Owed from "../balances/Owed.ts"
import type { Posting } from "../ledger/Journal.ts"
import type { Payment } from "./Payment.ts"
import * as Pricing from "./Pricing.ts"

/**
 * Completion: the provider owes the headline; the merchant's net waits in `pending`, its rolling
 * reserve in `reserve`, and the fees go to their books.
 */
export const completion = (p: Payment): ReadonlyArray<Posting> => {
  const net = Pricing.net(p.amount, p.fees, p.settlement)
  const platformPercent = BigDecimal.subtract(p.fees.platform, p.fees.platformFlat)
  return [
    { book: "provider_clearing", currency: "USD", amount: BigDecimal.negate(p.amount) },
    { book: "payin_pending", currency: "USD", amount: net },
    { book: "payin_reserve", currency: "USD", amount: p.settlement.reserve },
    { book: "fees_platform", currency: "USD", amount: platformPercent },
    { book: "fees_flat", currency: "USD", amount: p.fees.platformFlat },
    { book: "fees_provider", currency: "USD", amount: BigDecimal.sum(p.fees.provider, p.fees.network) }
  ]
}

/**
 * Settlement: `amount` (what is left of the payment's net) leaves pending; it first repays what
 * the shop owes (`owed`), the rest reaches available.
 */
export const settlement = (amount: BigDecimal.BigDecimal, owed: BigDecimal.BigDecimal): ReadonlyArray<Posting> => [
  { book: "payin_pending", currency: "USD", amount: BigDecimal.negate(amount) },
  ...Owed.toAvailable(amount, owed)
]

/** Reserve release: `amount` (what is left of the payment's reserve) leaves the reserve, repaying `owed` first. */
export const reserveRelease = (amount: BigDecimal.BigDecimal, owed: BigDecimal.BigDecimal): ReadonlyArray<Posting> => [
  { book: "payin_reserve", currency: "USD", amount: BigDecimal.negate(amount) },
  ...Owed.toAvailable(amount, owed)
]
