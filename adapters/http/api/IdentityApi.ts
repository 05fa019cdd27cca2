import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Tier } from "../../../core/tenancy/Merchant.ts"
import { Amount } from "../../../core/Money.ts"
import { AmountText, Environment, IdempotencyHeaders, IsoDateTime, MerchantRef } from "./Fields.ts"
import { AnyKey, SecretKey } from "./Security.ts"
import { anyKey, idempotent, secretKey, withErrors } from "./EndpointErrors.ts"

export const PingResult = Schema.Struct({
  ok: Schema.Boolean,
  environment: Environment,
  keyKind: Schema.Literals(["secret", "publishable"]),
  keyId: Schema.String.annotate({ description: "The key behind the call, masked" }),
  apiVersion: Schema.String,
  merchant: MerchantRef,
  timestamp: IsoDateTime
}).annotate({ identifier: "Ping" })

export const MerchantIdentity = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.String,
  industry: Schema.String,
  tier: Tier,
  trustScore: Schema.Int.annotate({ description: "0 to 1000" }),
  environment: Environment,
  capabilities: Schema.Struct({
    checkout: Schema.Boolean,
    directCharge: Schema.Boolean,
    refunds: Schema.Boolean,
    webhooks: Schema.Boolean,
    crypto: Schema.Array(Schema.String).annotate({
      description: "The stablecoins the shop's settlement batches are paid in (`[\"USDC\"]` with a daily or weekly settlement schedule; " +
        "sandbox shops start with one); empty when its money stays `available` (no schedule, or `manual`)"
    }),
    methods: Schema.Array(Schema.String)
  }).annotate({ description: "What this merchant can use on this deployment now" })
}).annotate({ identifier: "MerchantIdentity" })

export class PingApi extends HttpApiGroup.make("ping")
  .add(
    HttpApiEndpoint.get("ping", "/ping", { success: PingResult })
      .annotate(OpenApi.Description, "Checks a key (any key, publishable included). No side effects.")
  )
  .middleware(AnyKey)
  .annotate(OpenApi.Title, "Health")
  .pipe(withErrors({
    ping: anyKey
  }))
{}

const Usd = Schema.Finite.annotate({ description: "USD, major units" })

export const BalanceView = Schema.Struct({
  merchantId: Schema.String,
  shopId: Schema.String,
  currency: Schema.Literal("USD"),
  balance: Schema.Struct({
    available: Usd,
    pending: Usd.annotate({ description: "Captured, waiting for its settlement delay" }),
    frozen: Usd.annotate({ description: "Held against open claims" }),
    reserve: Usd.annotate({ description: "Rolling reserve" })
  }),
  owed: Usd.annotate({
    description: "What the shop owes: refunds and chargebacks its balance could not cover, repaid from the next money that becomes available (0 when nothing)"
  }),
  ledgerWarnings: Schema.Array(Schema.String).annotate({
    description: "What the shop still owes (refunds and chargebacks its balance could not cover), repaid from the next money that becomes available"
  }),
  tier: Tier,
  trustScore: Schema.Int,
  rollingReservePct: Schema.Finite,
  withdrawalFeeUsd: Schema.Finite,
  feeSummary: Schema.Struct({
    grossVolume: Usd,
    platformFees: Usd,
    flatFees: Usd,
    providerFees: Usd,
    chargebackFees: Usd,
    totalFees: Usd,
    netBalance: Usd.annotate({ description: "available + pending + frozen + reserve, less what the shop owes" })
  }),
  movements: Schema.Array(Schema.Struct({
    // Only journal entries that move the shop's USD pay-in books are listed.
    id: Schema.String,
    type: Schema.String,
    reference: Schema.String,
    currency: Schema.String,
    amount: Usd.annotate({ description: "Net change of the merchant's pay-in books" }),
    books: Schema.Record(Schema.String, Schema.Finite),
    createdAt: IsoDateTime
  })).annotate({ description: "Journal entries of the shop, newest first" }),
  reserveSchedule: Schema.Array(Schema.Struct({
    transactionId: Schema.String,
    amount: Usd,
    releaseAt: IsoDateTime
  })).annotate({ description: "Rolling reserve still held, by release date (starter 90, standard 60, premium 30 days after completion)" }),
  balances: Schema.Array(Schema.Struct({
    currency: Schema.String,
    available: Schema.Finite,
    pending: Schema.Finite,
    reserved: Schema.Finite
  })).annotate({ description: "Per local currency, for shops holding local-currency balances" })
}).annotate({ identifier: "Balance" })

export const SwapView = Schema.Struct({
  id: Schema.String,
  fromCurrency: Schema.String,
  toCurrency: Schema.Literal("USD"),
  amount: Schema.Finite.annotate({ description: "In fromCurrency" }),
  rate: Schema.Finite.annotate({ description: "Effective USD per unit, FX margin inside" }),
  amountUsd: Schema.Finite.annotate({ description: "amount x rate, rounded to cents" }),
  localAvailableAfter: Schema.Finite,
  usdAvailableAfter: Schema.Finite
}).annotate({ identifier: "BalanceSwap" })

