import { Context, Effect, Layer, type Redacted, Schema } from "effect"

/**
 * The card vault as the engine sees it: a separate service that holds card numbers (sealed under
 * keys the engine never has) and answers only what a card's token may say about it. The engine
 * never holds a card number or a security code: a connector that charges a card writes the
 * provider's request with placeholders (`CardPlaceholders`) and asks the vault to `forward` it;
 * the vault fills them in, sends the request only to a host its allowlist names, and answers the
 * provider's response with any card number masked.
 *
 * The wire between the engine and the vault (`vault/README.md`):
 *
 * - `GET {VAULT_URL}/v1/cards/{token}?merchantId=...` with `Authorization: Bearer <VAULT_ENGINE_KEY>`
 *   answers the card's description (`CardDescription`'s encoded form, JSON) or 404.
 * - `POST {VAULT_URL}/v1/forward` with the same credential and a `ForwardRequest` (JSON) answers a
 *   `ForwardResponse` (JSON): the provider's status, headers and body, masked. A refusal is the
 *   vault's envelope `{ "error": { "code", "message" } }`: a provider that cannot be reached 502
 *   `upstream_unreachable`; a timeout 504 `upstream_timeout` (the outcome is unknown: the
 *   request may have arrived); a host off the allowlist 403, an unknown token 404, a security
 *   code asked for that the vault no longer holds 410.
 */

/** The brands the engine's card rails name (`core/catalog/methods.ts`). */
export const CardBrand = Schema.Literals(["visa", "mastercard", "amex", "elo", "hipercard", "diners", "discover", "carnet"])
export type CardBrand = typeof CardBrand.Type

/** What a token may say about its card: all the engine ever stores of it. */
export const CardDescription = Schema.Struct({
  /** `card_` and 24 random characters, scoped to one merchant. */
  token: Schema.String,
  merchantId: Schema.String,
  brand: CardBrand,
  /** The first 6 digits (8 for a 16-digit number whose scheme issues 8-digit BINs). */
  bin: Schema.String,
  last4: Schema.String,
  expMonth: Schema.Int,
  /** Four digits. */
  expYear: Schema.Int,
  holderName: Schema.String,
  /** The same card number gives the same fingerprint within a merchant, and another across merchants. */
  fingerprint: Schema.String,
  /**
   * Whether a new payment may use the security code collected with the card: the vault holds it
   * minutes, for the first payment that uses it ({@link securityCodeUse}).
   */
  securityCodeHeld: Schema.Boolean
})
export type CardDescription = typeof CardDescription.Type

/**
 * The placeholders a forwarded request's body (and header values) may hold, filled in by the
 * vault from the token's card. `expYear2` is the two last digits of the year. `securityCode`
 * is the code collected with the card, held for one payment's authorization
 * ({@link securityCodeUse}).
 */
export const CardPlaceholders = {
  number: "{{card.number}}",
  securityCode: "{{card.security_code}}",
  expMonth: "{{card.exp_month}}",
  expYear: "{{card.exp_year}}",
  expYear2: "{{card.exp_year2}}",
  holderName: "{{card.holder_name}}"
} as const

/**
 * What a forward that fills the security code does with it. The first such forward binds the
 * code to its `purpose` (the payment's `transactionId`); later forwards of the same purpose (the
 * next acquirer in the cascade, the authorization after 3-D Secure) use it again until it
 * expires; a forward of any other purpose finds it gone. A forward that names no purpose takes
 * the code, which is gone after it.
 */
export const securityCodeUse = (
  boundTo: string | undefined,
  purpose: string | undefined
): "take" | "bind" | "reuse" | "gone" =>
  purpose === undefined ? (boundTo === undefined ? "take" : "gone")
  : boundTo === undefined ? "bind"
  : boundTo === purpose ? "reuse"
  : "gone"

/** Where a forward's `bodyHmac.template` takes the signature. */
export const BodyHmacPlaceholder = "{{hmac.sha256_hex}}"

