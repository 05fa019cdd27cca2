import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ClaimResolver, ClaimStatus } from "../../../core/refunds/Claim.ts"
import { Amount } from "../../../core/Money.ts"
import { IdempotencyHeaders, IsoDateTime, Text } from "./Fields.ts"
import { AdminToken, SecretKey } from "./Security.ts"
import { admin, idempotent, lateChargeback, refund, secretKey, withErrors } from "./EndpointErrors.ts"

export const RefundView = Schema.Struct({
  refundId: Schema.String.annotate({ description: "`CLM-...`: the refund is a claim of kind user_dispute" }),
  transactionId: Schema.String,
  amount: Schema.Finite.annotate({ description: "Local currency of the transaction, major units" }),
  amountUsd: Schema.Finite,
  currency: Schema.String,
  status: Schema.Literals(["pending", "succeeded", "failed"]),
  reason: Schema.NullOr(Schema.String),
  createdAt: IsoDateTime
}).annotate({ identifier: "Refund" })

export const ClaimView = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literals(["user_dispute", "chargeback"]),
  status: ClaimStatus.annotate({
    description: "open, then approved or rejected (refunds) or won or lost (chargebacks); final once resolved"
  }),
  transactionId: Schema.String,
  amount: Schema.Finite.annotate({ description: "Local currency of the transaction; a chargeback after partial refunds disputes only what remains" }),
  currency: Schema.String,
  amountUsd: Schema.Finite.annotate({ description: "The USD frozen while the claim is open" }),
  feeUsd: Schema.Finite.annotate({ description: "Chargebacks: the tier's chargeback fee, charged at opening and kept whatever the outcome" }),
  reason: Schema.NullOr(Schema.String),
  resolution: Schema.NullOr(Schema.String).annotate({ description: "Refunds: refunded, or why it was refused; chargebacks: won or lost" }),
  resolvedBy: Schema.NullOr(ClaimResolver).annotate({ description: "provider, sandbox (simulation) or operator" }),
  providerRef: Schema.NullOr(Schema.String).annotate({
    description: "Refunds: the provider's id of the refund once the provider has it (also while it is pending there), for support and reconciliation"
  }),
  createdAt: IsoDateTime,
  resolvedAt: Schema.NullOr(IsoDateTime),
  refundStatus: Schema.optional(Schema.Literals(["pending", "succeeded", "failed"]))
}).annotate({ identifier: "Claim" })

const ChargebackOutcomeBody = Schema.Struct({
  outcome: Schema.Literals(["won", "lost"]).annotate({ description: "won: decided for the merchant; lost: for the buyer" })
})

const chargebackOutcomes = "won: the frozen amount returns to the shop, first repaying what it owes (see ledgerWarnings), the rest to available; " +
  "the chargeback fee is not returned (like Stripe's dispute fee). lost: the frozen amount leaves to the provider, which returns it to the buyer. " +
  "Sends claim.resolved. The same outcome again answers the claim unchanged; the payment stays chargeback."

const lateChargebackRules = "The payment must be completed; it becomes chargeback. What remains of it after its refunds approved or pending is disputed " +
  "(the claim's `amount` in the payment's local currency, `amountUsd` frozen), never what a refund already gave back, and the tier's chargeback fee " +
  "(15/15/10 USD) is charged once: both taken from the payment's own pending net, then its own rolling reserve, then available; what those cannot cover " +
  "is owed by the shop (ledgerWarnings), repaid from its next income. One journal entry (`chargeback.opened`) in the transaction that moves the payment; " +
  "events chargeback.created and claim.opened. It resolves like any chargeback: by the provider, by POST /api/v1/claims/{id}/simulate in sandbox, " +
  "or by the operator (POST /admin/v1/claims/{id}/resolve). An `Idempotency-Key` retry answers the same claim; racing requests open at most one."

const lateChargebackErrors = "409 chargeback_already_opened (the payment has a chargeback: `details.claimId`), " +
  "422 chargeback_not_allowed (not completed: `details.status`), 422 chargeback_nothing_remaining (its refunds, approved or pending, cover it all)."

const LateChargebackBody = Schema.Struct({
  reason: Schema.optional(Text(500)).annotate({ description: "The network's reason code or free text (default: who opened it)" })
})

const refundEndpoint = (name: "refund" | "refundTransaction", path: "/payments/:id/refund" | "/transactions/:id/refund") =>
  HttpApiEndpoint.post(name, path, {
    params: { id: Schema.String },
    headers: IdempotencyHeaders,
    payload: Schema.Struct({
      amount: Schema.optional(Amount).annotate({ description: "Local currency of the transaction; default (also with no body at all): all that remains" }),
      reason: Schema.optional(Text(500)).annotate({ description: "requested_by_customer, duplicate, fraudulent, other, or free text" })
    }),
    success: RefundView.pipe(HttpApiSchema.status(201))
  })

