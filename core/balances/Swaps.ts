/**
 * Moving money between the currencies of a shop's pay-in balance (spec 2.9, 4.3): sandbox
 * funding in any currency, and swapping a local currency to USD (withdrawals are USD only).
 *
 * A swap re-reads the rate at execution (the quote is indicative) and applies the FX markup inside
 * the effective `rate`; `amountUsd = amount x rate`, rounded down to cents (what the merchant
 * receives); an amount worth less than a cent is refused (422 `amount_rounds_to_zero`). It is one journal entry:
 * the local amount leaves `available` and the USD lands in `available` together, through the `fx`
 * book (balanced per currency). Not enough available: 422 `balance_insufficient` with `requested`,
 * `available` and `shortfall` in the source currency.
 */
import { BigDecimal, Context, Effect, Layer } from "effect"
import { apiError, type ApiErrorOf, invalidRequest } from "../ApiError.ts"
import { bookable, type Conversion, Fx } from "../fx/Fx.ts"
import { Ids } from "../Ids.ts"
import type { Book } from "../ledger/Journal.ts"
import { Ledger } from "../ledger/Ledger.ts"
import * as Money from "../Money.ts"
import { LedgerStore } from "../ports/LedgerStore.ts"
import { Transactions } from "../ports/Transactions.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"

type ShopRef = Pick<ShopScope, "environment" | "shop">

export interface SwapRecord {
  readonly id: string
  readonly fromCurrency: string
  readonly toCurrency: "USD"
  readonly amount: BigDecimal.BigDecimal
  readonly rate: BigDecimal.BigDecimal
  readonly amountUsd: BigDecimal.BigDecimal
  readonly localAvailableAfter: BigDecimal.BigDecimal
  readonly usdAvailableAfter: BigDecimal.BigDecimal
}

export interface CurrencyBalance {
  readonly currency: string
  readonly available: BigDecimal.BigDecimal
  readonly pending: BigDecimal.BigDecimal
  readonly reserved: BigDecimal.BigDecimal
}

export const maxSandboxFunding = Money.decimal("1000000")

/**
 * The rules of test money, for the pay-in and the payout balance alike: sandbox only (400
 * `fund_sandbox_only`), an ISO 4217 currency the engine has a rate for (422 `fx_unavailable`
 * otherwise), 0 < amount <= 1000000 in the currency's exponent.
 * Answers the normalized currency code.
 */
export const checkSandboxFunding = Effect.fnUntraced(function*(
  scope: { readonly environment: string },
  currencyInput: string,
  amount: BigDecimal.BigDecimal,
  fx: Fx["Service"]
) {
  if (scope.environment !== "sandbox") return yield* apiError("fund_sandbox_only", "Test money exists in sandbox only", {})
  const currency = Money.normalizeCurrency(currencyInput)
  if (currency._tag === "None") {
    return yield* invalidRequest(`Unknown currency '${currencyInput}'`, [{ path: "currency", message: "Expected an ISO 4217 currency code" }])
  }
  if (!BigDecimal.isPositive(amount) || !Money.fitsExponent(amount, currency.value) || BigDecimal.isGreaterThan(amount, maxSandboxFunding)) {
    return yield* invalidRequest("amount must be a positive amount up to 1000000", [{ path: "amount", message: "Expected 0 < amount <= 1000000" }])
  }
  // A currency in use that the engine has no rate for holds no balance (422 `fx_unavailable`).
  yield* fx.midPerUsd(currency.value)
  return currency.value
})

/** What funding a balance with test money can fail with (`checkSandboxFunding`). */
export type FundSandboxCode = "fund_sandbox_only" | "invalid_request" | "fx_unavailable"

/** What a client calls a swap's currency and amount: a refusal names the field it sent. */
export interface SwapFields {
  readonly currency: string
  readonly amount: string
}

