/** Memory implementation of the deposit-account port. */
import { BigDecimal, DateTime, Effect, Layer, Option } from "effect"
import type { DepositAccount, DepositRecord, DepositSettings, DepositStats } from "../../../core/deposits/Deposit.ts"
import { DepositStore } from "../../../core/ports/DepositStore.ts"
import { MemoryDb } from "./MemoryDb.ts"

const zero = BigDecimal.fromBigInt(0n)
const newestFirst = (a: { createdAt: DateTime.Utc; id: string }, b: { createdAt: DateTime.Utc; id: string }) =>
  DateTime.toEpochMillis(b.createdAt) - DateTime.toEpochMillis(a.createdAt) || b.id.localeCompare(a.id)

export const MemoryDepositStore = Layer.effect(
  DepositStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const settings = db.table<DepositSettings>("deposit_settings")
    const accounts = db.table<DepositAccount>("deposit_accounts")
    const deposits = db.table<DepositRecord>("deposits")
    const find = <A>(rows: Map<string, A>, p: (a: A) => boolean) => Option.fromNullishOr([...rows.values()].find(p))
    return DepositStore.of({
      settings: (environment, shopId) => db.run(Effect.sync(() => Option.fromNullishOr(settings.get(`${environment}|${shopId}`)))),
      putSettings: (s) => db.run(Effect.sync(() => void settings.set(`${s.environment}|${s.shopId}`, s))),
      insertAccount: (a) =>
        db.run(Effect.sync(() => {
          const existing = find(accounts, (x) => x.environment === a.environment && x.shopId === a.shopId && x.endUserRef === a.endUserRef)
          if (Option.isSome(existing)) return { _tag: "Existing" as const, account: existing.value }
          if (Option.isSome(find(accounts, (x) => x.clabe === a.clabe))) return { _tag: "ClabeTaken" as const }
          accounts.set(a.id, a)
          return { _tag: "Created" as const, account: a }
        })),
      findAccountByRef: (environment, shopId, endUserRef) =>
        db.run(Effect.sync(() => find(accounts, (x) => x.environment === environment && x.shopId === shopId && x.endUserRef === endUserRef))),
      findAccount: (environment, shopId, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(accounts.get(id)), (x) => x.environment === environment && x.shopId === shopId))),
      findAccountById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(accounts.get(id)))),
      findAccountByClabe: (clabe) => db.run(Effect.sync(() => find(accounts, (x) => x.clabe === clabe))),
      setAccountStatus: (id, status, at) =>
        db.run(Effect.sync(() => {
          const a = accounts.get(id)
          if (a === undefined) return false
          accounts.set(id, { ...a, status, updatedAt: at })
          return true
        })),
      listAccounts: (environment, shopId, filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = [...accounts.values()]
            .filter((a) => a.environment === environment && a.shopId === shopId && (filter.endUserRef === undefined || a.endUserRef === filter.endUserRef))
            .sort(newestFirst)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        })),
      insertDeposit: (d) =>
        db.run(Effect.sync(() => {
          const existing = find(deposits, (x) => x.depositMethodId === d.depositMethodId && x.trackingKey === d.trackingKey)
          if (Option.isSome(existing)) return { created: false, deposit: existing.value }
          deposits.set(d.id, d)
          return { created: true, deposit: d }
        })),
      setDepositTransaction: (id, transactionId, amountUsd) =>
        db.run(Effect.sync(() => {
          const d = deposits.get(id)
          if (d !== undefined) deposits.set(id, { ...d, transactionId, amountUsd })
        })),
      listDeposits: (accountId, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = [...deposits.values()]
            .filter((d) => d.accountId === accountId)
            .sort((a, b) => DateTime.toEpochMillis(b.receivedAt) - DateTime.toEpochMillis(a.receivedAt) || b.id.localeCompare(a.id))
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        })),
      depositSummary: (accountIds) =>
        db.run(Effect.sync(() => {
          const out = new Map<string, DepositStats>()
          for (const id of accountIds) {
            const mine = [...deposits.values()].filter((d) => d.accountId === id)
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
