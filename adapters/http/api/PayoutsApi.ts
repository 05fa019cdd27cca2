import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Amount } from "../../../core/Money.ts"
import { PayoutAction, PayoutStatus } from "../../../core/payouts/Payout.ts"
import { AmountText, Environment, IdempotencyHeaders, IsoDateTime, Text } from "./Fields.ts"
import { Pagination } from "./PaymentsApi.ts"
import { AdminToken, SecretKey } from "./Security.ts"
import { admin, idempotent, secretKey, withErrors } from "./EndpointErrors.ts"

const Money = Schema.Finite.annotate({ description: "Major units" })
const Balance = Schema.Struct({ currency: Schema.String, available: Money, pending: Money, reserved: Money })

export const PayoutView = Schema.Struct({
  id: Schema.String.annotate({ description: "`po-...`" }),
  methodId: Schema.String,
  methodName: Schema.String,
  method: Schema.String.annotate({ description: "The rail" }),
  currency: Schema.String,
  amount: Money.annotate({ description: "In the method's currency" }),
  status: PayoutStatus,
  provider: Schema.String,
  providerRef: Schema.NullOr(Schema.String),
  environment: Environment,
  createdAt: IsoDateTime,
  completedAt: Schema.NullOr(IsoDateTime),
  failureReason: Schema.optional(Schema.NullOr(Schema.String))
}).annotate({ identifier: "Payout" })

export const PayoutMethodView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  currency: Schema.String,
  country: Schema.String,
  rail: Schema.String,
  minUsd: Money,
  maxUsd: Money,
  logoUrl: Schema.String,
  iconUrl: Schema.String,
  funded: Schema.Boolean,
  currencyAvailable: Money,
  routable: Schema.Boolean.annotate({
    description: "Whether a payout can be sent on this method here. In production a method needs a configured payout provider; without one it is listed with routable: false and sending answers 422 payout_method_unavailable (nothing is debited)."
  }),
  unroutableReason: Schema.NullOr(Schema.String).annotate({ description: "`no_payout_provider_configured` when not routable" }),
  driver: Schema.NullOr(Schema.String).annotate({
    description: "Who pays out: a payout provider's id; `simulated` in sandbox for real rails without a provider (completes at once, moves no money); `sandbox` for the sbx_po_* rails (wait for simulate)"
  }),
  recipientFields: Schema.Array(Schema.Struct({
    key: Schema.String,
    label: Schema.String,
    required: Schema.Boolean,
    type: Schema.String,
    options: Schema.optional(Schema.Array(Schema.Struct({ value: Schema.String, label: Schema.String }))),
    description: Schema.optional(Schema.String)
  }))
}).annotate({ identifier: "PayoutMethod" })

export const SendResult = Schema.Struct({ payout: PayoutView, methodName: Schema.String, logoUrl: Schema.String, iconUrl: Schema.String })
export const TransferResult = Schema.Struct({
  transfer: Schema.Struct({ id: Schema.String, amount: Money, currency: Schema.Literal("USD"), payinAvailableAfter: Money, payoutAvailableAfter: Money })
})
export const PayoutSwapResult = Schema.Struct({
  swap: Schema.Struct({
    id: Schema.String,
    fromCurrency: Schema.Literal("USD"),
    toCurrency: Schema.String,
    amountUsd: Money,
    rate: Schema.Finite.annotate({ description: "Local units per USD, FX margin inside" }),
    amount: Money.annotate({ description: "In toCurrency" }),
    usdAvailableAfter: Money,
    localAvailableAfter: Money
  })
})

