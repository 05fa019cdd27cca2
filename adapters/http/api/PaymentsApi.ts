import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Channel } from "../../../core/catalog/Channel.ts"
import { Amount } from "../../../core/Money.ts"
import { SandboxSimulate } from "../../../core/ports/PaymentProvider.ts"
import { CardDecline } from "../../../core/ports/CardDeclines.ts"
import { PaymentStatus } from "../../../core/payments/PaymentState.ts"
import { skipReasons } from "../../../core/routing/Skips.ts"
import { Buyer, BuyerAddressBody, DocumentId, Email, Environment, IdempotencyHeaders, IsoDateTime, MerchantUrl, merchantUrlRule, Text } from "./Fields.ts"
import { AuthorizationFields } from "./AuthorizationView.ts"
import { InstallmentsFields, InstallmentsInput } from "./InstallmentsApi.ts"
import { AnyKey, SecretKey } from "./Security.ts"
import { anyKey, idempotent, payIn, secretKey, signed, withErrors } from "./EndpointErrors.ts"
import { NextActionView } from "./NextActionView.ts"

const Money = Schema.Finite.annotate({ description: "Major units" })

export const Fees = Schema.Struct({ platform: Money, provider: Money, network: Money, total: Money }).annotate({
  identifier: "Fees",
  description: "USD"
})
export const SettlementView = Schema.Struct({
  type: Schema.String,
  delay: Schema.String,
  reserve: Money,
  status: Schema.String
}).annotate({ identifier: "PaymentSettlement", description: "How the payment settles into the balance" })

const Tags = {
  tag1: Schema.NullOr(Schema.String),
  tag2: Schema.NullOr(Schema.String),
  tag3: Schema.NullOr(Schema.String)
}

export const CreatePaymentBody = Schema.Struct({
  amount: Amount.pipe(Schema.annotateEncoded({ description: "> 0, in `currency`; the USD headline may not exceed 100000" })),
  currency: Schema.optional(Text(3).annotate({ description: "ISO 4217, default USD" })),
  paymentMethodId: Schema.optional(Text(20).annotate({ description: "From GET /payment-methods" })),
  paymentMethod: Schema.optional(Text(40).annotate({ description: "Legacy slug, used only without paymentMethodId" })),
  country: Schema.optional(Text(3).annotate({ description: "ISO-2 or ISO-3; inferred from the method when omitted" })),
  userName: Schema.optional(Buyer(Text(120))),
  userEmail: Schema.optional(Buyer(Email)),
  documentId: Schema.optional(Buyer(DocumentId(40, "Otherwise 400 invalid_request naming `documentId`. Forwarded to the provider as sent, never stored."))),
  userPhone: Schema.optional(Buyer(Text(40))),
  userIp: Schema.optional(Text(45)),
  userAddress: Schema.optional(Buyer(BuyerAddressBody)),
  merchantOrderId: Schema.optional(Text(120)),
  tag1: Schema.optional(Text(200)),
  tag2: Schema.optional(Text(200)),
  tag3: Schema.optional(Text(200)),
  card: Schema.optional(
    Schema.Struct({
      token: Text(64).annotate({ description: "`card_...`: what the card vault answered your server's `POST {vaultUrl}/v1/cards` (see POST /card-sessions)" })
    }).annotate({
      identifier: "CardInput",
      description: "The card to charge, on a card rail (channel CREDIT_CARD) only: required there in production (422 card_required), " +
        "refused on any other rail (422 card_not_accepted). The vault must know the token for your merchant (422 card_token_not_found), " +
        "the card must be of the rail's brand (422 card_brand_mismatch; the sandbox's `sbx_card` takes any) and not expired (422 card_expired); " +
        "a vault that cannot be reached answers 503 card_vault_unavailable. Checked before anything is written. The engine never sees the card's number."
    })
  ),
  capture: Schema.optional(Schema.Boolean).annotate({
    description: "Card rails only: `false` authorizes only. The payment becomes `authorized` (event payment.authorized) with `authorizationExpiresAt`, " +
      "and nothing reaches the balance until POST /payments/{id}/capture (full or partial) books it as a completion; POST /payments/{id}/void releases it " +
      "(`voided`), and an authorization not captured by its expiry becomes `expired`. Refused before anything is written with 422 capture_requires_card " +
      "on other rails and 422 capture_not_supported when no provider for the rail can capture later. Default true: captured at once."
  }),
  installments: Schema.optional(InstallmentsInput),
  hostedCheckout: Schema.optional(Schema.Boolean),
  returnUrl: Schema.optional(MerchantUrl).annotate({ description: `Where the buyer goes back to. ${merchantUrlRule}` }),
  merchantId: Schema.optional(Text(64)),
  shopId: Schema.optional(Text(64))
}).annotate({ identifier: "CreatePayment" })

