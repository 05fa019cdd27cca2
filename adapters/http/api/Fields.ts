/** Field schemas shared by the request and response shapes of the API. */
import { Schema, SchemaTransformation } from "effect"
import { maskKey } from "../../../core/Secrets.ts"
import { Environment } from "../../../core/Environment.ts"
import { maxAmountInput } from "../../../core/Money.ts"
import { maxMerchantUrlLength, merchantUrlProblem } from "../../../core/MerchantUrl.ts"

/**
 * Whether a string is Unicode text: no lone UTF-16 surrogate (`JSON.parse` makes one of the escape
 * `\ud800`; UTF-8 cannot encode it and PostgreSQL refuses it). `String.prototype.isWellFormed`
 * (ES2024, Node 20+), typed here since the project's lib is ES2022.
 */
export const isWellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed()

/**
 * The check of every text field: well-formed Unicode. Every JSON body is also checked as a whole
 * before an endpoint reads it (server/StorableText.ts: bare strings, record keys, free-form
 * values); this keeps the rule on the field for whatever decodes these schemas another way.
 */
export const isWellFormedText = Schema.makeFilter((s: string) => isWellFormed(s), {
  expected: "well-formed Unicode text (no lone UTF-16 surrogate)"
})

/** A string of at most `max` characters. */
export const Text = (max: number) => Schema.String.check(isWellFormedText, Schema.isMaxLength(max))

/** A non-blank string of at most `max` characters. */
export const RequiredText = (max: number) =>
  Schema.String.check(
    isWellFormedText,
    Schema.makeFilter((s: string) => s.trim().length > 0, { expected: "a non-empty string" }),
    Schema.isMaxLength(max)
  )

/**
 * An amount read from query text (`?amount=`): a finite number within the bounds of `Amount`
 * (core/Money.ts), so that `1e308` is a 400 naming the parameter, not a failed decode later.
 */
export const AmountText = Schema.FiniteFromString.check(
  Schema.isGreaterThanOrEqualTo(-maxAmountInput),
  Schema.isLessThanOrEqualTo(maxAmountInput)
)

/** The largest value of a PostgreSQL `integer` column: an integer field that is stored is at most this. */
export const maxStoredInt = 2_147_483_647

/** An integer a store keeps in, or compares with, an `integer` column: -(2^31 - 1) to 2^31 - 1. */
export const StoredInt = Schema.Int.check(Schema.isBetween({ minimum: -maxStoredInt, maximum: maxStoredInt }))

export const Email = Schema.String.check(
  isWellFormedText,
  Schema.isMaxLength(254),
  Schema.isPattern(/^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/, { expected: "a valid email address" })
).annotate({ format: "email" })

/** The rule of a merchant URL, as the document says it on each such field. */
export const merchantUrlRule = "An absolute https URL (http is accepted in the sandbox only), without credentials, white space or control characters; " +
  "anything else (`javascript:`, `data:`, `//host`, a relative path) is 400 invalid_request naming the field"

/**
 * A URL the merchant gives (`returnUrl`, a webhook's `url`): absolute `https`, `http` only in the
 * sandbox (the operation checks that part, knowing the environment), no credentials, no white
 * space or control characters (core/MerchantUrl.ts). Anything else is `400 invalid_request`
 * naming the field. The document shows `merchantUrlRule` where the field is declared.
 */
export const MerchantUrl = Schema.String.check(
  isWellFormedText,
  Schema.makeFilter((s: string) => merchantUrlProblem(s) ?? true, {
    expected: "an absolute https URL (http in the sandbox only) without credentials"
  })
).annotate({ format: "uri", maxLength: maxMerchantUrlLength })

export const IsoDateTime = Schema.String.annotate({ format: "date-time", description: "ISO 8601" })

export { Environment }

export const MerchantRef = Schema.Struct({ id: Schema.String, name: Schema.String })

/**
 * `Idempotency-Key` (spec 1.9): 1 to 255 characters. A retry with the same key and request
 * continues or replays the first execution (the replay carries `Idempotent-Replayed: true`).
 */