const payoutDescription =
  "Real rails debit the payout balance in the method's currency; with no payout provider configured the simulated driver completes at once " +
  "(it rejects a recipient name containing REJECT: 422 payout_dispatch_failed, debit reversed; a corrected retry with the same Idempotency-Key executes again). " +
  "With a payout provider the payout answers processing (with the provider's providerRef) and ends completed or failed by the provider's callback or the status poll, failed returning the debit; " +
  "a provider that cannot be reached is not a refusal: the payout answers processing with providerRef null, stays debited, and is sent again with the same upstream key every 5 minutes for a day. " +
  "A provider refusing the beneficiary at once is 422 payout_dispatch_failed with the debit reversed. " +
  "Sandbox rails (sbx_po_*) debit nothing and wait for simulate. Errors: payout_method_unavailable, amount_invalid, currency_not_funded, balance_insufficient (details.availableUsd, details.shortfallUsd), invalid_request (recipient, field by field)."

export class PayoutsApi extends HttpApiGroup.make("payouts")
  .add(
    HttpApiEndpoint.get("balance", "/me/payout/balance", {
      success: Schema.Struct({ balances: Schema.Array(Balance), transferableFromPayin: Schema.Struct({ currency: Schema.Literal("USD"), amount: Money }) })
    }).annotate(OpenApi.Description, "The payout balance per currency (USD first), and the pay-in USD available to transfer."),
    HttpApiEndpoint.get("methods", "/me/payout/methods", { success: Schema.Struct({ items: Schema.Array(PayoutMethodView) }) })
      .annotate(OpenApi.Description, "Payout methods with their exact recipient fields; in sandbox the four sbx_po_* rails come first."),
    HttpApiEndpoint.get("currencies", "/me/payout/currencies", {
      success: Schema.Struct({
        currencies: Schema.Array(Schema.Struct({
          currency: Schema.String,
          country: Schema.NullOr(Schema.String),
          funded: Schema.Boolean,
          available: Money,
          rails: Schema.Array(Schema.Struct({ id: Schema.String, rail: Schema.String, country: Schema.String }))
        }))
      })
    }).annotate(OpenApi.Description, "Sorted by currency, USD first."),
    HttpApiEndpoint.post("transfer", "/me/payout/transfer", {
      headers: IdempotencyHeaders,
      payload: Schema.Struct({ amount: Amount.pipe(Schema.annotateEncoded({ description: "USD" })) }),
      success: TransferResult
    }).annotate(OpenApi.Description, "Moves USD from the pay-in available balance to the payout balance, atomically."),
    HttpApiEndpoint.get("swapQuote", "/me/payout/swap", {
      query: {
        toCurrency: Schema.optional(Schema.String.annotate({ description: "The payout currency to quote, as on the swap's body (required, or `to`)" })),
        amountUsd: Schema.optional(AmountText.annotate({ description: "USD, as on the swap's body (required, or `amount`)" })),
        to: Schema.optional(Schema.String.annotate({ description: "Older name of `toCurrency`, still accepted" })),
        amount: Schema.optional(AmountText.annotate({ description: "Older name of `amountUsd`, still accepted" }))
      },
      success: Schema.Struct({ quote: Schema.Struct({ fromCurrency: Schema.Literal("USD"), toCurrency: Schema.String, amountUsd: Money, rate: Schema.Finite, amount: Money, indicative: Schema.Literal(true) }) })
    }).annotate(
      OpenApi.Description,
      "Indicative: the rate is read again when the swap executes. Takes the swap's own names (`toCurrency`, `amountUsd`); `to` and `amount` are still accepted. " +
        "400 invalid_request names the parameter sent: a currency no payout rail pays out in, a missing one, or both names with different values."
    ),
    HttpApiEndpoint.post("swap", "/me/payout/swap", {
      headers: IdempotencyHeaders,
      payload: Schema.Struct({ toCurrency: Schema.String, amountUsd: Amount }),
      success: PayoutSwapResult
    }).annotate(OpenApi.Description, "Swaps USD of the payout balance to a payout currency at the rate of the moment (markup inside)."),
    HttpApiEndpoint.post("send", "/me/payout/send", {
      headers: IdempotencyHeaders,
      payload: Schema.Struct({ methodId: Text(64), amount: Amount, recipient: Schema.Unknown }),
      success: SendResult.pipe(HttpApiSchema.status(201))
    }).annotate(OpenApi.Description, payoutDescription),
    HttpApiEndpoint.get("list", "/me/payout/send", {
      query: {
        limit: Schema.optional(Schema.FiniteFromString),
        offset: Schema.optional(Schema.FiniteFromString),
        status: Schema.optional(PayoutStatus),
        methodId: Schema.optional(Schema.String)
      },
      success: Schema.Struct({ data: Schema.Array(PayoutView), pagination: Pagination })
    }).annotate(OpenApi.Description, "Newest first; limit 1 to 100 (default 50), clamped."),
    HttpApiEndpoint.get("get", "/me/payout/send/:id", { params: { id: Schema.String }, success: Schema.Struct({ payout: PayoutView }) }),
    HttpApiEndpoint.post("fundSandbox", "/me/payout/fund-sandbox", {
      payload: Schema.Struct({ currency: Schema.String, amount: Amount }),
      success: Schema.Struct({ currency: Schema.String, amount: Money, balances: Schema.Array(Balance) })
    }).annotate(OpenApi.Description, "Sandbox only: test money in the payout balance, 0 < amount <= 1000000 in the currency (else 400 invalid_request). Production: 400 fund_sandbox_only."),
    HttpApiEndpoint.post("simulate", "/me/payout/send/:id/simulate", {
      params: { id: Schema.String },
      payload: Schema.Struct({ action: PayoutAction }),
      success: Schema.Struct({ payout: PayoutView })
    }).annotate(
      OpenApi.Description,
      "Sandbox only (production: 400 simulate_sandbox_only): completed/paid complete a processing payout; failed/rejected/refunded/returned fail it (a real debit returns to the balance; payout.failed with failureReason); processing changes nothing."
    )
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Payouts")
  .pipe(withErrors({
    balance: secretKey,
    methods: secretKey,
    currencies: secretKey,
    transfer: [...secretKey, ...idempotent, "amount_invalid", "balance_insufficient"],
    swapQuote: [...secretKey, "amount_invalid", "fx_unavailable", "amount_rounds_to_zero"],
    swap: [...secretKey, ...idempotent, "amount_invalid", "balance_insufficient", "fx_unavailable", "amount_rounds_to_zero"],
    send: [
      ...secretKey,
      ...idempotent,
      "payout_method_unavailable",
      "amount_invalid",
      "currency_not_funded",
      "balance_insufficient",
      "payout_dispatch_failed",
      "fx_unavailable"
    ],
    list: secretKey,
    get: secretKey,
    fundSandbox: [...secretKey, "fund_sandbox_only", "fx_unavailable"],
    simulate: [...secretKey, "simulate_sandbox_only"]
  }))
{}

export class PayoutAdminApi extends HttpApiGroup.make("payoutAdmin")
  .add(
    HttpApiEndpoint.post("resolve", "/payouts/:id/resolve", {
      params: { id: Schema.String },
      payload: Schema.Struct({ status: Schema.Literals(["completed", "failed"]), failureReason: Schema.optional(Text(200)) }),
      success: Schema.Struct({ payout: PayoutView })
    }).annotate(
      OpenApi.Description,
      "The operator records the provider's answer for a processing payout, in either environment: for a payout whose provider stayed unreachable (the engine asks it again every 5 minutes for a day) or whose plugin was removed. " +
        "completed sends the money out (payout.completed); failed returns the debit to the payout balance (payout.failed with failureReason). A payout that is no longer processing: 409 payout_already_final."
    )
  )
  .middleware(AdminToken)
  .prefix("/admin/v1")
  .annotate(OpenApi.Title, "Admin: payouts")
  .pipe(withErrors({
    resolve: [...admin, "payout_already_final"]
  }))
{}
