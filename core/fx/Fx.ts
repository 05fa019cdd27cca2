/**
 * Currency conversion. Mid rates come from the rate store; the engine's rate is the mid rate with
 * the configured markup on the engine's side: a presentment amount becomes fewer USD
 * (`amount / perUsd * (1 - markup)`), and USD become more local currency for the buyer
 * (`usd * perUsd * (1 + markup)`). Results are rounded to the target currency's exponent in the
 * platform's favour (`Money.roundFor`): what the merchant receives down, what it or its buyer
 * pays up; the rates used are returned so that the record that used them can store them.
 *
 * A price already in the rail's currency is not converted at all (`localOf`): the buyer pays
 * exactly what the merchant priced, and only the USD headline carries the markup.
 */
import { BigDecimal, Context, DateTime, Effect, Layer, Option } from "effect"
import { apiError, type ApiErrorOf } from "../ApiError.ts"
import { EngineConfig } from "../EngineConfig.ts"
import * as Money from "../Money.ts"
import { type FxRate, FxRateStore } from "../ports/FxRateStore.ts"
import { realMillis } from "../clock/RealClock.ts"
import { Audit } from "../audit/Audit.ts"
import { Transactions } from "../ports/Transactions.ts"
import { defaultRatesPerUsd } from "./defaultRates.ts"

export interface Conversion {
  readonly from: string
  readonly to: string
  readonly amount: BigDecimal.BigDecimal
  readonly converted: BigDecimal.BigDecimal
  /** Mid rate, units of the non-USD currency per 1 USD. */
  readonly midPerUsd: BigDecimal.BigDecimal
  /** Effective rate applied: `converted / amount`, 8 decimals, markup inside. */
  readonly rate: BigDecimal.BigDecimal
  readonly markupPct: BigDecimal.BigDecimal
}

const one = BigDecimal.fromBigInt(1n)
const hundred = BigDecimal.fromBigInt(100n)
const rateScale = 8
/** How long this engine keeps a rate it read (see `setRate`). */
export const rateCacheMs = 1000

