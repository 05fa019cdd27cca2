import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { SessionStatus } from "../../../core/checkout/CheckoutSession.ts"
import { Amount } from "../../../core/Money.ts"
import { SandboxSimulate } from "../../../core/ports/PaymentProvider.ts"
import { PaymentStatus } from "../../../core/payments/PaymentState.ts"
import { Buyer, BuyerAddressBody, DocumentId, Email, IdempotencyHeaders, IsoDateTime, MerchantUrl, merchantUrlRule, Text } from "./Fields.ts"
import { InstallmentsInput } from "./InstallmentsApi.ts"
import { SecretKey } from "./Security.ts"
import { idempotent, payIn, secretKey, withErrors } from "./EndpointErrors.ts"

const Money = Schema.Finite.annotate({ description: "Major units" })

/** Loose on purpose: one-shot mode drops invalid block values instead of refusing them. */
const CustomerBlock = Schema.Struct({
  firstName: Schema.optional(Buyer(Schema.String)).annotate({ description: "Max 60" }),
  lastName: Schema.optional(Buyer(Schema.String)).annotate({ description: "Max 60" }),
  email: Schema.optional(Buyer(Schema.String)).annotate({ description: "Valid email, max 254" }),
  phone: Schema.optional(Buyer(Schema.String)).annotate({ description: "With country code (+...), max 40" }),
  documentId: Schema.optional(Buyer(Schema.String)).annotate({ description: "Max 40; forwarded to the provider, never kept" }),
  address: Schema.optional(Buyer(BuyerAddressBody))
})

export const CreateSessionBody = Schema.Struct({
  amount: Amount,
  currency: Schema.optional(Text(3)),
  country: Schema.optional(Text(3).annotate({ description: "ISO-2 or ISO-3; filters the grid" })),
  paymentMethodId: Schema.optional(Text(20).annotate({ description: "One-shot mode when present" })),
  customer: Schema.optional(CustomerBlock),
  userName: Schema.optional(Buyer(Text(120))),
  userEmail: Schema.optional(Buyer(Email)),
  userPhone: Schema.optional(Buyer(Text(40))),
  documentId: Schema.optional(Buyer(DocumentId(40, "Otherwise, once the method is known, the session waits for a valid one (`missingFields` names `documentId`). Never kept past the payment's creation."))),
  userAddress: Schema.optional(Buyer(BuyerAddressBody)),
  merchantOrderId: Schema.optional(Text(120)),
  returnUrl: Schema.optional(MerchantUrl).annotate({ description: `Where the buyer goes back to. ${merchantUrlRule}` }),
  merchantId: Schema.optional(Text(64)),
  shopId: Schema.optional(Text(64))
}).annotate({ identifier: "CreateCheckoutSession" })

export const SessionCreated = Schema.Struct({
  sessionId: Schema.String.annotate({ description: "`cs_...`; the transaction id in one-shot mode" }),
  token: Schema.String.annotate({ description: "The session's capability (24 random bytes): its page and its public endpoints open with it" }),
  checkoutUrl: Schema.String.annotate({
    description: "`{checkout_url}/checkout/{token}` (selector, awaiting details) or, with the transaction created, `{checkout_url}/c/{transactionId}?returnUrl=<encoded>&token=<link token>` (the token opens it; the id alone answers 404)"
  }),
  paymentMethodId: Schema.NullOr(Schema.String),
  status: SessionStatus,
  amount: Money.annotate({ description: "USD headline" }),
  currency: Schema.Literal("USD"),
  inputCurrency: Schema.optional(Schema.String),
  inputAmount: Schema.optional(Money),
  country: Schema.NullOr(Schema.String).annotate({ description: "ISO-3" }),
  amountLocal: Schema.optional(Money),
  currencyLocal: Schema.optional(Schema.String),
  missingFields: Schema.optional(Schema.Array(Schema.String)).annotate({ description: "awaiting_details: what the page will collect" }),
  merchantOrderId: Schema.NullOr(Schema.String),
  expiresAt: IsoDateTime
}).annotate({ identifier: "CheckoutSessionCreated" })