/**
 * What the buyer needs to pay, as the provider answered it. The fields every connector names the
 * same way are typed; a provider may add its own beside them.
 */
const PaymentData = Schema.StructWithRest(
  Schema.Struct({
    method: Schema.String.annotate({ description: "The method kind: pix, boleto, spei, oxxo, card..." }),
    reference: Schema.optional(Schema.String).annotate({ description: "The reference the buyer pays with (voucher, transfer concept)" }),
    qrCode: Schema.optional(Schema.String).annotate({ description: "PIX or CoDi: the copy-and-paste QR text" }),
    qrCodeBase64: Schema.optional(Schema.String).annotate({ description: "The QR code as a base64 PNG" }),
    barcode: Schema.optional(Schema.String).annotate({ description: "Boleto and cash vouchers: the barcode number" }),
    digitableLine: Schema.optional(Schema.String).annotate({ description: "Boleto: the typeable line" }),
    clabe: Schema.optional(Schema.String).annotate({ description: "SPEI: the CLABE to transfer to" }),
    expiresAt: Schema.optional(Schema.String).annotate({ description: "When the provider stops accepting it, ISO 8601" })
  }),
  [Schema.Record(Schema.String, Schema.Unknown)]
).annotate({ identifier: "PaymentData", description: "How the buyer pays: typed where connectors agree, plus provider-specific fields" })

/** Shown by both the create response and the read record. */
const PaymentMoneyFields = {
  status: PaymentStatus,
  amount: Money.annotate({ description: "USD headline" }),
  currency: Schema.Literal("USD"),
  inputCurrency: Schema.optional(Schema.String).annotate({ description: "Only when a presentment currency was sent" }),
  inputAmount: Schema.optional(Money),
  amountLocal: Money.annotate({ description: "What the buyer pays, in the rail's currency" }),
  currencyLocal: Schema.String,
  paymentMethodId: Schema.String,
  paymentMethod: Schema.String.annotate({ description: "Method slug" }),
  paymentMethodName: Schema.String
}

/** A card-rail payment's card, as the vault's token describes it: never the number, the token or the holder's name. */
export const PaymentCardView = Schema.Struct({
  brand: Schema.String.annotate({ description: "visa, mastercard, amex, elo, hipercard, diners, discover or carnet" }),
  bin: Schema.String.annotate({ description: "The first 6 (or 8) digits" }),
  last4: Schema.String,
  expMonth: Schema.Int,
  expYear: Schema.Int.annotate({ description: "Four digits" }),
  fingerprint: Schema.String.annotate({ description: "The same card number gives the same fingerprint within your merchant" })
}).annotate({ identifier: "PaymentCard", description: "The card charged, on card rails paid with a card token: shown on the create answer, reads and webhook events" })