export class Fx extends Context.Service<Fx, {
  /** `amount` of `currency` in USD, what the merchant receives (headline, swap): markup on the engine's side, rounded down. */
  readonly toUsd: (amount: BigDecimal.BigDecimal, currency: string) => Effect.Effect<Conversion, ApiErrorOf<"fx_unavailable">>
  /** `usd` in `currency`, what the buyer pays: markup on the engine's side, rounded up. */
  readonly fromUsd: (usd: BigDecimal.BigDecimal, currency: string) => Effect.Effect<Conversion, ApiErrorOf<"fx_unavailable">>
  /** `usd` sold for `currency` by the merchant (payout swaps): fewer local units, markup on the engine's side, rounded down. */
  readonly sellUsd: (usd: BigDecimal.BigDecimal, currency: string) => Effect.Effect<Conversion, ApiErrorOf<"fx_unavailable">>
  /**
   * What the buyer pays in the rail's `currency` for a price whose USD headline is `headline`: the
   * price itself when it is in that currency (no round trip through USD), else `fromUsd`.
   */
  readonly localOf: (headline: Conversion, currency: string) => Effect.Effect<Conversion, ApiErrorOf<"fx_unavailable">>
  /** The mid rate of a currency (units per USD), failing with `fx_unavailable`. */
  readonly midPerUsd: (currency: string) => Effect.Effect<BigDecimal.BigDecimal, ApiErrorOf<"fx_unavailable">>
  /** Stores a currency's mid rate; this engine uses it from its next conversion on. */
  readonly setRate: (rate: FxRate) => Effect.Effect<void>
}>()("core/fx/Fx") {
  static readonly layer = Layer.effect(
    Fx,
    Effect.gen(function*() {
      const store = yield* FxRateStore
      const config = yield* EngineConfig
      const markup = BigDecimal.divideUnsafe(config.fxMarkupPct, hundred)
      const now = yield* DateTime.now
      yield* store.seed(Object.entries(defaultRatesPerUsd).map(([currency, perUsd]) => ({
        currency,
        perUsd: Money.decimal(perUsd),
        enabled: true,
        updatedAt: now
      })))

      /**
       * Each currency's rate is read from the store at most once per `rateCacheMs` by this engine:
       * a create no longer pays a round trip for it. `setRate` applies at once here, and within
       * `rateCacheMs` on other replicas (a rate feed moves no faster than that).
       */
      const cached = new Map<string, { readonly rate: Option.Option<FxRate>; readonly until: number }>()
      const rateOf = (currency: string) =>
        Effect.flatMap(realMillis, (now) => {
          const hit = cached.get(currency)
          if (hit !== undefined && hit.until > now) return Effect.succeed(hit.rate)
          return Effect.tap(store.get(currency), (rate) => Effect.sync(() => void cached.set(currency, { rate, until: now + rateCacheMs })))
        })
      const audit = yield* Audit
      const tx = yield* Transactions
      /** The operator's rate, with its record (before and after) in the operator's chain. */
      const setRate = (rate: FxRate) =>
        Effect.gen(function*() {
          const before = Option.getOrNull(yield* store.get(rate.currency))
          yield* tx.run(Effect.andThen(
            store.put(rate),
            audit.record({
              environment: null,
              merchantId: null,
              object: { type: "fx_rate", id: rate.currency },
              changes: {
                perUsd: { from: before === null ? null : Money.toText(before.perUsd), to: Money.toText(rate.perUsd) },
                enabled: { from: before?.enabled ?? null, to: rate.enabled }
              }
            })
          ))
          cached.delete(rate.currency)
        })

      const midPerUsd = (currency: string) =>
        currency === "USD" ? Effect.succeed(one) : rateOf(currency).pipe(
          Effect.flatMap((rate) =>
            Option.isSome(rate) && rate.value.enabled && BigDecimal.isPositive(rate.value.perUsd)
              ? Effect.succeed(rate.value.perUsd)
              : Effect.fail(apiError("fx_unavailable", `No FX rate is available for ${currency}`, { currency }))
          )
        )

      const conversion = (from: string, to: string, amount: BigDecimal.BigDecimal, converted: BigDecimal.BigDecimal, mid: BigDecimal.BigDecimal): Conversion => ({
        from,
        to,
        amount,
        converted,
        midPerUsd: mid,
        rate: BigDecimal.isZero(amount) ? mid : Money.roundTo(BigDecimal.divideUnsafe(converted, amount), rateScale),
        markupPct: config.fxMarkupPct
      })

      const toUsd = Effect.fnUntraced(function*(amount: BigDecimal.BigDecimal, currency: string) {
        if (currency === "USD") return conversion("USD", "USD", amount, Money.roundFor(amount, "USD", "receives"), one)
        const mid = yield* midPerUsd(currency)
        const usd = BigDecimal.multiply(BigDecimal.divideUnsafe(amount, mid), BigDecimal.subtract(one, markup))
        return conversion(currency, "USD", amount, Money.roundFor(usd, "USD", "receives"), mid)
      })

      const fromUsd = Effect.fnUntraced(function*(usd: BigDecimal.BigDecimal, currency: string) {
        if (currency === "USD") return conversion("USD", "USD", usd, Money.roundFor(usd, "USD", "pays"), one)
        const mid = yield* midPerUsd(currency)
        const local = BigDecimal.multiply(BigDecimal.multiply(usd, mid), BigDecimal.sum(one, markup))
        return conversion("USD", currency, usd, Money.roundFor(local, currency, "pays"), mid)
      })

      const sellUsd = Effect.fnUntraced(function*(usd: BigDecimal.BigDecimal, currency: string) {
        if (currency === "USD") return conversion("USD", "USD", usd, Money.roundFor(usd, "USD", "receives"), one)
        const mid = yield* midPerUsd(currency)
        const local = BigDecimal.multiply(BigDecimal.multiply(usd, mid), BigDecimal.subtract(one, markup))
        return conversion("USD", currency, usd, Money.roundFor(local, currency, "receives"), mid)
      })

      const localOf = Effect.fnUntraced(function*(headline: Conversion, currency: string) {
        if (headline.from !== currency || currency === "USD") return yield* fromUsd(headline.converted, currency)
        return conversion("USD", currency, headline.converted, headline.amount, headline.midPerUsd)
      })

      return Fx.of({ toUsd, fromUsd, sellUsd, localOf, midPerUsd, setRate })
    })
  )
}

/**
 * Refuses a conversion whose result rounds to nothing (422 `amount_rounds_to_zero`): the source
 * amount would leave while nothing is booked for it.
 */
export const bookable = (c: Conversion): Effect.Effect<Conversion, ApiErrorOf<"amount_rounds_to_zero">> =>
  BigDecimal.isPositive(c.converted)
    ? Effect.succeed(c)
    : Effect.fail(roundsToZero(c.amount, c.from, c.to))

/** 422 `amount_rounds_to_zero`: `amount` of `currency` is worth less than the smallest unit of `bookedCurrency`. */
export const roundsToZero = (amount: BigDecimal.BigDecimal, currency: string, bookedCurrency: string) =>
  apiError(
    "amount_rounds_to_zero",
    `${Money.toText(amount)} ${currency} is less than the smallest ${bookedCurrency} unit after conversion: nothing would be booked`,
    { amount: Money.toJsonNumber(amount), currency, bookedCurrency }
  )
