/**
 * The pay-in balance of a shop (spec 2.8), read from the ledger: every figure is a sum of
 * postings, so it reconciles with the journal entries listed as `movements`. `netBalance` is
 * available + pending + frozen + reserve less what the shop owes (`Owed.ts`), and
 * `ledgerWarnings` says how much is still owed.
 */
import { BigDecimal, Clock, Context, DateTime, Effect, Layer } from "effect"
import type { AccountBalance, Book, JournalEntry } from "../ledger/Journal.ts"
import * as Money from "../Money.ts"
import { LedgerStore } from "../ports/LedgerStore.ts"
import { owedOf } from "./Owed.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { tierPricing, withdrawalFeeUsd } from "../payments/Pricing.ts"
import { reserveShare } from "../payments/Shares.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"

const merchantPayinBooks: ReadonlyArray<Book> = ["payin_available", "payin_pending", "payin_frozen", "payin_reserve"]

/**
 * What a journal entry moves in the shop's USD pay-in books, to the cent. An entry that moves none
 * of them (the payout balance's, a local-currency funding) is no movement of the pay-in balance.
 */
const payinPostings = (entry: JournalEntry) =>
  entry.postings.filter((p) => p.currency === "USD" && merchantPayinBooks.includes(p.book) && !BigDecimal.isZero(Money.round(p.amount, "USD")))

/** Journal entries looked at per page while filling `movements`, and at most how many pages. */
const movementPages = 10

/** A payment's rolling reserve still held, and when it goes to available. */
export interface ReserveRelease {
  readonly transactionId: string
  readonly amount: BigDecimal.BigDecimal
  readonly releaseAt: DateTime.Utc
}

/** The balance view of a shop from its account balances and latest journal entries. */
export const summarize = (
  scope: ShopScope,
  balances: ReadonlyArray<AccountBalance>,
  entries: ReadonlyArray<JournalEntry>,
  releases: ReadonlyArray<ReserveRelease>
) => {
    const usd = (book: Book) =>
      balances.find((b) => b.book === book && b.currency === "USD")?.balance ?? Money.zero
    const n = (d: BigDecimal.BigDecimal) => Money.toJsonNumber(Money.round(d, "USD"))
    const available = usd("payin_available")
    const pending = usd("payin_pending")
    const frozen = usd("payin_frozen")
    const reserve = usd("payin_reserve")
    /** Refunds and chargebacks the balance could not cover (`Owed.ts`), repaid from later income. */
    const owed = owedOf(usd("merchant_receivable"))
    const platformFees = usd("fees_platform")
    const flatFees = usd("fees_flat")
    const chargebackFees = usd("fees_chargeback")
    const providerFees = usd("fees_provider")
    const local = balances.filter((b) => b.currency !== "USD" && merchantPayinBooks.includes(b.book))
    const currencies = [...new Set(local.map((b) => b.currency))].sort()
    const pricing = tierPricing[scope.merchant.tier]
    return {
      merchantId: scope.merchant.id,
      shopId: scope.shop.id,
      currency: "USD" as const,
      balance: { available: n(available), pending: n(pending), frozen: n(frozen), reserve: n(reserve) },
      owed: n(owed),
      ledgerWarnings: BigDecimal.isPositive(owed)
        ? [`The shop owes ${Money.toText(owed)} USD: refunds and chargebacks its balance could not cover; it is repaid from the next money that becomes available`]
        : [] as Array<string>,
      tier: scope.merchant.tier,
      trustScore: scope.merchant.trustScore,
      rollingReservePct: Number(pricing.reservePercent),
      withdrawalFeeUsd: Number(withdrawalFeeUsd[scope.merchant.tier]),
      feeSummary: {
        grossVolume: n(BigDecimal.negate(usd("provider_clearing"))),
        platformFees: n(platformFees),
        flatFees: n(flatFees),
        providerFees: n(providerFees),
        chargebackFees: n(chargebackFees),
        totalFees: n(BigDecimal.sumAll([platformFees, flatFees, providerFees, chargebackFees])),
        netBalance: n(BigDecimal.subtract(BigDecimal.sumAll([available, pending, frozen, reserve]), owed))
      },
      movements: entries.flatMap((e) => {
        const mine = payinPostings(e)
        return mine.length === 0 ? [] : [{
          id: e.id,
          type: e.kind,
          reference: e.reference,
          currency: "USD",
          amount: n(BigDecimal.sumAll(mine.map((p) => p.amount))),
          books: Object.fromEntries(mine.map((p) => [p.book, n(p.amount)])),
          createdAt: DateTime.formatIso(e.createdAt)
        }]
      }),
      reserveSchedule: releases.map((r) => ({ transactionId: r.transactionId, amount: n(r.amount), releaseAt: DateTime.formatIso(r.releaseAt) })),
      balances: currencies.map((currency) => {
        const of = (book: Book) => balances.find((b) => b.book === book && b.currency === currency)?.balance ?? Money.zero
        return {
          currency,
          available: Money.toJsonNumber(of("payin_available")),
          pending: Money.toJsonNumber(of("payin_pending")),
          reserved: Money.toJsonNumber(BigDecimal.sum(of("payin_reserve"), of("payin_frozen")))
        }
      })
    }
}

