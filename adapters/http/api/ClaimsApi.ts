import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Amount } from "../../../core/Money.ts"
import { IdempotencyHeaders, IsoDateTime, Text } from "./Fields.ts"
import { SecretKey } from "./Security.ts"

export const RefundView = Schema.Struct({
  refundId: Schema.String.annotate({ description: "`CLM-...`: the refund is a claim of kind user_dispute" }),
  transactionId: Schema.String,
  amount: Schema.Number.annotate({ description: "Local currency of the transaction, major units" }),
  amountUsd: Schema.Number,
  currency: Schema.String,
  status: Schema.Literals(["pending", "succeeded", "failed"]),
  reason: Schema.NullOr(Schema.String),
  createdAt: IsoDateTime
}).annotate({ identifier: "Refund" })

export const ClaimView = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literals(["user_dispute", "chargeback"]),
  status: Schema.Literals(["open", "approved", "rejected"]),
  transactionId: Schema.String,
  amount: Schema.Number,
  currency: Schema.String,
  amountUsd: Schema.Number,
  feeUsd: Schema.Number,
  reason: Schema.NullOr(Schema.String),
  resolution: Schema.NullOr(Schema.String),
  createdAt: IsoDateTime,
  resolvedAt: Schema.NullOr(IsoDateTime),
  refundStatus: Schema.optional(Schema.Literals(["pending", "succeeded", "failed"]))
}).annotate({ identifier: "Claim" })

const refundEndpoint = (name: "refund" | "refundTransaction", path: "/payments/:id/refund" | "/transactions/:id/refund") =>
  HttpApiEndpoint.post(name, path, {
    params: { id: Schema.String },
    headers: IdempotencyHeaders,
    payload: Schema.Struct({
      amount: Schema.optional(Amount).annotate({ description: "Local currency of the transaction; default: all that remains" }),
      reason: Schema.optional(Text(500)).annotate({ description: "requested_by_customer, duplicate, fraudulent, other, or free text" })
    }),
    success: RefundView.pipe(HttpApiSchema.status(201))
  })

export class ClaimsApi extends HttpApiGroup.make("claims")
  .add(
    refundEndpoint("refund", "/payments/:id/refund").annotate(
      OpenApi.Description,
      "Opens a refund (claim of kind user_dispute, status pending) that freezes its USD amount, then resolves it with the provider: " +
        "succeeded (the money leaves the balance; `payment.refunded`, `claim.resolved`; the payment is `refunded` once fully refunded) or failed (the money returns). " +
        "Errors: 404 not_found (unknown payment or another shop's), 422 refund_not_allowed (not completed), 422 refund_amount_exceeds_remaining (`details.remaining`), " +
        "422 balance_insufficient (the balance cannot cover it). Racing refunds never exceed the payment."
    ),
    refundEndpoint("refundTransaction", "/transactions/:id/refund").annotate(OpenApi.Description, "Legacy alias of POST /payments/{id}/refund."),
    HttpApiEndpoint.get("get", "/claims/:id", { params: { id: Schema.String }, success: ClaimView })
      .annotate(OpenApi.Description, "A claim's resolution state: open, then approved or rejected.")
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Refunds and claims")
{}
