/** The `nextAction` of a pending card payment in the API (3-D Secure, `core/payments/ThreeDSecure.ts`). */
import { Schema } from "effect"

/** A pending payment's step for the buyer: a 3-D Secure challenge to open, whose end comes back through the engine's return page. */
export const NextActionView = Schema.Struct({
  type: Schema.Literal("redirect_to_url").annotate({ description: "The only type so far: send the buyer's browser to `url`" }),
  url: Schema.String.annotate({
    description: "The card issuer's (or the sandbox's) 3-D Secure challenge page. When the buyer is done the provider sends them to the engine's " +
      "`/3ds/return/{transactionId}`, which asks the provider how it ended and sends them on to your `returnUrl` with `transactionId` " +
      "(confirm the outcome with GET /payments/{id} or its webhook)"
  })
}).annotate({
  identifier: "NextAction",
  description: "What the buyer must do before a pending card payment can go on (3-D Secure). Present only while the payment is pending; " +
    "a challenge not finished within 15 minutes expires the payment (payment.failed, failureReason `expired: 3-D Secure challenge abandoned`)"
})
