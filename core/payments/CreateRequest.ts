/**
 * The steps of a create before anything is written: the request's checks (`checkInput`), its
 * price (`price`), the providers to try (`chooseProviders`) and the record to write ahead
 * (`newRecord`). Each takes the services it names (`CreateServices`).
 */
import { BigDecimal, DateTime, Effect, Option } from "effect"
import { apiError, invalidRequest } from "../ApiError.ts"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import * as Country from "../Country.ts"
import { checkDocument } from "../DocumentNumbers.ts"
import { merchantUrlProblem } from "../MerchantUrl.ts"
import * as Money from "../Money.ts"
import { noProviderReason, type Planned } from "../routing/Routing.ts"
import type { Skipped } from "../routing/Skips.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { type BuyerData, lacking, missingFor, neededByAll, providerNeeds, revealed } from "./BuyerData.ts"
import { inFlight } from "./Cascade.ts"
import { limitError } from "./Checks.ts"
import type { CreatePayment } from "./CreateInput.ts"
import type { CreateServices } from "./CreateServices.ts"
import type { Payment } from "./Payment.ts"
import { linkTokenBytes } from "./PaymentView.ts"
import * as Pricing from "./Pricing.ts"

/** A request that passed its checks: its rail, the rail's country (ISO-3) and the buyer data it brings. */
export interface Checked {
  readonly method: PaymentMethodDef
  readonly country: string
  readonly buyer: BuyerData
}

/**
 * The request's own checks, in the order its errors are answered: the return URL, the country,
 * the rail, the buyer data a hosted checkout needs, the document, the country against the rail's.
 */
export const checkInput = Effect.fnUntraced(function*(s: Pick<CreateServices, "checks" | "routing">, scope: ShopScope, input: CreatePayment) {
  const returnUrlProblem = input.returnUrl === undefined ? undefined : merchantUrlProblem(input.returnUrl, scope.environment)
  if (returnUrlProblem !== undefined) {
    return yield* invalidRequest(`returnUrl: ${returnUrlProblem}`, [{ path: "returnUrl", message: returnUrlProblem }])
  }
  const countryIso3 = yield* Country.requestedCountry(input.country)
  const method = yield* s.checks.resolveMethod(scope, input, countryIso3)
  const buyer: BuyerData = {
    userName: input.userName ?? null,
    email: input.userEmail ?? null,
    documentId: input.documentId ?? null,
    phone: input.userPhone ?? null,
    address: input.userAddress ?? null
  }
  if (input.hostedCheckout === true) {
    const missing = missingFor(buyer, method, neededByAll(yield* s.routing.candidates(scope.environment, scope.shop.id, method), method))
    if (missing.length > 0) {
      return yield* apiError("missing_required_fields", `The hosted-checkout flow needs ${missing.join(", ")}`, { missingFields: missing })
    }
  }
  const documentId = revealed(input.documentId)
  if (documentId !== null && documentId.trim() !== "") {
    const document = checkDocument(method.country, documentId)
    if ("problem" in document) {
      return yield* invalidRequest(`documentId ${document.problem}`, [{ path: "documentId", message: document.problem }])
    }
  }
  const methodCountry = Option.getOrThrow(Country.toIso3(method.country))
  if (countryIso3 !== undefined && countryIso3 !== methodCountry) {
    return yield* invalidRequest(`Payment method ${method.id} is in ${methodCountry}, not ${countryIso3}`, [{
      path: "country",
      message: `Expected ${methodCountry} (the payment method's country) or nothing`
    }])
  }
  return { method, country: methodCountry, buyer } satisfies Checked
})

/**
 * The USD headline, the rail's local amount within its limits, and the fees and settlement of
 * the headline, which must leave the merchant something.
 */
export const price = Effect.fnUntraced(function*(s: Pick<CreateServices, "checks" | "fx">, scope: ShopScope, input: CreatePayment, method: PaymentMethodDef) {
  const { conversion: toUsd, currency } = yield* s.checks.headline(input.amount, input.currency)
  const usd = toUsd.converted
  const localCurrency = method.currencies[0]!
  // A price in the rail's currency is charged as priced; only the USD headline carries the markup.
  const toLocal = yield* s.fx.localOf(toUsd, localCurrency)
  yield* s.checks.checkLimits(method, usd, toLocal.converted, localCurrency)
  const fees = Pricing.fees(usd, method, scope.merchant.tier)
  const settlement = Pricing.settlement(usd, method, scope.merchant.tier)
  if (!BigDecimal.isPositive(Pricing.net(usd, fees, settlement))) {
    return yield* limitError(`${Money.toText(usd)} USD does not cover the fees of ${Money.toText(fees.total)} USD`, {
      amountUsd: Money.toJsonNumber(usd),
      feesUsd: Money.toJsonNumber(fees.total)
    })
  }
  return { currency, toUsd, usd, localCurrency, toLocal, fees, settlement }
})

/** A request's price: its presentment currency, the conversions, the USD headline, fees and settlement. */
export type Priced = Effect.Success<ReturnType<typeof price>>

/** The providers a record is routed to, in order, and those routing passed over, with why. */
export interface Chosen {
  readonly providers: ReadonlyArray<Planned>
  readonly skipped: ReadonlyArray<Skipped>
}

