/**
 * Installments on card payments: which counts a rail's country allows, the minimum instalment,
 * how an amount splits into instalments, and the checks a create runs (`checkInstallments`).
 *
 * The rules, per country, as acquirers document them:
 * - Brazil: 1 to 12, each instalment at least BRL 5.00 (PPRO, "Card installments",
 *   https://developerhub.ppro.com/global-api/docs/card-installments; Cielo's checkout: "o valor
 *   mínimo aceitável é R$ 5,00", https://docs.cielo.com.br/link/docs/outras-configuracoes-checkout.md;
 *   Mercado Pago: "some credit cards don't accept installments below R$5,00").
 * - Mexico: 3, 6, 9 or 12 (meses sin intereses), each instalment at least MXN 100.00 (PPRO, same page).
 * - Argentina: 1 to 12, each instalment at least ARS 100.00 (PPRO, same page).
 * - Every other country: 1 only (no document read says otherwise).
 * A count of 1 is a plain charge, allowed everywhere and never held to the minimum.
 *
 * Who pays the interest: `merchant` (the default) charges the buyer the price in `count` equal
 * parts and the merchant absorbs the acquirer's cost; `buyer` would add the issuer's interest,
 * whose rates no provider gives the engine (no documented rate source), so it is refused with
 * `installment_interest_not_supported` rather than invented.
 *
 * Splitting (PPRO's calculation): each instalment is the total divided by the count, rounded down
 * to the currency's exponent; the remainder goes on the first. The parts sum exactly to the total,
 * none is above the first, and no part exceeds the total.
 */
import { BigDecimal, Effect, Schema } from "effect"
import { apiError } from "../ApiError.ts"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import * as Money from "../Money.ts"

export const InstallmentInterest = Schema.Literals(["merchant", "buyer"])
export type InstallmentInterest = typeof InstallmentInterest.Type

/** What a payment keeps of its installments (`Payment.installments`), and what a provider is asked for. */
export const PaymentInstallments = Schema.Struct({
  count: Schema.Int,
  interest: InstallmentInterest
})
export type PaymentInstallments = typeof PaymentInstallments.Type

/** A country's rule: the counts it allows and the least an instalment may be (in `currency`). */
export interface InstallmentRule {
  readonly counts: ReadonlyArray<number>
  readonly currency: string | null
  readonly minimumInstalment: BigDecimal.BigDecimal | null
}

const upTo12 = Array.from({ length: 12 }, (_, i) => i + 1)

/** By ISO-2 country (the catalog's `PaymentMethodDef.country`). */
const rules: Readonly<Record<string, InstallmentRule>> = {
  BR: { counts: upTo12, currency: "BRL", minimumInstalment: Money.decimal("5") },
  MX: { counts: [1, 3, 6, 9, 12], currency: "MXN", minimumInstalment: Money.decimal("100") },
  AR: { counts: upTo12, currency: "ARS", minimumInstalment: Money.decimal("100") }
}

const single: InstallmentRule = { counts: [1], currency: null, minimumInstalment: null }

/** The rule of a country (ISO-2); 1 only where none is documented. */
export const ruleOf = (countryIso2: string): InstallmentRule => rules[countryIso2] ?? single

/**
 * `total` in `count` instalments of `currency`: each the total divided by the count rounded down
 * to the currency's exponent, the remainder on the first; they sum exactly to `total`.
 */
export const split = (total: BigDecimal.BigDecimal, count: number, currency: string): ReadonlyArray<BigDecimal.BigDecimal> => {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`instalment count must be a positive integer, got ${count}`)
  const share = Money.roundFor(BigDecimal.divideUnsafe(total, BigDecimal.fromNumberUnsafe(count)), currency, "receives")
  const rest = BigDecimal.multiply(share, BigDecimal.fromNumberUnsafe(count - 1))
  const first = BigDecimal.normalize(BigDecimal.subtract(total, rest))
  return [first, ...Array.from({ length: count - 1 }, () => share)]
}

/** Whether every instalment of `count` is at least the rule's minimum (a count of 1 always is). */
const meetsMinimum = (rule: InstallmentRule, total: BigDecimal.BigDecimal, count: number, currency: string) =>
  count === 1 || rule.minimumInstalment === null || rule.currency !== currency ||
  BigDecimal.isGreaterThanOrEqualTo(split(total, count, currency)[count - 1]!, rule.minimumInstalment)

/** The counts `total` (in the rail's `currency`) can be paid in on a rail of `countryIso2`. */
export const allowedCounts = (countryIso2: string, total: BigDecimal.BigDecimal, currency: string): ReadonlyArray<number> => {
  const rule = ruleOf(countryIso2)
  return rule.counts.filter((count) => meetsMinimum(rule, total, count, currency))
}

/** One count of a quote: its regular instalment, the first (which takes the rounding remainder) and the total. */
export interface QuoteOption {
  readonly count: number
  readonly instalmentAmount: BigDecimal.BigDecimal
  readonly firstInstalmentAmount: BigDecimal.BigDecimal
  readonly total: BigDecimal.BigDecimal
  readonly interest: "merchant"
}

/** Each count `total` can be paid in, with its amounts: the buyer pays `total` whatever the count (the merchant absorbs the cost). */
export const quoteOptions = (countryIso2: string, total: BigDecimal.BigDecimal, currency: string): ReadonlyArray<QuoteOption> =>
  allowedCounts(countryIso2, total, currency).map((count) => {
    const parts = split(total, count, currency)
    return { count, instalmentAmount: parts[count - 1]!, firstInstalmentAmount: parts[0]!, total, interest: "merchant" as const }
  })

/** Whether a rail takes installments at all: card rails (channel CREDIT_CARD) only. */
export const checkRail = Effect.fnUntraced(function*(method: PaymentMethodDef) {
  if (method.channel !== "CREDIT_CARD") {
    return yield* apiError("installments_not_accepted", `${method.name} (${method.id}) is not a card rail: installments are not accepted`)
  }
})

/**
 * A create's `installments`, checked once its local amount is known and before anything is
 * written: a card rail, interest paid by the merchant, and a count the rail's country allows for
 * that amount. Answers what the payment keeps (none when none was asked).
 */
export const checkInstallments = Effect.fnUntraced(function*(
  asked: { readonly count: number; readonly interest?: InstallmentInterest | undefined } | undefined,
  method: PaymentMethodDef,
  amountLocal: BigDecimal.BigDecimal,
  currency: string
) {
  if (asked === undefined) return undefined
  yield* checkRail(method)
  const interest = asked.interest ?? "merchant"
  if (interest === "buyer") {
    return yield* apiError(
      "installment_interest_not_supported",
      "installments.interest \"buyer\" is not supported: the engine has no documented source for issuers' instalment interest rates; use \"merchant\""
    )
  }
  const allowed = allowedCounts(method.country, amountLocal, currency)
  if (!allowed.includes(asked.count)) {
    const rule = ruleOf(method.country)
    const minimum = rule.minimumInstalment === null ? null : Money.toJsonNumber(rule.minimumInstalment)
    return yield* apiError(
      "installments_invalid",
      `${method.name} (${method.id}) takes ${allowed.join(", ")} instalment(s) for ${Money.toText(amountLocal)} ${currency}, not ${asked.count}` +
        (minimum === null ? "" : ` (each instalment at least ${minimum} ${rule.currency})`),
      { allowed, minimumInstalment: minimum, currency: rule.currency ?? currency }
    )
  }
  return { count: asked.count, interest } satisfies PaymentInstallments
})
