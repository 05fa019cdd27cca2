/**
 * A journal entry balances by construction: it is made only from transfers (`Journal.entry`),
 * and the signed postings the stores write are derived from them. The type-level cases below
 * fail to compile if an entry can be written any other way (`// @ts-expect-error` is itself an
 * error when the line under it compiles).
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Exit, Result } from "effect"
import * as Journal from "../../core/ledger/Journal.ts"
import { imbalance, Ledger } from "../../core/ledger/Ledger.ts"
import * as Money from "../../core/Money.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { EngineTest, newScope } from "../support/Engine.ts"
import { prng } from "../support/Random.ts"

const d = Money.decimal
const header = { id: "jnl_1", environment: "sandbox", shopId: "shop_1", kind: "test", reference: "ref_1", createdAt: DateTime.makeUnsafe("2026-01-01T00:00:00Z") } as const
const made = (transfers: ReadonlyArray<Journal.Transfer>) => Result.getOrThrow(Journal.entry(header, transfers))
const rows = (entry: Journal.JournalEntry) => entry.postings.map((p) => [p.book, p.currency, Money.toText(p.amount)])

describe("a journal entry", () => {
  it("cannot be written from signed postings: only from transfers", () => {
    const posting = { book: "payin_available", currency: "USD", amount: d("10") } as const
    // @ts-expect-error an entry literal: its postings are not derived from transfers
    const literal: Journal.BalancedEntry = { ...header, postings: [posting] }
    const balanced = made([{ from: "external", to: "payin_available", currency: "USD", amount: d("10") }])
    // @ts-expect-error one posting dropped from a balanced entry is no longer one
    const dropped: Journal.BalancedEntry = { ...balanced, postings: balanced.postings.slice(0, -1) }
    // @ts-expect-error postings filtered by hand are not derived either
    const filtered: Journal.BalancedEntry = { ...balanced, postings: balanced.postings.filter((p) => p.book !== "external") }
    // The header may change (the same transfers, another id): the postings stay derived.
    const renamed: Journal.BalancedEntry = { ...balanced, id: "jnl_2" }
    const write = (store: LedgerStore["Service"]) => [
      // @ts-expect-error the store appends only entries made by `Journal.entry`
      store.append({ ...header, postings: [posting] }),
      store.append(renamed)
    ]
    const record = (ledger: Ledger["Service"]) =>
      // @ts-expect-error the ledger records transfers, not signed postings
      ledger.record({ environment: "sandbox", shopId: "shop_1" }, "test", "ref_1", [posting])
    assert.isDefined([literal, dropped, filtered, write, record])
  })

  it("derives one signed posting per account: per currency what leaves, then what arrives, in the order named", () => {
    // A completion: the provider owes the headline, split over the merchant's books and the fees.
    const completion = made([
      { from: "provider_clearing", to: "payin_pending", currency: "USD", amount: d("85.3") },
      { from: "provider_clearing", to: "payin_reserve", currency: "USD", amount: d("10") },
      { from: "provider_clearing", to: "fees_platform", currency: "USD", amount: d("2.9") },
      { from: "provider_clearing", to: "fees_flat", currency: "USD", amount: d("0.3") },
      { from: "provider_clearing", to: "fees_provider", currency: "USD", amount: d("1.5") }
    ])
    assert.deepStrictEqual(rows(completion), [
      ["provider_clearing", "USD", "-100"],
      ["payin_pending", "USD", "85.3"],
      ["payin_reserve", "USD", "10"],
      ["fees_platform", "USD", "2.9"],
      ["fees_flat", "USD", "0.3"],
      ["fees_provider", "USD", "1.5"]
    ])
    // A failed withdrawal: two sources to one destination.
    assert.deepStrictEqual(rows(made([
      { from: "withdrawals_in_flight", to: "payin_available", currency: "USD", amount: d("50") },
      { from: "fees_withdrawal", to: "payin_available", currency: "USD", amount: d("1.25") }
    ])), [["withdrawals_in_flight", "USD", "-50"], ["fees_withdrawal", "USD", "-1.25"], ["payin_available", "USD", "51.25"]])
    // A swap: each currency balances on its own, in the order the transfers name them.
    assert.deepStrictEqual(rows(made([
      { from: "payin_available", to: "fx", currency: "BRL", amount: d("500") },
      { from: "fx", to: "payin_available", currency: "USD", amount: d("90.77") }
    ])), [["payin_available", "BRL", "-500"], ["fx", "BRL", "500"], ["fx", "USD", "-90.77"], ["payin_available", "USD", "90.77"]])
  })

  it("skips zero transfers and books that net to zero, so an entry may have nothing to write", () => {
    assert.deepStrictEqual(rows(made([
      { from: "payin_pending", to: "merchant_receivable", currency: "USD", amount: d("0") },
      { from: "payin_pending", to: "payin_available", currency: "USD", amount: d("20") }
    ])), [["payin_pending", "USD", "-20"], ["payin_available", "USD", "20"]])
    assert.deepStrictEqual(rows(made([
      { from: "fx", to: "fx", currency: "USD", amount: d("5") },
      { from: "external", to: "payin_available", currency: "USD", amount: d("0") }
    ])), [])
    assert.deepStrictEqual(rows(made([])), [])
  })

  it("refuses a negative transfer: the direction is from and to, never the sign", () => {
    const refused = Journal.entry(header, [
      { from: "external", to: "payin_available", currency: "USD", amount: d("10") },
      { from: "fees_platform", to: "provider_clearing", currency: "USD", amount: d("-2.4") }
    ])
    assert.isTrue(Result.isFailure(refused))
    if (Result.isFailure(refused)) {
      assert.strictEqual(refused.failure._tag, "NegativeTransfer")
      assert.strictEqual(refused.failure.transfer.from, "fees_platform")
    }
  })

  it("balances per currency whatever the transfers", () => {
    const random = prng(45)
    const books = [...Journal.merchantBooks, ...Journal.counterBooks]
    const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(random() * xs.length)]!
    for (let n = 0; n < 500; n++) {
      const transfers = Array.from({ length: Math.floor(random() * 8) }, (): Journal.Transfer => ({
        from: pick(books),
        to: pick(books),
        currency: pick(["USD", "BRL", "MXN"]),
        amount: random() < 0.2 ? Money.zero : d((random() * 1000).toFixed(pick([0, 2, 4])))
      }))
      const entry = made(transfers)
      assert.deepStrictEqual(imbalance(entry), [], `case ${n}`)
      for (const p of entry.postings) assert.isFalse(BigDecimal.isZero(p.amount), `case ${n}: a zero posting`)
      const accounts = entry.postings.map((p) => `${p.book}|${p.currency}`)
      assert.strictEqual(new Set(accounts).size, accounts.length, `case ${n}: one posting per account`)
    }
  })

  it.effect("Ledger.record dies on a negative transfer and writes nothing", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      const account = { environment: scope.environment, shopId: scope.shop.id }
      const ledger = yield* Ledger
      const store = yield* LedgerStore
      const exit = yield* Effect.exit(ledger.record(account, "test", "ref_1", [
        { from: "external", to: "payin_available", currency: "USD", amount: d("-10") }
      ]))
      assert.isTrue(Exit.hasDies(exit))
      assert.strictEqual((yield* store.entries(account.environment, account.shopId, { limit: 10, offset: 0 })).total, 0)
      yield* ledger.record(account, "test", "ref_2", [{ from: "external", to: "payin_available", currency: "USD", amount: d("10") }])
      const { entries } = yield* store.entries(account.environment, account.shopId, { limit: 10, offset: 0 })
      assert.deepStrictEqual(entries.map(rows), [[["external", "USD", "-10"], ["payin_available", "USD", "10"]]])
    }).pipe(Effect.provide(EngineTest)))
})