export const CreatedPayment = Schema.Struct({
  transactionId: Schema.String,
  ...PaymentMoneyFields,
  logoUrl: Schema.String,
  iconUrl: Schema.String,
  fees: Fees,
  settlement: SettlementView,
  paymentFormUrl: Schema.optional(Schema.String.annotate({
    description: "The provider's form for the buyer; the sandbox provider's is `/sandbox/pay/{transactionId}?secret=<per-charge secret>`, which opens only with its secret"
  })),
  checkoutUrl: Schema.optional(Schema.String.annotate({ description: "`{checkout_url}/c/{transactionId}?returnUrl=<encoded>&token=<link token>`: the buyer's link; the token (24 random bytes) opens it, the id alone answers 404. Returned where the payment is created, not on reads" })),
  paymentData: PaymentData,
  merchantOrderId: Schema.NullOr(Schema.String),
  ...Tags,
  card: Schema.optional(PaymentCardView),
  nextAction: Schema.optional(NextActionView),
  ...AuthorizationFields,
  ...InstallmentsFields,
  expiresAt: IsoDateTime
}).annotate({ identifier: "CreatedPayment" })

const PaymentRecordFields = {
  id: Schema.String,
  ...PaymentMoneyFields,
  country: Schema.String.annotate({ description: "ISO-3" }),
  fees: Fees,
  settlement: SettlementView,
  timestamps: Schema.Struct({
    created: IsoDateTime,
    updated: IsoDateTime,
    completed: Schema.NullOr(IsoDateTime),
    expires: IsoDateTime
  }),
  merchantOrderId: Schema.NullOr(Schema.String),
  ...Tags,
  card: Schema.optional(PaymentCardView),
  nextAction: Schema.optional(NextActionView),
  ...AuthorizationFields,
  ...InstallmentsFields,
  failureReason: Schema.NullOr(Schema.String),
  // Optional in the schema because the events that carry a payment (its webhooks) leave it out.
  buyer: Schema.optional(Schema.Struct({
    name: Schema.NullOr(Schema.String).annotate({ description: "`userName` as the payment was created with it" }),
    email: Schema.NullOr(Schema.String).annotate({ description: "`userEmail` as the payment was created with it" })
  }).annotate({ description: "The buyer as the merchant gave them (null where not given): always in the merchant's own reads (`GET /payments`, `GET /payments/{id}`), never in webhook events" }))
}

export const PaymentRecord = Schema.Struct(PaymentRecordFields).annotate({ identifier: "Payment" })

/** A provider routing passed over for a payment (`core/routing/Skips.ts`), in the payment and in errors' `details.skipped`. */
export const SkippedView = Schema.Struct({
  provider: Schema.String,
  reason: Schema.Literals(skipReasons).annotate({
    description: "route_disabled: the shop's route to it is disabled; provider_not_configured: not configured in this environment; " +
      "method_not_supported: it does not serve the rail; method_not_in_route: the route's methodIds leave the rail out; " +
      "excluded_by_rule: a routing rule matched the payment and did not name it; circuit_open: its circuit on the rail is open; " +
      "missing_required_fields: it needs buyer data the request lacked (`missingFields`)"
  }),
  missingFields: Schema.optional(Schema.Array(Schema.String)).annotate({
    description: "missing_required_fields: the buyer data this provider needs that the request lacked (userAddress...)"
  })
}).annotate({ identifier: "SkippedProvider" })