/**
 * Routing's plan for the payment, less the providers that cannot charge the rail without buyer
 * data the request lacks: they could only decline. Each provider passed over is kept with why,
 * in the record's first write (or in the error when nothing is left to try).
 */
export const chooseProviders = Effect.fnUntraced(function*(
  s: Pick<CreateServices, "routing">,
  scope: ShopScope,
  input: CreatePayment,
  { buyer, method }: Checked,
  { localCurrency, usd }: Priced,
  /** The card's brand and BIN as the vault described them, for rules on cards. */
  card?: { readonly brand: string; readonly bin: string } | undefined,
  /** The instalment count asked (`Installments.ts`), for rules on installments; absent counts 1. */
  installments?: number | undefined
) {
  const planned = yield* s.routing.plan(scope.environment, scope.shop.id, method, {
    country: method.country,
    paymentMethodId: method.id,
    method: method.method,
    currency: localCurrency,
    amountUsd: usd,
    tags: { tag1: input.tag1, tag2: input.tag2, tag3: input.tag3 },
    ...(card === undefined ? {} : { card: { brand: card.brand, bin: card.bin } }),
    ...(installments === undefined ? {} : { installments })
  })
  const needs = planned.providers.map((r) => ({ route: r, missing: lacking(buyer, providerNeeds(r.provider, method), method.country) }))
  const providers = needs.filter((n) => n.missing.length === 0).map((n) => n.route)
  const lackingData = needs.filter((n) => n.missing.length > 0)
  const skipped: ReadonlyArray<Skipped> = [
    ...planned.skipped,
    ...lackingData.map((n): Skipped => ({ provider: n.route.provider.id, reason: "missing_required_fields", missingFields: n.missing }))
  ]
  if (planned.providers.length === 0) {
    return yield* apiError("cascade_exhausted", `No provider is configured for ${method.name} (${method.id}) on this shop`, {
      reason: noProviderReason,
      // The rail is in the shop's listing (not routable): enabled for it, with no provider.
      paymentMethodEnabledForShop: true,
      skipped
    })
  }
  // With none left, the merchant is told what routing's first choice needs.
  if (providers.length === 0) {
    const missing = lackingData[0]?.missing ?? []
    return yield* apiError("missing_required_fields", `${method.name} (${method.id}) needs ${missing.join(", ")} to be charged`, {
      missingFields: missing,
      skipped
    })
  }
  return { providers, skipped } satisfies Chosen
})

/**
 * The record written ahead: `initiated`, priced, its first attempt in flight on routing's first
 * choice (its id the one the request reserved, or a new one).
 */
export const newRecord = Effect.fnUntraced(function*(
  s: Pick<CreateServices, "ids" | "config">,
  scope: ShopScope,
  input: CreatePayment,
  { method, country }: Checked,
  { currency, fees, localCurrency, settlement, toLocal, toUsd, usd }: Priced,
  { providers, skipped }: Chosen
) {
  const id = input.id ?? (yield* s.ids.next("transaction"))
  const createdAt = yield* DateTime.now
  const simulate = scope.environment === "sandbox" ? input.simulate : undefined
  const first = providers[0]!
  const payment: Payment = {
    id,
    environment: scope.environment,
    merchantId: scope.merchant.id,
    shopId: scope.shop.id,
    status: "initiated",
    amount: usd,
    inputCurrency: currency === "USD" ? null : currency,
    inputAmount: currency === "USD" ? null : input.amount,
    amountLocal: toLocal.converted,
    currencyLocal: localCurrency,
    paymentMethodId: method.id,
    method: method.method,
    methodName: method.name,
    channel: method.channel,
    country,
    provider: first.provider.id,
    providerRef: "",
    paymentFormUrl: "",
    paymentData: {},
    fees,
    settlement,
    fx: {
      presentment: currency === "USD" ? null : { currency, midPerUsd: toUsd.midPerUsd, rate: toUsd.rate },
      local: { currency: localCurrency, midPerUsd: toLocal.midPerUsd, rate: toLocal.rate },
      markupPct: s.config.fxMarkupPct
    },
    attempts: [inFlight(first.provider.id, createdAt, first.routing)],
    ...(skipped.length === 0 ? {} : { skipped }),
    merchantOrderId: input.merchantOrderId ?? null,
    tag1: input.tag1 ?? null,
    tag2: input.tag2 ?? null,
    tag3: input.tag3 ?? null,
    userName: input.userName ?? null,
    userEmail: input.userEmail ?? null,
    userPhone: input.userPhone ?? null,
    userIp: input.userIp ?? null,
    hostedCheckout: input.hostedCheckout === true,
    linkToken: yield* s.ids.secret("", linkTokenBytes),
    returnUrl: input.returnUrl ?? null,
    nextAction: null,
    simulate: simulate ?? null,
    failureReason: null,
    expiresAt: simulate === "expired" ? createdAt : DateTime.add(createdAt, { minutes: method.expiresInMinutes }),
    createdAt,
    updatedAt: createdAt,
    completedAt: null,
    version: 1
  }
  return payment
})