export const BalanceHistoryView = Schema.Struct({
  book: Schema.Literal("available"),
  days: Schema.Array(Schema.String.annotate({ description: "`YYYY-MM-DD`, UTC" })),
  currencies: Schema.Array(Schema.Struct({
    currency: Schema.String,
    closing: Schema.Array(Schema.Finite).annotate({ description: "One closing balance per day of `days`, major units" })
  })).annotate({ description: "USD first, then the local currencies held, alphabetically" })
}).annotate({ identifier: "BalanceHistory" })

const CurrencyBalanceView = Schema.Struct({ currency: Schema.String, available: Schema.Finite, pending: Schema.Finite, reserved: Schema.Finite })

export class IdentityApi extends HttpApiGroup.make("identity")
  .add(
    HttpApiEndpoint.get("me", "/me", { success: MerchantIdentity })
      .annotate(OpenApi.Description, "The calling merchant (secret key)."),
    HttpApiEndpoint.get("balance", "/me/balance", {
      query: { shopId: Schema.optional(Schema.String) },
      success: BalanceView
    }).annotate(
      OpenApi.Description,
      "The shop's pay-in balance, from the double-entry ledger. netBalance = available + pending + frozen + reserve - owed, where owed is what " +
        "refunds and chargebacks took beyond the payment's own money and the available balance; ledgerWarnings states it while it is not repaid. " +
        "Settlements, reserve releases, won chargebacks and rejected refunds repay it first, in the same movement, before anything reaches available."
    ),
    HttpApiEndpoint.get("balanceHistory", "/me/balance/history", {
      query: {
        shopId: Schema.optional(Schema.String),
        days: Schema.optional(Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1), Schema.isLessThanOrEqualTo(90)))
          .annotate({ description: "How many days, today included: 1 to 90 (default 30)" })
      },
      success: BalanceHistoryView
    }).annotate(
      OpenApi.Description,
      "The pay-in `available` balance at the end of each UTC day (the shop's clock in sandbox), per currency, oldest day first; the last day is the balance now. " +
        "Each figure is the balance now less the ledger postings made after that day, exactly. 400 invalid_request for days outside 1 to 90."
    ),
    HttpApiEndpoint.get("swapQuote", "/me/balance/swap", {
      query: {
        from: Schema.optional(Schema.String.annotate({ description: "A currency held, other than USD (required, or `fromCurrency`)" })),
        fromCurrency: Schema.optional(Schema.String.annotate({ description: "The swap body's name of `from`, also accepted" })),
        amount: AmountText.annotate({ description: "Major units of the currency" })
      },
      success: Schema.Struct({
        quote: Schema.Struct({
          fromCurrency: Schema.String,
          toCurrency: Schema.Literal("USD"),
          amount: Schema.Finite,
          rate: Schema.Finite,
          amountUsd: Schema.Finite,
          available: Schema.Finite.annotate({ description: "What the balance holds in fromCurrency now" }),
          indicative: Schema.Literal(true)
        })
      })
    }).annotate(
      OpenApi.Description,
      "Indicative: the rate is read again when the swap executes. The currency is `from` or, as on the swap's body, `fromCurrency`; " +
        "400 invalid_request names the parameter sent (USD or a currency not known, a missing one, or both names with different values)."
    ),
    HttpApiEndpoint.post("swap", "/me/balance/swap", {
      headers: IdempotencyHeaders,
      payload: Schema.Struct({ fromCurrency: Schema.String, amount: Amount }),
      success: Schema.Struct({ swap: SwapView })
    }).annotate(OpenApi.Description, "Swaps a local currency of the pay-in balance to USD, atomically, at the rate of the moment (FX margin inside), the USD rounded down to the cent. 422 balance_insufficient with requested, available and shortfall in the source currency; 422 amount_rounds_to_zero when the amount is worth less than a cent."),
    HttpApiEndpoint.post("fundSandbox", "/me/balance/fund-sandbox", {
      payload: Schema.Struct({ currency: Schema.String, amount: Amount }),
      success: Schema.Struct({ currency: Schema.String, amount: Schema.Finite, balances: Schema.Array(CurrencyBalanceView) })
    }).annotate(OpenApi.Description, "Sandbox only: credits test money to the pay-in `available` balance. Production: 400 fund_sandbox_only.")
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Identity")
  .pipe(withErrors({
    me: secretKey,
    balance: secretKey,
    balanceHistory: secretKey,
    swapQuote: [...secretKey, "fx_unavailable", "amount_rounds_to_zero"],
    swap: [...secretKey, ...idempotent, "fx_unavailable", "balance_insufficient", "amount_rounds_to_zero"],
    fundSandbox: [...secretKey, "fund_sandbox_only", "fx_unavailable"]
  }))
{}