export const PaymentDetail = Schema.Struct({
  ...PaymentRecordFields,
  refundable: Money.annotate({
    description: "What a refund may still take, in `currencyLocal`: 0 unless completed, else amountLocal less its refunds pending or succeeded"
  }),
  routing: Schema.Struct({
    provider: Schema.String,
    attempts: Schema.Array(Schema.Struct({
      provider: Schema.String,
      outcome: Schema.String.annotate({
        description: "in_flight: being asked now; accepted; declined: the charge was refused; failed: the provider could not take it and " +
          "nothing was charged (the cascade moved on); unknown: no answer about the charge (a timeout), so the same provider is asked " +
          "again with the same upstream idempotency key before any other is tried"
      }),
      latencyMs: Schema.Finite,
      reason: Schema.NullOr(Schema.String),
      decline: Schema.optional(Schema.NullOr(CardDecline)).annotate({
        description: "Card payments only: the normalized decline this provider's refusal named (hard: stolen_card, lost_card, insufficient_funds, " +
          "invalid_card, fraud, expired_card, which stop the cascade; soft: do_not_honour, issuer_unavailable, processing_error, rate_limited, " +
          "authentication_required, after which the same card is presented to the next provider); null when it named none"
      }),
      at: IsoDateTime,
      threeDSecure: Schema.optional(Schema.Literal("required").annotate({
        description: "The engine's one retry on the same provider with 3-D Secure after an `authentication_required` decline " +
          "(its own upstream idempotency key, `<transactionId>:<provider>:3ds`); absent on other attempts"
      })),
      routing: Schema.optional(Schema.Struct({
        ruleId: Schema.NullOr(Schema.String).annotate({ description: "The routing rule that chose the candidates; null: the default order" }),
        strategy: Schema.Literals(["static", "health", "success_rate"]),
        circuit: Schema.Literals(["closed", "open", "half_open"]).annotate({ description: "The provider's circuit when it was tried" }),
        score: Schema.NullOr(Schema.Finite).annotate({ description: "success_rate: the draw that ranked it" })
      })).annotate({ description: "Why this provider was tried; absent on attempts recorded before routing kept its reasons" })
    })),
    skipped: Schema.Array(SkippedView).annotate({
      description: "The providers of the matching rule or of the shop's routes that routing passed over without calling them, with why"
    })
  }).annotate({ description: "How the cascade routed the payment: every provider tried, in order, and every one passed over" })
}).annotate({ identifier: "PaymentDetail" })

export const Pagination = Schema.Struct({
  total: Schema.Int,
  limit: Schema.Int,
  offset: Schema.Int,
  pages: Schema.Int
}).annotate({ identifier: "Pagination" })

/** `limit`/`offset` as query text; out-of-range values are clamped by the handler. */
export const PageQuery = {
  limit: Schema.optional(Schema.FiniteFromString),
  offset: Schema.optional(Schema.FiniteFromString)
}

export const PaymentListQuery = {
  ...PageQuery,
  status: Schema.optional(PaymentStatus),
  paymentMethodId: Schema.optional(Schema.String),
  country: Schema.optional(Schema.String),
  merchantOrderId: Schema.optional(Schema.String),
  transactionId: Schema.optional(Text(64)).annotate({ description: "This payment (`TXN-...`) only: an empty list when it is not this shop's" }),
  userEmail: Schema.optional(Text(254)).annotate({ description: "The buyer's email (`userEmail` at creation), exact but without regard to case" }),
  method: Schema.optional(Schema.String),
  createdFrom: Schema.optional(Text(40)).annotate({
    description: "Created at or after: an ISO 8601 date-time, or a date (`2026-11-26`, its 00:00 UTC)"
  }),
  createdTo: Schema.optional(Text(40)).annotate({
    description: "Created at or before: an ISO 8601 date-time, or a date (the whole of that UTC day)"
  }),
  amountMin: Schema.optional(Text(40)).annotate({ description: "USD headline at least this (decimal, inclusive)" }),
  amountMax: Schema.optional(Text(40)).annotate({ description: "USD headline at most this (decimal, inclusive)" }),
  startingAfter: Schema.optional(Text(64)).annotate({
    description: "Keyset paging: a payment id of this list; only the payments after it in the list's order (strictly older, by created time then id)"
  }),
  shopId: Schema.optional(Text(64)).annotate({
    description: "For a credential covering several shops: list this shop's payments (default: the credential's first shop); a shop it does not cover is 404"
  })
}

const listDescription = "Newest first (by created time, then id). `limit` 1 to 100 (default 50) and `offset` (0 to 1,000,000,000, default 0) are clamped silently. " +
  "Filters: `status`, `paymentMethodId`, `method`, `country`, `merchantOrderId`, `transactionId`, `userEmail`, `createdFrom`/`createdTo` and `amountMin`/`amountMax` (USD), all combined. " +
  "Paging that neither skips nor repeats a payment while new ones arrive: pass the last id of a page as `startingAfter` for the next page " +
  "(the payments strictly older than it, in the same order; `offset` is then not allowed and `pagination.total` counts the whole filtered list). " +
  "Errors: 400 invalid_request naming the parameter for a bad date, amount, country, an `amountMin` above `amountMax`, a `createdFrom` after `createdTo`, " +
  "or a `startingAfter` that is not a payment of this shop and environment."