export const SessionRead = Schema.Struct({
  sessionId: Schema.String,
  token: Schema.String,
  status: SessionStatus,
  amount: Money.annotate({ description: "As created, in `currency`" }),
  currency: Schema.String,
  country: Schema.NullOr(Schema.String),
  paymentMethodId: Schema.NullOr(Schema.String),
  customer: Schema.Struct({
    firstName: Schema.NullOr(Schema.String),
    lastName: Schema.NullOr(Schema.String),
    email: Schema.NullOr(Schema.String),
    phone: Schema.NullOr(Schema.String)
  }).annotate({ description: "Prefill; the document id is never returned" }),
  customerIp: Schema.NullOr(Schema.String),
  returnUrl: Schema.NullOr(Schema.String),
  merchantOrderId: Schema.NullOr(Schema.String),
  expiresAt: IsoDateTime,
  completedTxId: Schema.NullOr(Schema.String)
}).annotate({ identifier: "CheckoutSession" })

export const SelectBody = Schema.Struct({
  paymentMethodId: Schema.optional(Text(20)),
  customer: Schema.optional(Schema.Struct({
    fullName: Schema.optional(Buyer(Text(200))),
    email: Schema.optional(Buyer(Text(300))),
    documentId: Schema.optional(Buyer(DocumentId(100, "Otherwise 422 missing_required_fields naming `documentId`, and nothing is created."))),
    phone: Schema.optional(Buyer(Text(100))),
    address: Schema.optional(Buyer(BuyerAddressBody))
  })),
  installments: Schema.optional(Schema.Struct({ count: InstallmentsInput.fields.count })).annotate({
    description: "On a card rail: the count the buyer chose on the page (the interest is the merchant's). Checked as POST /payments checks `installments`."
  })
}).annotate({ identifier: "CheckoutSelect" })

export const SelectResult = Schema.Struct({
  sessionId: Schema.String,
  transactionId: Schema.String,
  checkoutUrl: Schema.String.annotate({ description: "`{checkout_url}/c/{transactionId}?returnUrl=<encoded>&token=<link token>`: the buyer's link; the token (24 random bytes) opens it, the id alone answers 404. Returned where the payment is created, not on reads" }),
  status: PaymentStatus
}).annotate({ identifier: "CheckoutSelected" })

export class CheckoutApi extends HttpApiGroup.make("checkout")
  .add(
    HttpApiEndpoint.post("createSession", "/checkout/sessions", {
      headers: { ...IdempotencyHeaders, "sandbox-simulate": Schema.optional(SandboxSimulate) },
      payload: CreateSessionBody,
      success: SessionCreated.pipe(HttpApiSchema.status(201))
    }).annotate(
      OpenApi.Description,
      "Selector mode (no paymentMethodId): `awaiting_method`; a provided invalid `customer` value is 400 invalid_request with `details.issues[]`. " +
        "One-shot mode: with complete buyer data (full name of 2+ words, email, documentId, and a phone where the rail needs one) the transaction is created at once (`pending`); otherwise 201 `awaiting_details` with `missingFields`. " +
        "Individual fields win over `customer`, which only fills gaps; invalid block values are ignored. The session lives 24 hours and creates one transaction."
    )
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Hosted checkout")
  .pipe(withErrors({
    createSession: [...secretKey, ...idempotent, ...payIn]
  }))
{}

export class CheckoutPublicApi extends HttpApiGroup.make("checkoutPublic")
  .add(
    HttpApiEndpoint.get("getSession", "/checkout/sessions/:token", {
      params: { token: Schema.String },
      success: SessionRead
    }).annotate(OpenApi.Description, "Public (the token authenticates). Expired or unknown: 404 checkout_session_not_found."),
    HttpApiEndpoint.post("select", "/checkout/sessions/:token/select", {
      params: { token: Schema.String },
      payload: SelectBody,
      success: SelectResult
    }).annotate(
      OpenApi.Description,
      "Called by the checkout page: creates the transaction and locks the session to it. A second select is 409 checkout_session_already_completed with `details.existingTxId`; missing buyer data is 422 missing_required_fields with nothing created."
    )
  )
  .annotate(OpenApi.Title, "Hosted checkout (public)")
  .pipe(withErrors({
    getSession: ["checkout_session_not_found"],
    select: ["checkout_session_not_found", "checkout_session_already_completed", ...payIn]
  }))
{}
