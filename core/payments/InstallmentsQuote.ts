/**
 * The instalment quote (`GET /installments`): for a card rail and a USD amount, what the buyer
 * would pay in the rail's currency (priced exactly as a create prices it, `CreateRequest.price`:
 * the same FX, limits and fees checks) and each count that amount can be paid in, with its
 * instalments (`Installments.quoteOptions`).
 */
import type { BigDecimal } from "effect"
import { Effect } from "effect"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { price } from "./CreateRequest.ts"
import type { CreateServices } from "./CreateServices.ts"
import { checkRail, type QuoteOption, quoteOptions } from "./Installments.ts"

export interface InstallmentsQuote {
  readonly paymentMethodId: string
  readonly currency: string
  readonly amountLocal: BigDecimal.BigDecimal
  readonly options: ReadonlyArray<QuoteOption>
}

export const quoteInstallments = Effect.fnUntraced(function*(
  s: Pick<CreateServices, "checks" | "fx">,
  scope: ShopScope,
  paymentMethodId: string,
  amount: BigDecimal.BigDecimal
) {
  const method = yield* s.checks.resolveMethod(scope, { paymentMethodId }, undefined)
  yield* checkRail(method)
  const { localCurrency, toLocal } = yield* price(s, scope, { amount }, method)
  return {
    paymentMethodId: method.id,
    currency: localCurrency,
    amountLocal: toLocal.converted,
    options: quoteOptions(method.country, toLocal.converted, localCurrency)
  } satisfies InstallmentsQuote
})
