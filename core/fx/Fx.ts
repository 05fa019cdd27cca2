/**
 * Currency conversion. Mid rates come from the rate store; the engine's rate is the mid rate with
 * the configured markup on the engine's side: a presentment amount becomes fewer USD
 * (`amount / perUsd * (1 - markup)`), and USD become more local currency for the buyer
 * (`usd * perUsd * (1 + markup)`). Results are rounded to the target currency's exponent; the
 * rates used are returned so that the record that used them can store them.
 */
import { BigDecimal, Context, DateTime, Effect, Layer, Option } from "effect"
import { apiError, type ApiErrorOf } from "../ApiError.ts"
import { EngineConfig } from "../EngineConfig.ts"
import * as Money from "../Money.ts"
import { type FxRate, FxRateStore } from "../ports/FxRateStore.ts"
import { realMillis } from "../clock/ShopClocks.ts"
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
  /** `amount` of `currency` in USD, for the merchant's headline (markup on the engine's side). */
  readonly toUsd: (amount: BigDecimal.BigDecimal, currency: string) => Effect.Effect<Conversion, ApiErrorOf<"fx_unavailable">>
  /** `usd` in `currency`, what the buyer pays (markup on the engine's side). */
  readonly fromUsd: (usd: BigDecimal.BigDecimal, currency: string) => Effect.Effect<Conversion, ApiErrorOf<"fx_unavailable">>
  /** `usd` sold for `currency` by the merchant (payout swaps): fewer local units, markup on the engine's side. */
  readonly sellUsd: (usd: BigDecimal.BigDecimal, currency: string) => Effect.Effect<Conversion, ApiErrorOf<"fx_unavailable">>
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
      const setRate = (rate: FxRate) => Effect.andThen(store.put(rate), Effect.sync(() => void cached.delete(rate.currency)))

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
        if (currency === "USD") return conversion("USD", "USD", amount, Money.round(amount, "USD"), one)
        const mid = yield* midPerUsd(currency)
        const usd = BigDecimal.multiply(BigDecimal.divideUnsafe(amount, mid), BigDecimal.subtract(one, markup))
        return conversion(currency, "USD", amount, Money.round(usd, "USD"), mid)
      })

      const fromUsd = Effect.fnUntraced(function*(usd: BigDecimal.BigDecimal, currency: string) {
        if (currency === "USD") return conversion("USD", "USD", usd, Money.round(usd, "USD"), one)
        const mid = yield* midPerUsd(currency)
        const local = BigDecimal.multiply(BigDecimal.multiply(usd, mid), BigDecimal.sum(one, markup))
        return conversion("USD", currency, usd, Money.round(local, currency), mid)
      })

      const sellUsd = Effect.fnUntraced(function*(usd: BigDecimal.BigDecimal, currency: string) {
        if (currency === "USD") return conversion("USD", "USD", usd, Money.round(usd, "USD"), one)
        const mid = yield* midPerUsd(currency)
        const local = BigDecimal.multiply(BigDecimal.multiply(usd, mid), BigDecimal.subtract(one, markup))
        return conversion("USD", currency, usd, Money.round(local, currency), mid)
      })

      return Fx.of({ toUsd, fromUsd, sellUsd, midPerUsd, setRate })
    })
  )
}