export const IdempotencyKey = Schema.String.check(isWellFormedText, Schema.isMinLength(1), Schema.isMaxLength(255)).annotate({
  description: "1 to 255 characters, unique per operation you mean to perform once (an order id, a UUID)"
})

export const IdempotencyHeaders = {
  "idempotency-key": Schema.optional(IdempotencyKey)
}

/**
 * A secret (API secret key, webhook signing secret) as an idempotent replay stores it: masked
 * (`sk_test_…abcd`, `whsec_…abcd`). A secret is shown once, by the first answer; a replay of the
 * operation that made it cannot show it again.
 */
export const MaskedWhenStored = Schema.String.pipe(
  Schema.decodeTo(Schema.String, SchemaTransformation.transform({ decode: (stored: string) => stored, encode: maskKey }))
)

/**
 * The buyer's postal address (`userAddress` on POST /payments, `customer.address` in checkout
 * sessions). Forwarded to the provider and never stored on the transaction.
 */
export const BuyerAddressBody = Schema.Struct({
  street: RequiredText(200).annotate({ description: "Street name, without the number" }),
  number: RequiredText(20).annotate({ description: "House number, or S/N" }),
  complement: Schema.optionalKey(RequiredText(200)).annotate({ description: "Apartment, floor, block" }),
  district: Schema.optionalKey(RequiredText(100)).annotate({
    description: "Neighbourhood (Brazil's bairro, Mexico's colonia). Required in Brazil where an address is needed (a boleto prints it): " +
      "without it the charge answers 422 missing_required_fields naming userAddress.district"
  }),
  city: RequiredText(100),
  state: RequiredText(40).annotate({ description: "State or province as the country abbreviates it (Brazil's UF, e.g. SP)" }),
  postalCode: RequiredText(20).annotate({ description: "CEP in Brazil, código postal elsewhere" }),
  country: Schema.optionalKey(Text(2).check(Schema.isPattern(/^[A-Z]{2}$/, { expected: "an ISO-2 country code" }))).annotate({
    description: "ISO-2; the payment method's country when omitted"
  })
}).annotate({
  identifier: "BuyerAddress",
  description: "The buyer's postal address. Some rails' providers need it (a Brazilian boleto prints it): " +
    "GET /payment-methods lists `userAddress` in `requiredFields` for those."
})

/**
 * The body of an action that takes no fields: empty or `{}`; any field is refused (400 naming it),
 * as everywhere else. (`Schema.Struct({})` would let every field through.)
 */
export const NoFields = Schema.Record(Schema.String, Schema.Never).annotate({ description: "No fields" })

/** What a buyer's `documentId` must be, checked in the engine (core/DocumentNumbers.ts) for the payment method's country. */
export const documentIdRules =
  "Checked for the payment method's country before anything is written or sent upstream: BR a CPF (11 digits) or a CNPJ (14 characters, " +
  "letters allowed in the first 12 as from July 2026), with their check digits; MX a CURP (18 characters, check digit) or an RFC (12 or 13); " +
  "CL a RUT (check digit 0-9 or K); CO a cédula (5 to 10 digits) or a NIT with its check digit after a dash; AR a DNI (7 or 8 digits) or a " +
  "CUIT/CUIL (11 digits, check digit); PE 8 to 12 digits; elsewhere up to 40 characters. Dots, dashes, slashes and spaces are ignored."

/** A buyer's identity document number, at most `max` characters (see `documentIdRules`). */
export const DocumentId = (max: number, refusal: string) => Text(max).annotate({ description: `${documentIdRules} ${refusal}` })

/**
 * A buyer's field (name, email, phone, document, address): validated and documented as `schema`
 * (its encoded side is the plain value), decoded straight to `Redacted`, so that no handler or
 * service holds it in a form a log line, a span attribute or an error message would print. Encoding
 * reveals it again: what an idempotency key binds to (a hash of the encoded body) sees the value.
 */
export const Buyer = <S extends Schema.Top>(schema: S) => Schema.RedactedFromValue(schema)
