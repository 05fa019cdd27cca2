/**
 * The journal transfers of a payment's life, as pure functions of the payment (the ledger makes
 * each list one entry, balanced by construction).
 */
import { BigDecimal } from "effect"
import * as Owed from "../balances/Owed.ts"
import type { Book, Transfer } from "../ledger/Journal.ts"
import type { Payment } from "./Payment.ts"
import * as Pricing from "./Pricing.ts"

/**
 * Completion: the provider owes the headline; the merchant's net waits in `pending`, its rolling
 * reserve in `reserve`, and the fees go to their books.
 */
export const completion = (p: Payment): ReadonlyArray<Transfer> => {
  const net = Pricing.net(p.amount, p.fees, p.settlement)
  const platformPercent = BigDecimal.subtract(p.fees.platform, p.fees.platformFlat)
  const owed = (to: Book, amount: BigDecimal.BigDecimal): Transfer => ({ from: "provider_clearing", to, currency: "USD", amount })
  return [
    owed("payin_pending", net),
    owed("payin_reserve", p.settlement.reserve),
    owed("fees_platform", platformPercent),
    owed("fees_flat", p.fees.platformFlat),
    owed("fees_provider", BigDecimal.sum(p.fees.provider, p.fees.network))
  ]
}

/**
 * Settlement: `amount` (what is left of the payment's net) leaves pending; it first repays what
 * the shop owes (`owed`), the rest reaches available.
 */
export const settlement = (amount: BigDecimal.BigDecimal, owed: BigDecimal.BigDecimal): ReadonlyArray<Transfer> =>
  Owed.toAvailable("payin_pending", amount, owed)

/** Reserve release: `amount` (what is left of the payment's reserve) leaves the reserve, repaying `owed` first. */
export const reserveRelease = (amount: BigDecimal.BigDecimal, owed: BigDecimal.BigDecimal): ReadonlyArray<Transfer> =>
  Owed.toAvailable("payin_reserve", amount, owed)
