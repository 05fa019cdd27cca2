/** Field schemas shared by the request and response shapes of the API. */
import { Schema } from "effect"
import { Environment } from "../../../core/Environment.ts"

/** A string of at most `max` characters. */
export const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

/** A non-blank string of at most `max` characters. */
export const RequiredText = (max: number) =>
  Schema.String.check(
    Schema.makeFilter((s: string) => s.trim().length > 0, { expected: "a non-empty string" }),
    Schema.isMaxLength(max)
  )

export const Email = Schema.String.check(
  Schema.isMaxLength(254),
  Schema.isPattern(/^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/, { expected: "a valid email address" })
).annotate({ format: "email" })

export const IsoDateTime = Schema.String.annotate({ format: "date-time", description: "ISO 8601" })

export { Environment }

export const MerchantRef = Schema.Struct({ id: Schema.String, name: Schema.String })

/**
 * `Idempotency-Key` (spec 1.9): 1 to 255 characters. A retry with the same key and request
 * continues or replays the first execution (the replay carries `Idempotent-Replayed: true`).
 */
export const IdempotencyKey = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255)).annotate({
  description: "1 to 255 characters, unique per operation you mean to perform once (an order id, a UUID)"
})

export const IdempotencyHeaders = {
  "idempotency-key": Schema.optional(IdempotencyKey)
}
