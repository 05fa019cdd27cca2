/**
 * What a payment request must satisfy before anything is stored: a known rail, a valid amount in
 * a known currency, the rail's limits in USD and in its local currency, and the spec's ceiling.
 */
import { BigDecimal, Effect, Option } from "effect"
import { apiError, invalidRequest } from "../ApiError.ts"
import { Catalog } from "../catalog/Catalog.ts"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import * as Country from "../Country.ts"
import { Fx } from "../fx/Fx.ts"
import * as Money from "../Money.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { noProviderReason, Routing } from "../routing/Routing.ts"

/** The USD headline of one payment may not exceed this (spec 8). */
export const maxPaymentUsd = Money.decimal("100000")

export const limitError = (message: string, details: Record<string, unknown>) => apiError("amount_out_of_limits", message, details)

export const makeChecks = Effect.gen(function*() {
  const catalog = yield* Catalog
  const routing = yield* Routing
  const fx = yield* Fx

  /** The rail a request names, by catalog id or (legacy) by method slug within the country. */
  const resolveMethod = Effect.fnUntraced(function*(
    scope: ShopScope,
    input: { readonly paymentMethodId?: string | undefined; readonly paymentMethod?: string | undefined },
    countryIso3: string | undefined
  ) {
    if (input.paymentMethodId !== undefined) {
      const method = catalog.find(scope.environment, input.paymentMethodId)
      if (method === undefined) {
        return yield* apiError("cascade_exhausted", `Unknown payment method '${input.paymentMethodId}': take ids from GET /payment-methods`, {
          reason: "unknown_payment_method",
          paymentMethodEnabledForShop: false
        })
      }
      return method
    }
    if (input.paymentMethod !== undefined) {
      // Legacy: route by slug within the country bucket, to the first rail a provider serves.
      const iso2 = Option.getOrUndefined(Country.toIso2(countryIso3 ?? "USA"))
      const bucket = catalog.methods(scope.environment).filter((m) => m.method === input.paymentMethod && m.country === iso2)
      const route = yield* routing.routerFor(scope.environment, scope.shop.id)
      const method = bucket.find((m) => route(m).length > 0)
      if (method === undefined) {
        return yield* apiError("cascade_exhausted", `No provider serves '${input.paymentMethod}' in ${countryIso3 ?? "USA"}`, {
          reason: noProviderReason,
          paymentMethodEnabledForShop: false
        })
      }
      return method
    }
    return yield* invalidRequest("paymentMethodId is required", [{ path: "paymentMethodId", message: "Missing key" }], [
      "paymentMethodId"
    ])
  })

  const checkLimits = Effect.fnUntraced(function*(method: PaymentMethodDef, usd: BigDecimal.BigDecimal, local: BigDecimal.BigDecimal, localCurrency: string) {
    const limit = method.currencyLimits.find((l) => l.currency === localCurrency)
    if (limit !== undefined && !BigDecimal.between(local, { minimum: Money.decimal(limit.min), maximum: Money.decimal(limit.max) })) {
      return yield* limitError(
        `${method.name} accepts ${limit.min} to ${limit.max} ${localCurrency}; this payment is ${Money.toText(local)} ${localCurrency}`,
        { currency: localCurrency, min: Number(limit.min), max: Number(limit.max), amountLocal: Money.toJsonNumber(local) }
      )
    }
    const minUsd = method.minTxUsd === null ? undefined : Money.decimal(method.minTxUsd)
    const maxUsd = method.maxTxUsd === null ? undefined : Money.decimal(method.maxTxUsd)
    if ((minUsd !== undefined && BigDecimal.isLessThan(usd, minUsd)) || (maxUsd !== undefined && BigDecimal.isGreaterThan(usd, maxUsd))) {
      return yield* limitError(`${method.name} accepts ${method.minTxUsd ?? "0"} to ${method.maxTxUsd ?? "any"} USD`, {
        currency: "USD",
        min: minUsd === undefined ? null : Money.toJsonNumber(minUsd),
        max: maxUsd === undefined ? null : Money.toJsonNumber(maxUsd),
        amountUsd: Money.toJsonNumber(usd)
      })
    }
  })

  /** Validates an amount in a presentment currency and converts it to the USD headline. */
  const headline = Effect.fnUntraced(function*(amount: BigDecimal.BigDecimal, currencyInput: string | undefined) {
    const currency = currencyInput === undefined ? Option.some("USD") : Money.normalizeCurrency(currencyInput)
    if (Option.isNone(currency)) {
      return yield* invalidRequest(`Unknown currency '${currencyInput}'`, [{ path: "currency", message: "Expected an ISO 4217 currency code" }])
    }
    if (!BigDecimal.isPositive(amount)) {
      return yield* invalidRequest("amount must be greater than 0", [{ path: "amount", message: "Expected a number greater than 0" }])
    }
    if (!Money.fitsExponent(amount, currency.value)) {
      return yield* invalidRequest(`amount has more decimals than ${currency.value} allows`, [{
        path: "amount",
        message: `Expected at most ${Money.exponent(currency.value)} decimals`
      }])
    }
    const conversion = yield* fx.toUsd(amount, currency.value)
    if (BigDecimal.isGreaterThan(conversion.converted, maxPaymentUsd)) {
      return yield* limitError(`The USD amount ${Money.toText(conversion.converted)} is above the limit of 100000 USD`, {
        amountUsd: Money.toJsonNumber(conversion.converted),
        maxUsd: 100000
      })
    }
    return { currency: currency.value, conversion }
  })

  return { resolveMethod, checkLimits, headline }
})
