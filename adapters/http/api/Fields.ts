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
