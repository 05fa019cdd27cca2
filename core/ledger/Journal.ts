/**
 * Double-entry bookkeeping of every money movement.
 *
 * Invariants (checked over the stored journal by the property tests and the simulation):
 * 1. Every journal entry balances: per currency, the sum of its postings is 0. This holds by
 *    construction: an entry is made only from transfers (`entry`), each moving one amount from one
 *    book to another, and the stores append nothing else (`BalancedEntry`).
 * 2. Guarded books never go below 0 (the stores refuse the entry as a whole).
 * 3. Entries are immutable; a mistake is corrected by a new entry.
 * 4. A balance is the sum of the postings to its account.
 *
 * Accounts are (environment, shop, book, currency). A posting's amount is signed: positive
 * increases the book's balance. The merchant's books are the platform's debts to the merchant;
 * the counter books record where that money came from or went.
 */
import { BigDecimal, Data, type DateTime, Result } from "effect"
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

/**
 * `amount` of `currency` leaves `from` and reaches `to` (Formance's posting: source, destination,
 * amount, asset). `from` and `to` give the direction, so an amount is never negative.
 */
export interface Transfer {
  readonly from: Book
  readonly to: Book
  readonly currency: string
  readonly amount: BigDecimal.BigDecimal
}

/** What one entry did to one account: signed, positive increases the book's balance. */
export interface Posting {
  readonly book: Book
  readonly currency: string
  readonly amount: BigDecimal.BigDecimal
}

/** Only `entry` can attach it (the symbol is not exported), so only derived postings carry it. */
declare const derived: unique symbol

/** Postings derived from transfers by `entry`: per currency they sum to 0. */
export type BalancedPostings = ReadonlyArray<Posting> & { readonly [derived]: true }

/** A journal entry as the journal holds it (read back from a store). */
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

/** A journal entry made by `entry`: the only kind `LedgerStore.append` writes. */
export interface BalancedEntry extends JournalEntry {
  readonly postings: BalancedPostings
}

/** A transfer with a negative amount: a bug where it was built (the direction is `from` and `to`). */
export class NegativeTransfer extends Data.TaggedError("NegativeTransfer")<{
  readonly message: string
  readonly transfer: Transfer
}> {}

/**
 * The entry the transfers make. Each account gets one posting, the net of the transfers that
 * name it; per currency (in the order the transfers first name the currencies), the books money
 * leaves come first, then the books it reaches, each in the order the transfers first name them.
 * A zero transfer moves nothing and is skipped, as is a book whose transfers net to zero, so an
 * entry may have no postings (then there is nothing to write). A negative transfer is refused.
 */
export const entry = (
  header: Omit<JournalEntry, "postings">,
  transfers: ReadonlyArray<Transfer>
): Result.Result<BalancedEntry, NegativeTransfer> => {
  // An entry names a handful of accounts: a list searched in order keeps the order they were named.
  const nets: Array<{ readonly book: Book; readonly currency: string; amount: BigDecimal.BigDecimal }> = []
  const add = (book: Book, currency: string, amount: BigDecimal.BigDecimal) => {
    const net = nets.find((n) => n.book === book && n.currency === currency)
    if (net === undefined) nets.push({ book, currency, amount })
    else net.amount = BigDecimal.sum(net.amount, amount)
  }
  const currencies: Array<string> = []
  for (const t of transfers) {
    if (BigDecimal.isNegative(t.amount)) {
      return Result.fail(
        new NegativeTransfer({
          message: `negative transfer in ${header.kind} ${header.reference}: ${t.from} to ${t.to} ${t.currency} ${BigDecimal.format(t.amount)}`,
          transfer: t
        })
      )
    }
    if (BigDecimal.isZero(t.amount)) continue
    if (!currencies.includes(t.currency)) currencies.push(t.currency)
    add(t.from, t.currency, BigDecimal.negate(t.amount))
    add(t.to, t.currency, t.amount)
  }
  const postings: Array<Posting> = []
  for (const currency of currencies) {
    for (const n of nets) if (n.currency === currency && BigDecimal.isNegative(n.amount)) postings.push({ book: n.book, currency, amount: n.amount })
    for (const n of nets) if (n.currency === currency && BigDecimal.isPositive(n.amount)) postings.push({ book: n.book, currency, amount: n.amount })
  }
  // The one place the brand is attached: every amount above came in pairs of +x and -x.
  return Result.succeed({ ...header, postings: postings as ReadonlyArray<Posting> as BalancedPostings })
}

export interface AccountBalance {
  readonly book: Book
  readonly currency: string
  readonly balance: BigDecimal.BigDecimal
}