export type BalanceSummary = ReturnType<typeof summarize>

/** The available pay-in balance at the end of each UTC day, per currency (oldest day first). */
export interface BalanceHistory {
  readonly days: ReadonlyArray<string>
  readonly currencies: ReadonlyArray<{ readonly currency: string; readonly closing: ReadonlyArray<BigDecimal.BigDecimal> }>
}

const dayMs = 86_400_000

/**
 * Each day's closing balance is today's balance less what was posted after that day ended: exact
 * `BigDecimal` sums of the book's postings, so the last day is the balance shown now.
 */
export const closingBalances = (
  now: Date,
  days: number,
  current: ReadonlyArray<AccountBalance>,
  totals: ReadonlyArray<{ readonly day: string; readonly currency: string; readonly amount: BigDecimal.BigDecimal }>
): BalanceHistory => {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const labels = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * dayMs).toISOString().slice(0, 10))
  const currencies = [...new Set([...current.map((b) => b.currency), ...totals.map((t) => t.currency)])].sort((a, b) =>
    a === "USD" ? -1 : b === "USD" ? 1 : a.localeCompare(b)
  )
  return {
    days: labels,
    currencies: currencies.map((currency) => {
      let after = Money.zero
      const closing: Array<BigDecimal.BigDecimal> = []
      const balance = current.find((b) => b.currency === currency)?.balance ?? Money.zero
      for (let i = labels.length - 1; i >= 0; i--) {
        closing[i] = BigDecimal.subtract(balance, after)
        for (const t of totals) if (t.currency === currency && t.day === labels[i]) after = BigDecimal.sum(after, t.amount)
      }
      return { currency, closing }
    })
  }
}

export class Balances extends Context.Service<Balances, {
  readonly summary: (scope: ShopScope, movementsLimit?: number) => Effect.Effect<BalanceSummary>
  /** The last `days` days' closing `available` pay-in balance per currency, today included. */
  readonly history: (scope: ShopScope, days: number) => Effect.Effect<BalanceHistory>
}>()("core/balances/Balances") {
  static readonly layer = Layer.effect(
    Balances,
    Effect.gen(function*() {
      const ledger = yield* LedgerStore
      const payments = yield* PaymentStore
      const summary = Effect.fn("Balances.summary")(function*(scope: ShopScope, movementsLimit = 50) {
        const balances = yield* ledger.balances(scope.environment, scope.shop.id)
        // The newest entries that move the pay-in balance: entries of the payout books are passed
        // over, so pages are read until the list is full (bounded).
        const entries: Array<JournalEntry> = []
        for (let page = 0, offset = 0; page < movementPages && entries.length < movementsLimit; page++) {
          const read = yield* ledger.entries(scope.environment, scope.shop.id, { limit: movementsLimit, offset })
          entries.push(...read.entries.filter((e) => payinPostings(e).length > 0).slice(0, movementsLimit - entries.length))
          offset += read.entries.length
          if (read.entries.length < movementsLimit || offset >= read.total) break
        }
        // The next releases: completed payments whose reserve is still held (newest 200 looked at).
        const { rows } = yield* payments.list(scope.environment, scope.shop.id, { statuses: ["completed"] }, { limit: 200, offset: 0 })
        // What each release will move: what is left of the payment's reserve after its refunds.
        const releases = rows
          .filter((p) => p.completedAt !== null && BigDecimal.isPositive(reserveShare(p)))
          .map((p) => ({
            transactionId: p.id,
            amount: reserveShare(p),
            releaseAt: DateTime.add(p.completedAt!, { days: p.settlement.reserveReleaseDays })
          }))
          .sort((a, b) => DateTime.toEpochMillis(a.releaseAt) - DateTime.toEpochMillis(b.releaseAt))
        return summarize(scope, balances, entries, releases)
      })
      const history = Effect.fn("Balances.history")(function*(scope: ShopScope, days: number) {
        const now = new Date(yield* Clock.currentTimeMillis)
        const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * dayMs)
        const current = (yield* ledger.balances(scope.environment, scope.shop.id)).filter((b) => b.book === "payin_available")
        const totals = yield* ledger.dailyTotals(scope.environment, scope.shop.id, "payin_available", since)
        return closingBalances(now, days, current, totals)
      })
      return Balances.of({ summary, history })
    })
  )
}
