/** The SQL ledger store: journal entries, postings and cached balances guarded by a CHECK constraint. */
import { Array as Arr, BigDecimal, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { Environment } from "../../../core/Environment.ts"
import { type AccountBalance, type Book, isGuarded, type JournalEntry } from "../../../core/ledger/Journal.ts"
import { GuardViolation, LedgerStore } from "../../../core/ports/LedgerStore.ts"
import * as Money from "../../../core/Money.ts"
import { date, utc } from "./Rows.ts"

const zero = BigDecimal.fromBigInt(0n)

const isCheckViolation = (e: SqlError.SqlError) => (e.reason as { cause?: { code?: string } }).cause?.code === "23514"

/** A journal entry row with its postings aggregated (`postingsJson`). */
export interface EntryRow {
  readonly id: string
  readonly environment: Environment
  readonly shopId: string
  readonly kind: string
  readonly reference: string
  readonly createdAt: Date
  readonly postings: ReadonlyArray<{ book: Book; currency: string; amount: string | number }>
}

/** The select expression of an entry's postings, in order, as `postings` (alias the entry `e`). */
export const postingsJson = `(SELECT json_agg(json_build_object('book', p.book, 'currency', p.currency, 'amount', p.amount::text) ORDER BY p.seq)
  FROM postings p WHERE p.entry_id = e.id) AS postings`

export const entryOf = (r: EntryRow): JournalEntry => ({
  id: r.id,
  environment: r.environment,
  shopId: r.shopId,
  kind: r.kind,
  reference: r.reference,
  createdAt: utc(r.createdAt),
  postings: r.postings.map((p) => ({ book: p.book, currency: p.currency, amount: Money.decimal(String(p.amount)) }))
})

const byAccount = (a: { readonly book: string; readonly currency: string }, b: { readonly book: string; readonly currency: string }) =>
  a.book < b.book ? -1 : a.book > b.book ? 1 : a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0

export const SqlLedgerStore = Layer.effect(
  LedgerStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    interface BalanceRow {
      readonly book: Book
      readonly currency: string
      readonly balance: string
    }
    const toBalance = (r: BalanceRow): AccountBalance => ({ book: r.book, currency: r.currency, balance: Money.decimal(r.balance) })
    return LedgerStore.of({
      append: (entry) =>
        Effect.gen(function*() {
          yield* sql`INSERT INTO journal_entries ${
            sql.insert({
              id: entry.id,
              environment: entry.environment,
              shopId: entry.shopId,
              kind: entry.kind,
              reference: entry.reference,
              createdAt: date(entry.createdAt)
            })
          }`
          const postings: ReadonlyArray<Record<string, unknown>> = entry.postings.map((p, seq) => ({
            entryId: entry.id,
            seq,
            book: p.book,
            currency: p.currency,
            amount: Money.toText(p.amount)
          }))
          if (Arr.isReadonlyArrayNonEmpty(postings)) yield* sql`INSERT INTO postings ${sql.insert(postings)}`
          // Balances are updated in one order for every entry (by book, then currency), whatever
          // order the entry names its accounts in: two transactions that touch the same accounts
          // lock their rows in the same order, so they queue rather than deadlock.
          for (const p of [...entry.postings].sort(byAccount)) {
            const before = yield* sql<{ readonly balance: string }>`
              SELECT balance FROM account_balances
              WHERE environment = ${entry.environment} AND shop_id = ${entry.shopId} AND book = ${p.book} AND currency = ${p.currency}`
            // Update first: the check constraint sees the new balance. Only an account seen for the
            // first time is inserted (concurrent first inserts meet in ON CONFLICT).
            const apply = Effect.gen(function*() {
              const rows = yield* sql`
                UPDATE account_balances SET balance = balance + ${Money.toText(p.amount)}
                WHERE environment = ${entry.environment} AND shop_id = ${entry.shopId} AND book = ${p.book} AND currency = ${p.currency}
                RETURNING book`
              if (rows.length === 0) {
                yield* sql`
                  INSERT INTO account_balances (environment, shop_id, book, currency, guarded, balance)
                  VALUES (${entry.environment}, ${entry.shopId}, ${p.book}, ${p.currency}, ${isGuarded(p.book)}, ${Money.toText(p.amount)})
                  ON CONFLICT (environment, shop_id, book, currency) DO UPDATE SET balance = account_balances.balance + EXCLUDED.balance`
              }
            })
            const updated = yield* apply.pipe(Effect.as(true), Effect.catchIf(isCheckViolation, () => Effect.succeed(false)))
            if (!updated) {
              return yield* new GuardViolation({ book: p.book, currency: p.currency, available: before[0]?.balance ?? "0" })
            }
          }
        }).pipe(
          // Its own (nested) transaction: a refused entry rolls back to the savepoint, whole.
          sql.withTransaction,
          Effect.catchTag("SqlError", Effect.die)
        ),
      balances: (environment, shopId) =>
        sql<BalanceRow>`SELECT book, currency, balance FROM account_balances WHERE environment = ${environment} AND shop_id = ${shopId}`.pipe(
          Effect.map((rows) => rows.map(toBalance)),
          Effect.orDie
        ),
      balance: (environment, shopId, book, currency) =>
        sql<BalanceRow>`SELECT book, currency, balance FROM account_balances
          WHERE environment = ${environment} AND shop_id = ${shopId} AND book = ${book} AND currency = ${currency}`.pipe(
          Effect.map((rows) => rows.length === 0 ? zero : Money.decimal(rows[0]!.balance)),
          Effect.orDie
        ),
      // FOR UPDATE: a concurrent locker waits for this transaction, then reads the committed
      // balance (READ COMMITTED re-reads the row). An account not created yet has nothing to lock.
      lockBalance: (environment, shopId, book, currency) =>
        sql<BalanceRow>`SELECT book, currency, balance FROM account_balances
          WHERE environment = ${environment} AND shop_id = ${shopId} AND book = ${book} AND currency = ${currency} FOR UPDATE`.pipe(
          Effect.map((rows) => rows.length === 0 ? zero : Money.decimal(rows[0]!.balance)),
          Effect.orDie
        ),
      entries: (environment, shopId, { limit, offset }) =>
        Effect.gen(function*() {
          const rows = yield* sql<EntryRow>`
            SELECT e.*, ${sql.literal(postingsJson)}
            FROM journal_entries e WHERE e.environment = ${environment} AND e.shop_id = ${shopId}
            ORDER BY e.created_at DESC, e.id DESC LIMIT ${limit} OFFSET ${offset}`
          const total = yield* sql<{ readonly n: number }>`
            SELECT count(*)::int AS n FROM journal_entries WHERE environment = ${environment} AND shop_id = ${shopId}`
          return {
            total: total[0]?.n ?? 0,
            entries: rows.map(entryOf)
          }
        }).pipe(Effect.orDie),
      dailyTotals: (environment, shopId, book, since) =>
        sql<{ readonly day: string; readonly currency: string; readonly amount: string }>`
          SELECT to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, p.currency, sum(p.amount)::text AS amount
          FROM postings p JOIN journal_entries e ON e.id = p.entry_id
          WHERE e.environment = ${environment} AND e.shop_id = ${shopId} AND p.book = ${book} AND e.created_at >= ${since}
          GROUP BY 1, 2 ORDER BY 1, 2`.pipe(
          Effect.map((rows) => rows.map((r) => ({ day: r.day, currency: r.currency, amount: Money.decimal(r.amount) }))),
          Effect.orDie
        ),
      entriesFor: (environment, shopId, references) =>
        references.length === 0 ? Effect.succeed([]) : sql<EntryRow>`
          SELECT e.*, ${sql.literal(postingsJson)}
          FROM journal_entries e WHERE e.environment = ${environment} AND e.shop_id = ${shopId} AND ${sql.in("e.reference", references)}
          ORDER BY e.created_at, e.id`.pipe(Effect.map((rows) => rows.map(entryOf)), Effect.orDie),
      postingSums: (environment, shopId) =>
        sql<BalanceRow>`
          SELECT p.book, p.currency, sum(p.amount)::text AS balance
          FROM postings p JOIN journal_entries e ON e.id = p.entry_id
          WHERE e.environment = ${environment} AND e.shop_id = ${shopId}
          GROUP BY p.book, p.currency`.pipe(Effect.map((rows) => rows.map(toBalance)), Effect.orDie)
    })
  })
)