export const ForwardRequest = Schema.Struct({
  token: Schema.String,
  merchantId: Schema.String,
  /** The provider instance the request is for (`pagarme`, `dlocal-sandbox`): the vault's audit record names it. */
  providerId: Schema.String,
  method: Schema.Literals(["GET", "POST", "PUT", "PATCH", "DELETE"]),
  /** An absolute `https:` URL (or `http:` to a loopback simulator, when the vault allows it) on an allowlisted host. */
  url: Schema.String,
  headers: Schema.Record(Schema.String, Schema.String),
  body: Schema.optionalKey(Schema.String),
  /**
   * A body signature the vault computes AFTER filling the placeholders, for providers that sign
   * the exact bytes of a request that carries the card (dLocal: `X-Login + X-Date + body`). The
   * vault sets header `header` to `template` with {@link BodyHmacPlaceholder} replaced by the
   * lowercase hex HMAC-SHA256, keyed by `key`, of `prefix` followed by the body as sent. The key
   * is the provider's secret for this one request: the vault uses it and drops it, never stores
   * or logs it (as it already does with the credentials a forwarded request's headers carry).
   */
  bodyHmac: Schema.optionalKey(Schema.Struct({
    header: Schema.String,
    key: Schema.RedactedFromValue(Schema.String),
    prefix: Schema.String,
    template: Schema.String
  })),
  /** Milliseconds the vault waits for the provider's answer. */
  timeoutMs: Schema.optionalKey(Schema.Int),
  /**
   * The payment this request is for (its `transactionId`): forwards of one purpose share the
   * card's security code until it expires ({@link securityCodeUse}); without one, the first
   * forward that fills the code takes it.
   */
  purpose: Schema.optionalKey(Schema.String)
})
export type ForwardRequest = typeof ForwardRequest.Type

export const ForwardResponse = Schema.Struct({
  status: Schema.Int,
  headers: Schema.Record(Schema.String, Schema.String),
  /** The provider's body with every card number in it masked (first 6, last 4). */
  body: Schema.String
})
export type ForwardResponse = typeof ForwardResponse.Type

export class CardTokenNotFound extends Schema.TaggedError<CardTokenNotFound>()("CardTokenNotFound", {
  token: Schema.String
}) {}

/** The vault refused the forward (a host off its allowlist, a security code it no longer holds): nothing was sent. */
export class ForwardRefused extends Schema.TaggedError<ForwardRefused>()("ForwardRefused", {
  reason: Schema.Literals(["host_not_allowed", "security_code_gone", "token_not_found"]),
  message: Schema.String
}) {}

/**
 * The request may or may not have reached the provider (the vault timed out waiting for it, or
 * the vault itself did not answer): the charge's outcome is unknown and must not cascade.
 */
export class ForwardOutcomeUnknown extends Schema.TaggedError<ForwardOutcomeUnknown>()("ForwardOutcomeUnknown", {
  message: Schema.String
}) {}

/** The vault or the provider could not be reached before anything was sent. */
export class ForwardUnreachable extends Schema.TaggedError<ForwardUnreachable>()("ForwardUnreachable", {
  message: Schema.String
}) {}

export class CardVault extends Context.Service<CardVault, {
  readonly describe: (merchantId: string, token: string) => Effect.Effect<CardDescription, CardTokenNotFound | ForwardUnreachable>
  readonly forward: (request: ForwardRequest) => Effect.Effect<ForwardResponse, ForwardRefused | ForwardOutcomeUnknown | ForwardUnreachable>
}>()("core/ports/CardVault") {
  /**
   * A host with no vault configured: every card it is asked about is unreachable, so a card rail
   * cannot be charged (and is not routable) while cash, transfer and instant rails work as ever.
   */
  static readonly unconfigured: Layer.Layer<CardVault> = Layer.succeed(CardVault, {
    describe: () => Effect.fail(new ForwardUnreachable({ message: "no card vault is configured (VAULT_URL)" })),
    forward: () => Effect.fail(new ForwardUnreachable({ message: "no card vault is configured (VAULT_URL)" }))
  })
}

/** A card as a charge carries it to a connector: its token and what the token says, never its number. */
export interface ChargeCard {
  readonly token: string
  /** The merchant the token belongs to: what a forward names, so the vault can check the token is its. */
  readonly merchantId: string
  readonly brand: CardBrand
  readonly bin: string
  readonly last4: string
  readonly expMonth: number
  readonly expYear: number
  readonly holderName: Redacted.Redacted<string>
  readonly fingerprint: string
  readonly securityCodeHeld: boolean
}