const createDescription =
  "Creates a payment and routes it through the provider cascade. With `Idempotency-Key`, a retry replays the first result. " +
  "Sandbox: the `Sandbox-Simulate` header (paid, failed, expired, chargeback, slow_payment) drives the outcome, see the sandbox section."

const paymentEndpoints = (prefix: "payments" | "transactions") => {
  const base = `/${prefix}` as const
  const legacy = prefix === "transactions"
  return [
    HttpApiEndpoint.post(legacy ? "createTransaction" : "create", base, {
      headers: { ...IdempotencyHeaders, "sandbox-simulate": Schema.optional(SandboxSimulate) },
      payload: CreatePaymentBody,
      success: CreatedPayment.pipe(HttpApiSchema.status(201))
    }).annotate(OpenApi.Description, legacy ? "Legacy alias of POST /payments." : createDescription),
    HttpApiEndpoint.get(legacy ? "listTransactions" : "list", base, {
      query: PaymentListQuery,
      success: Schema.Struct({ data: Schema.Array(PaymentRecord), pagination: Pagination })
    }).annotate(OpenApi.Description, legacy ? "Legacy alias of GET /payments." : listDescription),
    HttpApiEndpoint.get(legacy ? "getTransaction" : "get", `${base}/:id`, {
      params: { id: Schema.String },
      success: PaymentDetail
    }).annotate(OpenApi.Description, legacy ? "Legacy alias of GET /payments/{id}." : "One payment; an id of another shop or environment answers 404 like an unknown id.")
  ] as const
}

export const LedgerEntryView = Schema.Struct({
  id: Schema.String,
  type: Schema.String.annotate({ description: "What happened: payment.completed, claim.opened, refund.succeeded..." }),
  reference: Schema.String.annotate({ description: "The record that caused it: the payment's id or one of its claims' (`CLM-...`)" }),
  createdAt: IsoDateTime,
  postings: Schema.Array(Schema.Struct({ book: Schema.String, currency: Schema.String, amount: Money }))
    .annotate({ description: "The entry's lines, as the double-entry ledger holds them; they sum to zero per currency" })
}).annotate({ identifier: "LedgerEntry" })

