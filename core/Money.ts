/**
 * Money in major units on `BigDecimal`, rounded per the currency's ISO 4217 exponent.
 *
 * No JavaScript float arithmetic touches an amount: JSON numbers are read through their
 * shortest decimal text (`50.1` -> "50.1") and written back the same way.
 */
import { BigDecimal, Option, Schema, SchemaTransformation } from "effect"
import { iso4217Digits } from "./Iso4217.ts"

/**
 * ISO 4217 minor-unit exponents of every currency in current use (the maintained table, see
 * `Iso4217.ts`). A code in it without an FX rate is a currency the engine cannot convert yet
 * (`fx_unavailable`), not an unknown one.
 */
export const currencyExponents: Readonly<Record<string, number>> = iso4217Digits

export type Currency = string

/** A currency code the engine knows the exponent of. */
export const Currency = Schema.String.pipe(
  Schema.check(Schema.makeFilter((s: string) => s in currencyExponents, {
    expected: "an ISO 4217 currency code, such as USD, BRL or MXN"
  }))
)

/** Uppercases a currency code and answers it when the engine knows it. */
export const normalizeCurrency = (input: string): Option.Option<Currency> => {
  const code = input.trim().toUpperCase()
  return code in currencyExponents ? Option.some(code) : Option.none()
}

/** The number of minor-unit digits of `currency` (2 when unknown, the common case). */
export const exponent = (currency: Currency): number => currencyExponents[currency] ?? 2

/**
 * Rounds to the currency's exponent, half to even (banker's rounding), for an amount that moves no
 * money by being rounded: one already exact, a figure shown. A conversion or a share is rounded
 * with `roundFor`, which names its side.
 */
export const round = (amount: BigDecimal.BigDecimal, currency: Currency): BigDecimal.BigDecimal =>
  BigDecimal.normalize(BigDecimal.round(amount, { scale: exponent(currency), mode: "half-even" }))

/**
 * Who a converted or shared amount goes to, seen from the merchant: what it `receives` (a USD
 * headline, the USD of a swap, the local currency of a payout swap) or what it `pays` (a fee, a
 * refund's USD share, what its buyer is charged in a local currency).
 */
export type Side = "receives" | "pays"

/**
 * Rounds a converted or shared amount to the currency's exponent in the platform's favour: what
 * the merchant receives is rounded down, what it pays up, so that no split of an operation into
 * parts ever moves more to the merchant (or less from it) than the whole would. Every conversion
 * and share is rounded here, naming its side; `round` is for amounts that are already exact.
 */
export const roundFor = (amount: BigDecimal.BigDecimal, currency: Currency, side: Side): BigDecimal.BigDecimal =>
  BigDecimal.normalize(BigDecimal.round(amount, { scale: exponent(currency), mode: side === "receives" ? "floor" : "ceil" }))

/** Rounds to an explicit scale, half to even (FX rates keep more digits than money). */
export const roundTo = (amount: BigDecimal.BigDecimal, scale: number): BigDecimal.BigDecimal =>
  BigDecimal.normalize(BigDecimal.round(amount, { scale, mode: "half-even" }))

/** True when `amount` has no more fractional digits than the currency allows. */
export const fitsExponent = (amount: BigDecimal.BigDecimal, currency: Currency): boolean =>
  BigDecimal.normalize(amount).scale <= exponent(currency)

export const zero: BigDecimal.BigDecimal = BigDecimal.fromBigInt(0n)

/** Parses decimal text; throws only on text that is not a decimal, which is a programming error. */
export const decimal = (text: string): BigDecimal.BigDecimal => BigDecimal.fromStringUnsafe(text)

/** The plain decimal text of an amount ("50", "12.5"), as stored in SQL `numeric`. */
export const toText = (amount: BigDecimal.BigDecimal): string => BigDecimal.format(BigDecimal.normalize(amount))

/**
 * The JSON number of an amount. An amount rounded to a currency exponent has at most a few
 * fractional digits, so its shortest decimal text is exactly the number JSON carries.
 */
export const toJsonNumber = (amount: BigDecimal.BigDecimal): number => Number(toText(amount))

/**
 * The largest magnitude any amount input may have, in major units: far above any real payment
 * (100 000 USD is about 4e8 COP) and small enough that a JSON number still carries every cent
 * exactly (1e12 x 100 < 2^53).
 */
export const maxAmountInput = 1e12

/** Whether an amount that arrived as text (a network notification) is within `maxAmountInput`. */
export const withinInputBound = (amount: BigDecimal.BigDecimal): boolean =>
  BigDecimal.isLessThanOrEqualTo(BigDecimal.abs(amount), BigDecimal.fromNumberUnsafe(maxAmountInput))

/**
 * A JSON number in major units, decoded to `BigDecimal` through its decimal text.
 * Rejects NaN, infinities and magnitudes above `maxAmountInput` (1e21, 1e308);
 * sign and scale rules belong to the endpoint that reads it (each answers its own code for 0 or
 * a negative amount), so the documents say what every endpoint accepts: above 0
 * (`exclusiveMinimum`), at most `maxAmountInput`.
 */
export const Amount = Schema.Finite.check(
  Schema.isLessThanOrEqualTo(maxAmountInput),
  Schema.isGreaterThanOrEqualTo(-maxAmountInput, { toJsonSchema: () => ({ exclusiveMinimum: 0 }) })
).annotate({
  description: "Major units of its currency (50.5 is fifty and a half), above 0, with at most the currency's decimals",
  examples: [100]
}).pipe(
  Schema.decodeTo(
    Schema.BigDecimal,
    SchemaTransformation.transform({
      decode: (n: number) => BigDecimal.normalize(BigDecimal.fromNumberUnsafe(n)),
      encode: toJsonNumber
    })
  )
)