export class RefundsApi extends HttpApiGroup.make("claims")
  .add(
    refundEndpoint("refund", "/payments/:id/refund").annotate(
      OpenApi.Description,
      "Every field is optional: a request with no body (or `Content-Length: 0`) is `{}` and refunds all that remains, like Stripe's POST /v1/refunds with its defaults. " +
        "Opens a refund (claim of kind user_dispute, status pending) that freezes its USD amount, then resolves it with the provider: " +
        "succeeded (the money leaves the balance; `payment.refunded`, `claim.resolved`; the payment is `refunded` once fully refunded) or failed (the money returns, repaying what the shop owes first). " +
        "It stays pending, its money frozen, for as long as the provider has it pending (a bank refund can take days): the engine asks the provider again after 1, 5 and 15 minutes, 1 hour, " +
        "then every 6 hours for 30 days (or at once when the provider notifies it), and books it only when the provider says it succeeded; a refund the provider accepts and later rejects or cancels fails and its money returns. " +
        "The USD is taken from this payment's own pending net (before it settles), then its own rolling reserve, then available; never from another payment's share, " +
        "so every payment still settles and releases its reserve on schedule. What those cannot cover (a full refund before settlement: the fees) is owed by the shop " +
        "(see ledgerWarnings), repaid from its next income. " +
        "Errors: 404 not_found (unknown payment or another shop's), 422 refund_not_allowed (not completed), 422 refund_amount_exceeds_remaining (`details.remaining`), " +
        "422 balance_insufficient (the whole balance less what the shop already owes cannot cover it), 422 amount_rounds_to_zero (nothing of the payment's USD headline is left for it). " +
        "A partial refund's `amountUsd` is the headline pro rata, rounded up. Racing refunds never exceed the payment."
    ),
    refundEndpoint("refundTransaction", "/transactions/:id/refund").annotate(OpenApi.Description, "Legacy alias of POST /payments/{id}/refund."),
    HttpApiEndpoint.get("paymentClaims", "/payments/:id/claims", {
      params: { id: Schema.String },
      success: Schema.Struct({ data: Schema.Array(ClaimView) })
    }).annotate(
      OpenApi.Description,
      "A payment's claims, oldest first (not paginated): its refunds (kind user_dispute, with refundStatus) and chargebacks. " +
        "Errors: 404 not_found for an unknown payment or another shop's or environment's."
    ),
    HttpApiEndpoint.get("get", "/claims/:id", { params: { id: Schema.String }, success: ClaimView })
      .annotate(OpenApi.Description, "A claim's resolution state: open, then approved or rejected (refunds), won or lost (chargebacks)."),
    HttpApiEndpoint.post("simulate", "/claims/:id/simulate", {
      params: { id: Schema.String },
      payload: ChargebackOutcomeBody,
      success: ClaimView
    }).annotate(
      OpenApi.Description,
      "Sandbox only: decides an open chargeback as the card network would. " + chargebackOutcomes +
        " Errors: 400 simulate_sandbox_only (production key), 404 not_found, 422 claim_not_chargeback (a refund), 409 claim_already_resolved (decided the other way)."
    ),
    HttpApiEndpoint.post("simulateChargeback", "/payments/:id/simulate-chargeback", {
      params: { id: Schema.String },
      headers: IdempotencyHeaders,
      payload: LateChargebackBody,
      success: ClaimView.pipe(HttpApiSchema.status(201))
    }).annotate(
      OpenApi.Description,
      "Sandbox only: rehearses a chargeback the buyer's bank reports on one of the shop's payments days after it completed, " +
        "often after a partial refund (`Sandbox-Simulate: chargeback` charges back at creation only). Every field is optional. " + lateChargebackRules +
        " Errors: 400 simulate_sandbox_only (production key), 404 not_found (unknown payment or another shop's), " + lateChargebackErrors
    )
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Refunds and claims")
  .pipe(withErrors({
    refund: refund,
    refundTransaction: refund,
    get: secretKey,
    paymentClaims: secretKey,
    simulate: [...secretKey, "simulate_sandbox_only", "claim_not_chargeback", "claim_already_resolved"],
    simulateChargeback: [...secretKey, ...idempotent, "simulate_sandbox_only", ...lateChargeback]
  }))
{}

export class RefundAdminApi extends HttpApiGroup.make("claimAdmin")
  .add(
    HttpApiEndpoint.post("resolve", "/claims/:id/resolve", {
      params: { id: Schema.String },
      payload: ChargebackOutcomeBody,
      success: ClaimView
    }).annotate(
      OpenApi.Description,
      "The operator records the outcome of a chargeback, in either environment. " + chargebackOutcomes +
        " Errors: 404 not_found, 422 claim_not_chargeback, 409 claim_already_resolved."
    ),
    HttpApiEndpoint.post("openChargeback", "/payments/:id/chargebacks", {
      params: { id: Schema.String },
      headers: IdempotencyHeaders,
      payload: LateChargebackBody,
      success: ClaimView.pipe(HttpApiSchema.status(201))
    }).annotate(
      OpenApi.Description,
      "The operator opens a chargeback on an existing payment of any shop, in the payment's own environment (derived from the payment) " +
        "and on its shop's clock: a chargeback a provider reported late, outside its notifications. Every field is optional. " + lateChargebackRules +
        " Errors: 404 not_found (unknown payment), " + lateChargebackErrors
    )
  )
  .middleware(AdminToken)
  .prefix("/admin/v1")
  .annotate(OpenApi.Title, "Admin: claims")
  .pipe(withErrors({
    resolve: [...admin, "claim_not_chargeback", "claim_already_resolved"],
    openChargeback: [...admin, ...idempotent, ...lateChargeback]
  }))
{}
