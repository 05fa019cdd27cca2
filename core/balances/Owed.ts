/**
 * What a shop owes the platform: the part of a refund or a chargeback (with its fee) that the
 * payment's own shares and the shop's available balance could not cover. It is the
 * `merchant_receivable` book, negative while something is owed.
 *
 * It is recovered from later income: whenever money becomes available to the shop (a
 * settlement, a reserve release, a won chargeback), it first repays what is owed, in the same
 * journal entry, and only the rest reaches `payin_available`. The owed balance is read with a
 * lock (`LedgerStore.lockBalance`) in that transaction, so two repayments never both repay the
 * same debt.
 *
 * Lock order, so that transactions wait for each other instead of deadlocking: the payment's row
 * (its versioned write) first, then what is owed, then the claim's row and the other accounts
 * (the journal entry).
 */
import { BigDecimal, Effect } from "effect"
import type { Environment } from "../Environment.ts"
import type { Book, Transfer } from "../ledger/Journal.ts"
import * as Money from "../Money.ts"
import type { LedgerStore } from "../ports/LedgerStore.ts"

/** What is owed, from the `merchant_receivable` balance (never negative). */
export const owedOf = (receivable: BigDecimal.BigDecimal): BigDecimal.BigDecimal => BigDecimal.max(BigDecimal.negate(receivable), Money.zero)

/**
 * Reads what the shop owes and locks it until the transaction ends. Call it in a transaction
 * that repays or adds to it after writing the payment and before the claim and the journal entry.
 */
export const lockOwed = (store: LedgerStore["Service"], account: { readonly environment: Environment; readonly shopId: string }) =>
  Effect.map(store.lockBalance(account.environment, account.shopId, "merchant_receivable", "USD"), owedOf)

/** `amount` USD leaving `from` to become the shop's: what is owed is repaid first, the rest goes to available. */
export const toAvailable = (from: Book, amount: BigDecimal.BigDecimal, owed: BigDecimal.BigDecimal): ReadonlyArray<Transfer> => {
  const repaid = BigDecimal.max(BigDecimal.min(amount, owed), Money.zero)
  return [
    { from, to: "merchant_receivable", currency: "USD", amount: repaid },
    { from, to: "payin_available", currency: "USD", amount: BigDecimal.subtract(amount, repaid) }
  ]
}
