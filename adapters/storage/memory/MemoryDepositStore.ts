/** The deposit-account store in memory, with the unique keys of SQL as journaled indexes. */
import { BigDecimal, DateTime, Effect, Layer, Option } from "effect"
import type { DepositAccount, DepositRecord, DepositSettings, DepositStats } from "../../../core/deposits/Deposit.ts"
import { DepositStore } from "../../../core/ports/DepositStore.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { newestFirst, rowsOf } from "./MemoryRows.ts"

const zero = BigDecimal.fromBigInt(0n)

export const MemoryDepositStore = Layer.effect(
  DepositStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const settings = db.table<DepositSettings>("deposit_settings")
    const accounts = db.table<DepositAccount>("deposit_accounts")
    const deposits = db.table<DepositRecord>("deposits")
    // Indexes, journaled like the rows: the unique keys (endUserRef per shop, CLABE, a deposit's
    // tracking key per method), a shop's accounts and an account's deposits.
    const byRef = db.table<string>("deposit_accounts_by_ref")
    const byClabe = db.table<string>("deposit_accounts_by_clabe")
    const byTracking = db.table<string>("deposits_by_tracking")
    const accountsOf = (environment: string, shopId: string) => db.table<true>(`deposit_accounts_of|${environment}|${shopId}`)
    const depositsOf = (accountId: string) => db.table<true>(`deposits_of|${accountId}`)
    const refKey = (environment: string, shopId: string, endUserRef: string) => `${environment}|${shopId}|${endUserRef}`
    const trackingKey = (d: Pick<DepositRecord, "depositMethodId" | "trackingKey">) => `${d.depositMethodId}|${d.trackingKey}`
    const via = <A>(rows: Map<string, A>, id: string | undefined) => Option.fromNullishOr(id === undefined ? undefined : rows.get(id))
    return DepositStore.of({
      settings: (environment, shopId) => db.run(Effect.sync(() => Option.fromNullishOr(settings.get(`${environment}|${shopId}`)))),
      putSettings: (s) => db.run(Effect.sync(() => void settings.set(`${s.environment}|${s.shopId}`, s))),
      insertAccount: (a) =>
        db.run(Effect.sync(() => {
          const existing = via(accounts, byRef.get(refKey(a.environment, a.shopId, a.endUserRef)))
          if (Option.isSome(existing)) return { _tag: "Existing" as const, account: existing.value }
          if (byClabe.has(a.clabe)) return { _tag: "ClabeTaken" as const }
          accounts.set(a.id, a)
          byRef.set(refKey(a.environment, a.shopId, a.endUserRef), a.id)
          byClabe.set(a.clabe, a.id)
          accountsOf(a.environment, a.shopId).set(a.id, true)
          return { _tag: "Created" as const, account: a }
        })),
      findAccountByRef: (environment, shopId, endUserRef) =>
        db.run(Effect.sync(() => via(accounts, byRef.get(refKey(environment, shopId, endUserRef))))),
      findAccount: (environment, shopId, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(accounts.get(id)), (x) => x.environment === environment && x.shopId === shopId))),
      findAccountById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(accounts.get(id)))),
      findAccountByClabe: (clabe) => db.run(Effect.sync(() => via(accounts, byClabe.get(clabe)))),
      setAccountStatus: (id, status, at) =>
        db.run(Effect.sync(() => {
          const a = accounts.get(id)
          if (a === undefined) return false
          accounts.set(id, { ...a, status, updatedAt: at })
          return true
        })),
      listAccounts: (environment, shopId, filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = rowsOf(accounts, accountsOf(environment, shopId))
            .filter((a) => filter.endUserRef === undefined || a.endUserRef === filter.endUserRef)
            .sort(newestFirst)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        })),
      insertDeposit: (d) =>
        db.run(Effect.sync(() => {
          const existing = via(deposits, byTracking.get(trackingKey(d)))
          if (Option.isSome(existing)) return { created: false, deposit: existing.value }
          deposits.set(d.id, d)
          byTracking.set(trackingKey(d), d.id)
          depositsOf(d.accountId).set(d.id, true)
          return { created: true, deposit: d }
        })),
      setDepositTransaction: (id, transactionId, amountUsd) =>
        db.run(Effect.sync(() => {
          const d = deposits.get(id)
          if (d !== undefined) deposits.set(id, { ...d, transactionId, amountUsd })
        })),
      listDeposits: (accountId, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = rowsOf(deposits, depositsOf(accountId))
            .sort((a, b) => DateTime.toEpochMillis(b.receivedAt) - DateTime.toEpochMillis(a.receivedAt) || b.id.localeCompare(a.id))
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        })),
      depositSummary: (accountIds) =>
        db.run(Effect.sync(() => {
          const out = new Map<string, DepositStats>()
          for (const id of accountIds) {
            const mine = rowsOf(deposits, depositsOf(id))
            const credited = mine.filter((d) => d.status === "credited")
            const locals = new Map<string, BigDecimal.BigDecimal>()
            for (const d of credited) locals.set(d.currency, BigDecimal.sum(locals.get(d.currency) ?? zero, d.amount))
            out.set(id, {
              deposits: mine.length,
              credited: credited.length,
              totalUsd: credited.reduce((sum, d) => BigDecimal.sum(sum, d.amountUsd ?? zero), zero),
              localTotals: [...locals].map(([currency, amount]) => ({ currency, amount })),
              lastDepositAt: mine.reduce<DateTime.Utc | null>((last, d) => last === null || DateTime.isGreaterThan(d.receivedAt, last) ? d.receivedAt : last, null)
            })
          }
          return out
        }))
    })
  })
)
