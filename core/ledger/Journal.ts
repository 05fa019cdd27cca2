/**
 * Double-entry bookkeeping of every money movement.
 *
 * Invariants (asserted by `Ledger.post`, the stores and the property tests):
 * 1. Every journal entry balances: per currency, the sum of its postings is 0.
 * 2. Guarded books never go below 0 (the stores refuse the entry as a whole).
 * 3. Entries are immutable; a mistake is corrected by a new entry.
 * 4. A balance is the sum of the postings to its account.
 *
 * Accounts are (environment, shop, book, currency). A posting's amount is signed: positive
 * increases the book's balance. The merchant's books are the platform's debts to the merchant;
 * the counter books record where that money came from or went.
 */
import type { BigDecimal, DateTime } from "effect"
import type { Environment } from "../Environment.ts"

export const merchantBooks = [
  "payin_available",
  "payin_pending",
  "payin_frozen",
  "payin_reserve",
  "payout_available",
  "payout_pending",
  "payout_reserved"
] as const

export const counterBooks = [
  /** What providers owe us for captured payments (negative: receivable). */
  "provider_clearing",
  "fees_platform",
  "fees_flat",
  "fees_provider",
  "fees_chargeback",
  "fx",
  "sandbox_funding",
  "payouts_in_flight",
  /** Withdrawals of the pay-in balance on their way to the merchant's bank. */
  "withdrawals_in_flight",
  "fees_withdrawal",
  /** Settlement batches swept from the pay-in balance, on their way to the merchant's destination. */
  "settlements_in_flight",
  /** What the merchant owes the platform when a chargeback exceeds its balance (negative). */
  "merchant_receivable",
  "external"
] as const

export type MerchantBook = typeof merchantBooks[number]
export type CounterBook = typeof counterBooks[number]
export type Book = MerchantBook | CounterBook

/** Books whose balance must never be negative. */
export const isGuarded = (book: Book): boolean => (merchantBooks as ReadonlyArray<string>).includes(book)

export interface Posting {
  readonly book: Book
  readonly currency: string
  readonly amount: BigDecimal.BigDecimal
}

export interface JournalEntry {
  readonly id: string
  readonly environment: Environment
  readonly shopId: string
  /** What happened, e.g. `payment.completed`, `payment.settled`. */
  readonly kind: string
  /** The record that caused it (transaction id, claim id, ...). */
  readonly reference: string
  readonly createdAt: DateTime.Utc
  readonly postings: ReadonlyArray<Posting>
}

export interface AccountBalance {
  readonly book: Book
  readonly currency: string
  readonly balance: BigDecimal.BigDecimal
}
