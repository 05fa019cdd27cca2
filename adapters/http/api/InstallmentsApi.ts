/**
 * Installments on card payments: what `POST /payments` takes (`InstallmentsInput`), how a
 * payment shows them (`InstallmentsFields`), and the quote a buyer chooses from before paying
 * (`GET /installments`). The rules are `core/payments/Installments.ts`.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { anyKey, withErrors } from "./EndpointErrors.ts"
import { AmountText, Text } from "./Fields.ts"
import { AnyKey } from "./Security.ts"

const Money = Schema.Finite.annotate({ description: "Major units" })

export const rulesText =
  "Counts by the rail's country: Brazil 1 to 12, each instalment at least 5 BRL; Mexico 1, 3, 6, 9 or 12 (meses sin intereses), " +
  "each at least 100 MXN; Argentina 1 to 12, each at least 100 ARS; every other country 1 only. The amount splits into equal " +
  "instalments rounded down to the currency's decimals, the remainder on the first; they sum exactly to `amountLocal`."

export const InstallmentsInput = Schema.Struct({
  count: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 48 })).annotate({ description: "How many instalments the buyer pays in" }),
  interest: Schema.optional(Schema.Literals(["merchant", "buyer"]).annotate({
    description: "Who pays the instalment interest. `merchant` (default): the buyer pays the price in equal parts and you absorb the acquirer's cost. " +
      "`buyer` is refused with 422 installment_interest_not_supported: the engine has no documented source of issuers' interest rates."
  }))
}).annotate({
  identifier: "InstallmentsInput",
  description: "Card rails only (422 installments_not_accepted elsewhere): pay in instalments. A count the rail's country does not allow for " +
    `the amount is 422 installments_invalid with details { allowed, minimumInstalment, currency }. ${rulesText} ` +
    "GET /installments quotes the counts before the buyer chooses. Checked before anything is written; passed to the provider."
})

export const InstallmentsView = Schema.Struct({
  count: Schema.Int,
  interest: Schema.Literals(["merchant", "buyer"]),
  instalmentAmount: Money.annotate({ description: "Each instalment after the first, in `currencyLocal`" }),
  firstInstalmentAmount: Money.annotate({ description: "The first instalment, which takes the rounding remainder" })
}).annotate({ identifier: "PaymentInstallments", description: "A card payment made in instalments" })

export const InstallmentsFields = {
  installments: Schema.optional(InstallmentsView)
}

export const InstallmentsQuoteView = Schema.Struct({
  paymentMethodId: Schema.String,
  currency: Schema.String.annotate({ description: "The rail's currency" }),
  amountLocal: Money.annotate({ description: "What the buyer pays in `currency`, priced as POST /payments prices it" }),
  options: Schema.Array(Schema.Struct({
    count: Schema.Int,
    instalmentAmount: Money.annotate({ description: "Each instalment after the first" }),
    firstInstalmentAmount: Money.annotate({ description: "The first instalment (takes the rounding remainder)" }),
    total: Money.annotate({ description: "What the buyer pays in all: `amountLocal` (interest is the merchant's)" }),
    interest: Schema.Literal("merchant")
  }))
}).annotate({ identifier: "InstallmentsQuote" })

export class InstallmentsApi extends HttpApiGroup.make("installments")
  .add(
    HttpApiEndpoint.get("quote", "/installments", {
      query: {
        paymentMethodId: Text(20).annotate({ description: "A card rail, from GET /payment-methods" }),
        amount: AmountText.annotate({ description: "USD, as `amount` on POST /payments" }),
        shopId: Schema.optional(Text(64))
      },
      success: InstallmentsQuoteView
    }).annotate(
      OpenApi.Description,
      "The instalment counts a card rail takes for an amount, each with its instalments, before the buyer chooses (any key). The amount is " +
        "converted to the rail's currency exactly as POST /payments converts it (same FX, limits and fees checks: 422 amount_out_of_limits, " +
        `503 fx_unavailable). ${rulesText} A rail that is not a card rail is 422 installments_not_accepted; an unknown one 422 cascade_exhausted.`
    )
  )
  .middleware(AnyKey)
  .annotate(OpenApi.Title, "Installments")
  .pipe(withErrors({
    quote: [...anyKey, "not_found", "cascade_exhausted", "amount_out_of_limits", "fx_unavailable", "installments_not_accepted"]
  }))
{}
