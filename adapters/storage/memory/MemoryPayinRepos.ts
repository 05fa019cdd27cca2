/** Memory implementations of the pay-in ports: FX rates, ledger, payments, outbox, routes. */
import { BigDecimal, DateTime, Effect, Layer, Option } from "effect"
import type { Environment } from "../../../core/Environment.ts"
import { type AccountBalance, type Book, isGuarded, type JournalEntry } from "../../../core/ledger/Journal.ts"
import { type FxRate, FxRateStore } from "../../../core/ports/FxRateStore.ts"
import { GuardViolation, LedgerStore } from "../../../core/ports/LedgerStore.ts"
import { type OutboxEvent, OutboxStore } from "../../../core/ports/OutboxStore.ts"
import { PaymentStore } from "../../../core/ports/PaymentStore.ts"
import { type ProviderRoute, ProviderRouteStore } from "../../../core/ports/ProviderRouteStore.ts"
import type { Payment } from "../../../core/payments/Payment.ts"
import type { CheckoutSession } from "../../../core/checkout/CheckoutSession.ts"
import type { Claim } from "../../../core/claims/Claim.ts"
import type { Payout } from "../../../core/payouts/Payout.ts"
import { PayoutStore } from "../../../core/ports/PayoutStore.ts"
import { ClaimStore } from "../../../core/ports/ClaimStore.ts"
import { CheckoutSessionStore } from "../../../core/ports/CheckoutSessionStore.ts"
import type { Withdrawal } from "../../../core/balances/Withdrawal.ts"
import { WithdrawalStore } from "../../../core/ports/WithdrawalStore.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { clockOffset } from "./MemorySandboxClockStore.ts"

const zero = BigDecimal.fromBigInt(0n)
const newestFirst = (a: { createdAt: DateTime.Utc; id: string }, b: { createdAt: DateTime.Utc; id: string }) =>
  DateTime.toEpochMillis(b.createdAt) - DateTime.toEpochMillis(a.createdAt) || b.id.localeCompare(a.id)


/** An insert that, like SQL's primary key, refuses a row whose id is taken (a defect: ids are unique by construction). */
const insertOnce = <A>(db: MemoryDb["Service"], rows: Map<string, A>, id: string, row: A, what: string) =>
  db.run(Effect.suspend(() => rows.has(id) ? Effect.die(new Error(`duplicate ${what} ${id}`)) : Effect.sync(() => void rows.set(id, row))))

export const MemoryFxRateStore = Layer.effect(
  FxRateStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const rates = db.table<FxRate>("fx_rates")
    return FxRateStore.of({
      get: (currency) => db.run(Effect.sync(() => Option.fromNullishOr(rates.get(currency)))),
      list: db.run(Effect.sync(() => [...rates.values()].sort((a, b) => a.currency.localeCompare(b.currency)))),
      put: (rate) => db.run(Effect.sync(() => void rates.set(rate.currency, rate))),
      seed: (seed) =>
        db.run(Effect.sync(() => {
          for (const rate of seed) if (!rates.has(rate.currency)) rates.set(rate.currency, rate)
        }))
    })
  })
)

const accountKey = (environment: Environment, shopId: string, book: Book, currency: string) =>
  `${environment}|${shopId}|${book}|${currency}`

export const MemoryLedgerStore = Layer.effect(
  LedgerStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const entries = db.table<JournalEntry>("journal_entries")
    const balances = db.table<AccountBalance & { readonly environment: Environment; readonly shopId: string }>("account_balances")
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
          for (const [key, value] of next) balances.set(key, value)
          entries.set(entry.id, entry)
          return Effect.void
        })),
      balances: (environment, shopId) =>
        db.run(Effect.sync(() =>
          [...balances.values()]
            .filter((b) => b.environment === environment && b.shopId === shopId)
            .map(({ balance, book, currency }) => ({ book, currency, balance }))
        )),
      balance: (environment, shopId, book, currency) =>
        db.run(Effect.sync(() => balances.get(accountKey(environment, shopId, book, currency))?.balance ?? zero)),
      // Memory transactions are serializable: a read inside one is already exclusive.
      lockBalance: (environment, shopId, book, currency) =>
        db.run(Effect.sync(() => balances.get(accountKey(environment, shopId, book, currency))?.balance ?? zero)),
      entries: (environment, shopId, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const all = [...entries.values()].filter((e) => e.environment === environment && e.shopId === shopId).sort(newestFirst)
          return { entries: all.slice(offset, offset + limit), total: all.length }
        })),
      postingSums: (environment, shopId) => db.run(Effect.sync(() => sums(environment, shopId, [...entries.values()])))
    })
  })
)

