/** How an authorize-only payment (`capture: false`) shows its authorization, in the create answer, reads and events. */
import { Schema } from "effect"
import { IsoDateTime } from "./Fields.ts"

const Money = Schema.Finite.annotate({ description: "Major units" })

/** An authorize-only payment's authorization (created with `capture: false`). */
export const AuthorizationView = Schema.Struct({
  amountLocal: Money.annotate({ description: "What was authorized, in `currencyLocal`; `amountLocal` of the payment becomes what was captured" }),
  amountUsd: Money.annotate({ description: "The USD headline of what was authorized" }),
  expiresAt: Schema.NullOr(IsoDateTime).annotate({ description: "Until when the provider holds it (null until the provider answered)" }),
  operation: Schema.NullOr(Schema.Struct({
    kind: Schema.Literals(["capture", "void"]),
    amountLocal: Money,
    outcome: Schema.Literals(["in_flight", "unknown", "failed", "declined", "succeeded"]).annotate({
      description: "in_flight: being asked now; unknown: no answer yet (retry with the same Idempotency-Key); failed or declined: nothing was done; succeeded"
    }),
    reason: Schema.NullOr(Schema.String),
    at: IsoDateTime
  })).annotate({ description: "The last capture or void asked of the provider" })
}).annotate({ identifier: "PaymentAuthorization" })

export const AuthorizationFields = {
  authorizationExpiresAt: Schema.optional(IsoDateTime).annotate({ description: "Authorize-only payments: until when the provider holds the authorization" }),
  authorization: Schema.optional(AuthorizationView)
}