export class Swaps extends Context.Service<Swaps, {
  /** `fields`: the names the caller's client gave the currency and the amount, which a refusal names (default `fromCurrency`, `amount`). */
  readonly quote: (scope: ShopRef, from: string, amount: BigDecimal.BigDecimal, fields?: SwapFields) => Effect.Effect<{
    readonly conversion: Conversion
    readonly available: BigDecimal.BigDecimal
  }, ApiErrorOf<"invalid_request" | "fx_unavailable" | "amount_rounds_to_zero">>
  readonly swap: (
    scope: ShopRef,
    from: string,
    amount: BigDecimal.BigDecimal,
    fields?: SwapFields
  ) => Effect.Effect<SwapRecord, ApiErrorOf<"invalid_request" | "fx_unavailable" | "balance_insufficient" | "amount_rounds_to_zero">>
  readonly fundSandbox: (scope: ShopRef, currency: string, amount: BigDecimal.BigDecimal) => Effect.Effect<ReadonlyArray<CurrencyBalance>, ApiErrorOf<FundSandboxCode>>
  /** The pay-in balance per currency (USD first). */
  readonly balances: (scope: ShopRef) => Effect.Effect<ReadonlyArray<CurrencyBalance>>
}>()("core/balances/Swaps") {
  static readonly layer = Layer.effect(
    Swaps,
    Effect.gen(function*() {
      const fx = yield* Fx
      const ledger = yield* Ledger
      const store = yield* LedgerStore
      const ids = yield* Ids
      const tx = yield* Transactions

      const source = (from: string, amount: BigDecimal.BigDecimal, fields: SwapFields = { currency: "fromCurrency", amount: "amount" }) => {
        const currency = Money.normalizeCurrency(from)
        if (currency._tag === "None" || currency.value === "USD") {
          return Effect.fail(invalidRequest(`Cannot swap '${from}' to USD`, [{ path: fields.currency, message: "Expected a held currency other than USD" }]))
        }
        if (!BigDecimal.isPositive(amount) || !Money.fitsExponent(amount, currency.value)) {
          return Effect.fail(invalidRequest(`${fields.amount} must be a positive ${currency.value} amount`, [{
            path: fields.amount,
            message: `Expected a number greater than 0 with at most ${Money.exponent(currency.value)} decimals`
          }]))
        }
        return Effect.succeed(currency.value)
      }

      const available = (scope: ShopRef, currency: string) => store.balance(scope.environment, scope.shop.id, "payin_available", currency)

      const quote = Effect.fn("Swaps.quote")(function*(scope: ShopRef, from: string, amount: BigDecimal.BigDecimal, fields?: SwapFields) {
        const currency = yield* source(from, amount, fields)
        return { conversion: yield* Effect.flatMap(fx.toUsd(amount, currency), bookable), available: yield* available(scope, currency) }
      })

      const swap = Effect.fn("Swaps.swap")(function*(scope: ShopRef, from: string, amount: BigDecimal.BigDecimal, fields?: SwapFields) {
        const currency = yield* source(from, amount, fields)
        return yield* tx.run(Effect.gen(function*() {
          const conversion = yield* Effect.flatMap(fx.toUsd(amount, currency), bookable)
          const id = yield* ids.next("swap")
          yield* ledger.record({ environment: scope.environment, shopId: scope.shop.id }, "balance.swap", id, [
            { from: "payin_available", to: "fx", currency, amount },
            { from: "fx", to: "payin_available", currency: "USD", amount: conversion.converted }
          ]).pipe(
            Effect.catchTag("GuardViolation", (e) => {
              const held = Money.decimal(e.available)
              return Effect.fail(apiError("balance_insufficient", `Only ${e.available} ${currency} is available`, {
                requested: Money.toJsonNumber(amount),
                available: Money.toJsonNumber(held),
                shortfall: Money.toJsonNumber(BigDecimal.subtract(amount, held)),
                currency
              }))
            })
          )
          return {
            id,
            fromCurrency: currency,
            toCurrency: "USD" as const,
            amount,
            rate: conversion.rate,
            amountUsd: conversion.converted,
            localAvailableAfter: yield* available(scope, currency),
            usdAvailableAfter: yield* available(scope, "USD")
          }
        }))
      })

      const balances = Effect.fn("Swaps.balances")(function*(scope: ShopRef) {
        const all = yield* store.balances(scope.environment, scope.shop.id)
        const of = (book: Book, currency: string) => all.find((b) => b.book === book && b.currency === currency)?.balance ?? Money.zero
        const currencies = [...new Set(["USD", ...all.filter((b) => b.book.startsWith("payin_")).map((b) => b.currency)])]
        return currencies.sort((a, b) => a === "USD" ? -1 : b === "USD" ? 1 : a.localeCompare(b)).map((currency) => ({
          currency,
          available: of("payin_available", currency),
          pending: of("payin_pending", currency),
          reserved: BigDecimal.sum(of("payin_reserve", currency), of("payin_frozen", currency))
        }))
      })

      const fundSandbox = Effect.fn("Swaps.fundSandbox")(function*(scope: ShopRef, currencyInput: string, amount: BigDecimal.BigDecimal) {
        const currency = yield* checkSandboxFunding(scope, currencyInput, amount, fx)
        yield* ledger.record({ environment: scope.environment, shopId: scope.shop.id }, "balance.fund_sandbox", "sandbox", [
          { from: "sandbox_funding", to: "payin_available", currency, amount }
        ]).pipe(Effect.orDie)
        return yield* balances(scope)
      })

      return Swaps.of({ quote, swap, fundSandbox, balances })
    })
  )
}