export const MemoryPaymentStore = Layer.effect(
  PaymentStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const payments = db.table<Payment>("payments")
    return PaymentStore.of({
      insert: (p) => insertOnce(db, payments, p.id, p, "payment"),
      find: (environment, shopId, id) =>
        db.run(Effect.sync(() =>
          Option.filter(Option.fromNullishOr(payments.get(id)), (p) => p.environment === environment && p.shopId === shopId)
        )),
      findById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(payments.get(id)))),
      update: (p) =>
        db.run(Effect.sync(() => {
          const current = payments.get(p.id)
          if (current === undefined || current.version !== p.version - 1) return false
          payments.set(p.id, p)
          return true
        })),
      list: (environment, shopId, filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = [...payments.values()].filter((p) =>
            p.environment === environment && p.shopId === shopId &&
            (filter.statuses === undefined || filter.statuses.includes(p.status)) &&
            (filter.paymentMethodId === undefined || p.paymentMethodId === filter.paymentMethodId) &&
            (filter.country === undefined || p.country === filter.country) &&
            (filter.merchantOrderId === undefined || p.merchantOrderId === filter.merchantOrderId) &&
            (filter.method === undefined || p.method === filter.method)
          ).sort(newestFirst)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        })),
      pendingCreatedBefore: (createdBefore, limit, sandboxShopId) =>
        db.run(Effect.sync(() =>
          [...payments.values()]
            .filter((p) =>
              p.status === "pending" &&
              (sandboxShopId === undefined || (p.environment === "sandbox" && p.shopId === sandboxShopId)) &&
              DateTime.toEpochMillis(p.createdAt) - DateTime.toEpochMillis(createdBefore) <
                (p.environment === "sandbox" ? clockOffset(db, p.shopId) : 0)
            )
            .sort((a, b) => -newestFirst(a, b))
            .slice(0, limit)
        ))
    })
  })
)

/**
 * Events with an index per shop and per related object: the ids in the order they were appended
 * (which is their order in time: appends run one at a time under the store's lock). The indexes
 * live outside the journaled tables, so an event a rolled-back transaction appended stays listed
 * there but is not found in the table, and is skipped.
 */
export const MemoryOutboxStore = Layer.effect(
  OutboxStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const events = db.table<OutboxEvent>("outbox")
    const byShop = new Map<string, Array<string>>()
    const byRelated = new Map<string, Array<string>>()
    const shopKey = (environment: Environment, shopId: string) => `${environment}|${shopId}`
    const push = (index: Map<string, Array<string>>, key: string, id: string) => {
      const ids = index.get(key)
      if (ids === undefined) index.set(key, [id])
      else ids.push(id)
    }
    /** A shop's events (or those about one object), oldest first. */
    const ofShop = (environment: Environment, shopId: string, relatedId?: string) => {
      const ids = relatedId === undefined
        ? byShop.get(shopKey(environment, shopId))
        : byRelated.get(`${shopKey(environment, shopId)}|${relatedId}`)
      return (ids ?? []).flatMap((id) => {
        const event = events.get(id)
        return event === undefined ? [] : [event]
      }).sort((a, b) => -newestFirst(a, b))
    }
    return OutboxStore.of({
      append: (event) =>
        db.run(Effect.sync(() => {
          if (events.has(event.id)) return
          events.set(event.id, event)
          push(byShop, shopKey(event.environment, event.shopId), event.id)
          if (event.relatedId !== null) push(byRelated, `${shopKey(event.environment, event.shopId)}|${event.relatedId}`, event.id)
        })),
      list: (environment, shopId) => db.run(Effect.sync(() => ofShop(environment, shopId))),
      page: (environment, shopId, filter, page) =>
        db.run(Effect.sync(() => {
          const matching = ofShop(environment, shopId, filter.relatedId)
            .filter((e) => filter.types === undefined || filter.types.includes(e.type))
            .reverse()
          return { rows: matching.slice(page.offset, page.offset + page.limit), total: matching.length }
        })),
      find: (environment, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(events.get(id)), (e) => e.environment === environment)))
    })
  })
)

/** A shop's routes in ascending priority (call inside `db.run`). */
export const shopRoutes = (db: MemoryDb["Service"], environment: Environment, shopId: string): ReadonlyArray<ProviderRoute> =>
  [...db.table<ProviderRoute>("provider_routes").values()]
    .filter((r) => r.environment === environment && r.shopId === shopId)
    .sort((a, b) => a.priority - b.priority || a.providerId.localeCompare(b.providerId))

