/** The ledger store in memory: journal entries and the balances they keep, with the guarded books' check. */
import { BigDecimal, DateTime, Effect, Layer } from "effect"
import { MemoryDb } from "./MemoryDb.ts"
import { newestFirst, rowsOf } from "./MemoryRows.ts"
import type { Environment } from "../../../core/Environment.ts"
import { type AccountBalance, type Book, isGuarded, type JournalEntry } from "../../../core/ledger/Journal.ts"
import { GuardViolation, LedgerStore } from "../../../core/ports/LedgerStore.ts"

const zero = BigDecimal.fromBigInt(0n)

const accountKey = (environment: Environment, shopId: string, book: Book, currency: string) =>
  `${environment}|${shopId}|${book}|${currency}`

export const MemoryLedgerStore = Layer.effect(
  LedgerStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const entries = db.table<JournalEntry>("journal_entries")
    /** Index: a shop's journal entries. */
    const entriesOf = (environment: Environment, shopId: string) => db.table<true>(`journal_entries_of|${environment}|${shopId}`)
    const balances = db.table<AccountBalance & { readonly environment: Environment; readonly shopId: string }>("account_balances")
    const balancesOf = (environment: Environment, shopId: string) => db.table<true>(`account_balances_of|${environment}|${shopId}`)
    const sums = (environment: Environment, shopId: string, source: ReadonlyArray<JournalEntry>) => {
      const out = new Map<string, AccountBalance>()
      for (const e of source) {
        if (e.environment !== environment || e.shopId !== shopId) continue
        for (const p of e.postings) {
          const key = `${p.book}|${p.currency}`
          const prev = out.get(key)?.balance ?? zero
          out.set(key, { book: p.book, currency: p.currency, balance: BigDecimal.sum(prev, p.amount) })
        }
      }
      return [...out.values()]
    }
    return LedgerStore.of({
      append: (entry) =>
        db.run(Effect.suspend(() => {
          const next = new Map<string, AccountBalance & { readonly environment: Environment; readonly shopId: string }>()
          for (const p of entry.postings) {
            const key = accountKey(entry.environment, entry.shopId, p.book, p.currency)
            const current = next.get(key) ?? balances.get(key) ??
              { environment: entry.environment, shopId: entry.shopId, book: p.book, currency: p.currency, balance: zero }
            const balance = BigDecimal.sum(current.balance, p.amount)
            if (isGuarded(p.book) && BigDecimal.isNegative(balance)) {
              return Effect.fail(new GuardViolation({ book: p.book, currency: p.currency, available: BigDecimal.format(current.balance) }))
            }
            next.set(key, { ...current, balance })
          }
          for (const [key, value] of next) {
            if (!balances.has(key)) balancesOf(entry.environment, entry.shopId).set(key, true)
            balances.set(key, value)
          }
          entries.set(entry.id, entry)
          entriesOf(entry.environment, entry.shopId).set(entry.id, true)
          return Effect.void
        })),
      balances: (environment, shopId) =>
        db.run(Effect.sync(() =>
          rowsOf(balances, balancesOf(environment, shopId))
            .map(({ balance, book, currency }) => ({ book, currency, balance }))
        )),
      balance: (environment, shopId, book, currency) =>
        db.run(Effect.sync(() => balances.get(accountKey(environment, shopId, book, currency))?.balance ?? zero)),
      // Memory transactions are serializable: a read inside one is already exclusive.
      lockBalance: (environment, shopId, book, currency) =>
        db.run(Effect.sync(() => balances.get(accountKey(environment, shopId, book, currency))?.balance ?? zero)),
      entries: (environment, shopId, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const all = rowsOf(entries, entriesOf(environment, shopId)).sort(newestFirst)
          return { entries: all.slice(offset, offset + limit), total: all.length }
        })),
      dailyTotals: (environment, shopId, book, since) =>
        db.run(Effect.sync(() => {
          const out = new Map<string, { day: string; currency: string; amount: BigDecimal.BigDecimal }>()
          for (const e of rowsOf(entries, entriesOf(environment, shopId))) {
            const at = DateTime.toEpochMillis(e.createdAt)
            if (at < since.getTime()) continue
            const day = new Date(at).toISOString().slice(0, 10)
            for (const p of e.postings) {
              if (p.book !== book) continue
              const key = `${day}|${p.currency}`
              out.set(key, { day, currency: p.currency, amount: BigDecimal.sum(out.get(key)?.amount ?? zero, p.amount) })
            }
          }
          return [...out.values()].sort((a, b) => a.day.localeCompare(b.day) || a.currency.localeCompare(b.currency))
        })),
      entriesFor: (environment, shopId, references) =>
        db.run(Effect.sync(() =>
          rowsOf(entries, entriesOf(environment, shopId)).filter((e) => references.includes(e.reference)).sort((a, b) => -newestFirst(a, b))
        )),
      postingSums: (environment, shopId) => db.run(Effect.sync(() => sums(environment, shopId, rowsOf(entries, entriesOf(environment, shopId)))))
    })
  })
)