export class PaymentsApi extends HttpApiGroup.make("payments")
  .add(...paymentEndpoints("payments"), ...paymentEndpoints("transactions"))
  .add(
    HttpApiEndpoint.get("ledgerEntries", "/payments/:id/ledger-entries", {
      params: { id: Schema.String },
      success: Schema.Struct({ data: Schema.Array(LedgerEntryView) })
    }).annotate(
      OpenApi.Description,
      "The journal entries this payment caused, its refunds' and chargebacks' included, oldest first (not paginated: a payment has few). " +
        "Errors: 404 not_found for an unknown payment or another shop's or environment's."
    )
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Payments")
  .pipe(withErrors({
    create: [...secretKey, ...idempotent, ...payIn],
    createTransaction: [...secretKey, ...idempotent, ...payIn],
    list: secretKey,
    listTransactions: secretKey,
    get: secretKey,
    getTransaction: secretKey,
    ledgerEntries: secretKey
  }))
{}

const RequiredFieldName = Schema.Literals(["userName", "email", "documentId", "userPhone", "userAddress"])

export const CatalogEntryView = Schema.Struct({
  paymentMethodId: Schema.String,
  method: Schema.String,
  methodLabel: Schema.String,
  name: Schema.String,
  country: Schema.String,
  countryIso3: Schema.String,
  channel: Channel,
  imageUrl: Schema.String,
  iconUrl: Schema.String,
  logoUrl: Schema.String,
  currencies: Schema.Array(Schema.String),
  currencyLimits: Schema.Array(Schema.Struct({ currency: Schema.String, min: Money, max: Money })),
  minTxUsd: Schema.NullOr(Money),
  maxTxUsd: Schema.NullOr(Money),
  fee: Schema.Struct({ percent: Schema.Finite, flat: Money, currency: Schema.String }),
  enabled: Schema.Boolean,
  online: Schema.Boolean,
  routable: Schema.Boolean,
  unroutableReason: Schema.NullOr(Schema.String).annotate({
    description: "Why it is not routable: no_provider_for_method_region (no provider serves it for this shop), or card_vault_not_configured (a card rail in production on a host without a card vault)"
  }),
  requiredFields: Schema.Array(RequiredFieldName).annotate({
    description: "Buyer data without which none of the providers configured for this shop can charge the method (a Brazilian boleto's " +
      "`userAddress` and `userPhone`): POST /payments without it answers 422 missing_required_fields before any provider is asked, " +
      "and the hosted checkout page collects it. The hosted checkout also always needs userName, email and documentId."
  }),
  providers: Schema.Array(Schema.Struct({
    provider: Schema.String,
    requiredFields: Schema.Array(RequiredFieldName)
  })).annotate({
    description: "The providers the shop's routes would try for the method, in order, each with the buyer data it needs to charge it " +
      "(Mercado Pago's boleto: userAddress). A payment without a provider's fields passes it over (in its `routing.skipped`, " +
      "reason missing_required_fields, naming them) and goes to the next; `requiredFields` is what all of them need."
  })
}).annotate({ identifier: "PaymentMethod" })

export class CatalogApi extends HttpApiGroup.make("catalog")
  .add(
    HttpApiEndpoint.get("paymentMethods", "/payment-methods", {
      query: {
        country: Schema.optional(Schema.String),
        channel: Schema.optional(Channel),
        method: Schema.optional(Schema.String)
      },
      success: Schema.Struct({
        shop: Schema.Struct({ id: Schema.String, name: Schema.String }),
        environment: Environment,
        filters: Schema.Struct({
          country: Schema.NullOr(Schema.String),
          channel: Schema.NullOr(Channel),
          method: Schema.NullOr(Schema.String)
        }),
        count: Schema.Int,
        totalAvailable: Schema.Int,
        routableCount: Schema.Int,
        methods: Schema.Array(CatalogEntryView)
      })
    }).annotate(
      OpenApi.Description,
      "The shop's payment methods (any key; not paginated). `routable` is true only when a provider is configured for that exact rail; only routable ids are chargeable."
    )
  )
  .middleware(AnyKey)
  .annotate(OpenApi.Title, "Payment methods")
  .pipe(withErrors({
    paymentMethods: [...anyKey, "not_found"]
  }))
{}

export class CallbacksApi extends HttpApiGroup.make("callbacks")
  .add(
    HttpApiEndpoint.post("providerCallback", "/providers/:providerId/callbacks", {
      params: { providerId: Schema.String },
      success: Schema.Struct({ received: Schema.Boolean, applied: Schema.Int })
    }).annotate(
      OpenApi.Description,
      "Inbound status callbacks of upstream providers, HMAC-SHA256 signed per provider. Unsigned or badly signed callbacks get 401 and change nothing."
    ),
    HttpApiEndpoint.post("payoutCallback", "/providers/:providerId/payout-callbacks", {
      params: { providerId: Schema.String },
      success: Schema.Struct({ received: Schema.Boolean, applied: Schema.Int })
    }).annotate(
      OpenApi.Description,
      "Inbound status callbacks of payout providers, verified as each provider documents it. A payout goes `processing` -> " +
        "`completed` (money out, `payout.completed`) or `failed` (debit reversed, `payout.failed`). Unsigned or badly signed " +
        "callbacks get 401 and change nothing."
    )
  )
  .annotate(OpenApi.Title, "Provider callbacks")
  .pipe(withErrors({
    providerCallback: signed,
    payoutCallback: signed
  }))
{}