export const MemoryProviderRouteStore = Layer.effect(
  ProviderRouteStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const routes = db.table<ProviderRoute>("provider_routes")
    const key = (environment: Environment, shopId: string, providerId: string) => `${environment}|${shopId}|${providerId}`
    return ProviderRouteStore.of({
      list: (environment, shopId) => db.run(Effect.sync(() => shopRoutes(db, environment, shopId))),
      put: (route) => db.run(Effect.sync(() => void routes.set(key(route.environment, route.shopId, route.providerId), route))),
      remove: (environment, shopId, providerId) => db.run(Effect.sync(() => routes.delete(key(environment, shopId, providerId))))
    })
  })
)


export const MemoryCheckoutSessionStore = Layer.effect(
  CheckoutSessionStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const sessions = db.table<CheckoutSession>("checkout_sessions")
    return CheckoutSessionStore.of({
      insert: (s) =>
        db.run(Effect.suspend(() =>
          sessions.has(s.token) ? Effect.die(new Error(`duplicate session token`)) : Effect.sync(() => void sessions.set(s.token, s))
        )),
      findByToken: (token) => db.run(Effect.sync(() => Option.fromNullishOr(sessions.get(token)))),
      update: (s) =>
        db.run(Effect.sync(() => {
          const current = sessions.get(s.token)
          if (current === undefined || current.version !== s.version - 1) return false
          sessions.set(s.token, s)
          return true
        }))
    })
  })
)

export const MemoryClaimStore = Layer.effect(
  ClaimStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const claims = db.table<Claim>("claims")
    return ClaimStore.of({
      insert: (c) => insertOnce(db, claims, c.id, c, "claim"),
      find: (environment, shopId, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(claims.get(id)), (c) => c.environment === environment && c.shopId === shopId))),
      findById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(claims.get(id)))),
      forPayment: (transactionId) =>
        db.run(Effect.sync(() => [...claims.values()].filter((c) => c.transactionId === transactionId).sort((a, b) => -newestFirst(a, b)))),
      update: (c) =>
        db.run(Effect.sync(() => {
          const current = claims.get(c.id)
          if (current === undefined || current.version !== c.version - 1) return false
          claims.set(c.id, c)
          return true
        }))
    })
  })
)

export const MemoryPayoutStore = Layer.effect(
  PayoutStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const payouts = db.table<Payout>("payouts")
    return PayoutStore.of({
      insert: (p) => insertOnce(db, payouts, p.id, p, "payout"),
      find: (environment, shopId, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(payouts.get(id)), (p) => p.environment === environment && p.shopId === shopId))),
      findById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(payouts.get(id)))),
      update: (p) =>
        db.run(Effect.sync(() => {
          const current = payouts.get(p.id)
          if (current === undefined || current.version !== p.version - 1) return false
          payouts.set(p.id, p)
          return true
        })),
      list: (environment, shopId, filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = [...payouts.values()]
            .filter((p) =>
              p.environment === environment && p.shopId === shopId && (filter.status === undefined || p.status === filter.status) &&
              (filter.methodId === undefined || p.methodId === filter.methodId)
            )
            .sort(newestFirst)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        }))
    })
  })
)

export const MemoryWithdrawalStore = Layer.effect(
  WithdrawalStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const withdrawals = db.table<Withdrawal>("withdrawals")
    return WithdrawalStore.of({
      insert: (w) => insertOnce(db, withdrawals, w.id, w, "withdrawal"),
      find: (environment, shopId, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(withdrawals.get(id)), (w) => w.environment === environment && w.shopId === shopId))),
      findById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(withdrawals.get(id)))),
      update: (w) =>
        db.run(Effect.sync(() => {
          const current = withdrawals.get(w.id)
          if (current === undefined || current.version !== w.version - 1) return false
          withdrawals.set(w.id, w)
          return true
        })),
      list: (environment, shopId, filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = [...withdrawals.values()]
            .filter((w) => w.environment === environment && w.shopId === shopId && (filter.status === undefined || w.status === filter.status))
            .sort(newestFirst)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        }))
    })
  })
)

export const MemoryPayinRepos = Layer.mergeAll(
  MemoryFxRateStore,
  MemoryLedgerStore,
  MemoryPaymentStore,
  MemoryOutboxStore,
  MemoryProviderRouteStore,
  MemoryCheckoutSessionStore,
  MemoryClaimStore,
  MemoryPayoutStore,
  MemoryWithdrawalStore
)
