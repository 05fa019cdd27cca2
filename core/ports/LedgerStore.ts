import { type BigDecimal, Context, type Effect, Schema } from "effect"
import type { Environment } from "../Environment.ts"
import type { AccountBalance, BalancedEntry, Book, JournalEntry } from "../ledger/Journal.ts"

/** A posting would take a guarded book below zero: the whole entry was refused. */
export class GuardViolation extends Schema.TaggedError<GuardViolation>()("GuardViolation", {
  book: Schema.String,
  currency: Schema.String,
  /** The balance before the entry, decimal text. */
  available: Schema.String
}) {}

export class LedgerStore extends Context.Service<LedgerStore, {
  /**
   * Appends an entry (balanced: only `Journal.entry` makes one) and applies it to the cached
   * balances in one step, its postings in their order, refusing it whole when a guarded book
   * would go negative. Run it inside the transaction of the state change.
   */
  readonly append: (entry: BalancedEntry) => Effect.Effect<void, GuardViolation>
  readonly balances: (environment: Environment, shopId: string) => Effect.Effect<ReadonlyArray<AccountBalance>>
  readonly balance: (environment: Environment, shopId: string, book: Book, currency: string) => Effect.Effect<BigDecimal.BigDecimal>
  /**
   * `balance`, and the account stays locked until the surrounding transaction ends, so a write
   * decided from the balance (repaying what a shop owes) cannot race another one. Call it before
   * the transaction touches other accounts (one lock order: this account first).
   */
  readonly lockBalance: (environment: Environment, shopId: string, book: Book, currency: string) => Effect.Effect<BigDecimal.BigDecimal>
  /** Newest first. */
  readonly entries: (
    environment: Environment,
    shopId: string,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly entries: ReadonlyArray<JournalEntry>; readonly total: number }>
  /**
   * What the postings of one book moved per UTC day and currency, for entries created at or after
   * `since` (`day` is `YYYY-MM-DD`). Days without postings are absent. Exact sums.
   */
  readonly dailyTotals: (
    environment: Environment,
    shopId: string,
    book: Book,
    since: Date
  ) => Effect.Effect<ReadonlyArray<{ readonly day: string; readonly currency: string; readonly amount: BigDecimal.BigDecimal }>>
  /** The shop's entries caused by these records (a payment and its claims), oldest first. */
  readonly entriesFor: (environment: Environment, shopId: string, references: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<JournalEntry>>
  /** Balances recomputed from the postings alone (for invariant checks). */
  readonly postingSums: (environment: Environment, shopId: string) => Effect.Effect<ReadonlyArray<AccountBalance>>
}>()("core/ports/LedgerStore") {}
