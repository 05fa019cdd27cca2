/**
 * Authorize now, capture later: a card payment created with `capture: false` is `authorized`;
 * these endpoints capture it (full or partial) or void it, once per `Idempotency-Key`, written
 * ahead like every upstream call (`core/payments/Capture.ts`).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Amount } from "../../../core/Money.ts"
import { capture, settleAuthorization, withErrors } from "./EndpointErrors.ts"
import { IdempotencyHeaders } from "./Fields.ts"
import { PaymentRecord } from "./PaymentsApi.ts"
import { SecretKey } from "./Security.ts"

const errors = "Errors: 404 not_found (unknown payment or another shop's), 409 payment_not_authorized (not `authorized`: `details.status`; or the other operation " +
  "still waits for its answer: `details.operation`), 422 capture_declined (the provider refused: the payment stays authorized), 503 capture_failed " +
  "(nothing was done at the provider: retry), 503 provider_outcome_unknown (no answer: the payment keeps the operation `unknown` and the key; retry with the " +
  "same Idempotency-Key, which asks the same provider again with the same upstream key)."

export class CaptureApi extends HttpApiGroup.make("authorizations")
  .add(
    HttpApiEndpoint.post("capture", "/payments/:id/capture", {
      params: { id: Schema.String },
      headers: IdempotencyHeaders,
      payload: Schema.Struct({
        amount: Schema.optional(Amount).annotate({
          description: "In the payment's local currency, at most what was authorized (`authorization.amountLocal`); default: all of it. Less captures part and releases the rest"
        })
      }),
      success: PaymentRecord
    }).annotate(
      OpenApi.Description,
      "Captures an authorized payment (created with `capture: false`). Every field is optional (no body: the whole authorization). The payment becomes " +
        "`completed` and its money reaches the balance as any completion does (`payment.completed`, the ledger entry payment.completed for what was " +
        "captured: after a partial capture `amountLocal`, the USD `amount`, fees and reserve are those of the captured part, rounded in the platform's favour). " +
        "With `Idempotency-Key`, a retry answers the first result and the provider is asked once. " + errors +
        " Also 422 capture_amount_exceeds_authorized (`details.authorized`) and 422 amount_out_of_limits (a part too small to cover its fees)."
    ),
    HttpApiEndpoint.post("void", "/payments/:id/void", {
      params: { id: Schema.String },
      headers: IdempotencyHeaders,
      payload: Schema.Struct({}),
      success: PaymentRecord
    }).annotate(
      OpenApi.Description,
      "Releases an authorized payment (created with `capture: false`) at its provider: it becomes `voided` (final; `payment.voided`) and nothing is " +
        "booked. No body. With `Idempotency-Key`, a retry answers the first result and the provider is asked once. " + errors
    )
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Authorizations")
  .pipe(withErrors({
    capture: [...capture, "amount_out_of_limits"],
    void: settleAuthorization
  }))
{}
