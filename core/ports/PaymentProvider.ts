/**
 * The contract of an upstream payment provider plugin. A provider team implements it in one
 * folder under `providers/`, registers it with `ProviderRegistry`, and runs the conformance kit
 * (`providers/kit`) against it. A provider imports only this port, the catalog types and `effect`.
 */
import { type BigDecimal, type Duration, type Effect, Redacted, Schema } from "effect"
import type { PaymentMethodDef, RequiredField } from "../catalog/PaymentMethod.ts"
import type { Environment } from "../Environment.ts"
import type { ChargeCard } from "./CardVault.ts"

/** The deterministic outcomes the sandbox header `Sandbox-Simulate` asks for. */
export const SandboxSimulate = Schema.Literals(["paid", "failed", "expired", "chargeback", "slow_payment"])
export type SandboxSimulate = typeof SandboxSimulate.Type

/**
 * The buyer's postal address, as the API accepts it (`customer.address`). Street and number are
 * apart because Latin-American providers take them apart (Mercado Pago `street_name` and
 * `street_number`, EBANX `address` and `street_number`); `number` may be "S/N".
 */
export const BuyerAddress = Schema.Struct({
  street: Schema.String,
  number: Schema.String,
  complement: Schema.optionalKey(Schema.String),
  /** Neighbourhood (Brazil's bairro, Mexico's colonia). */
  district: Schema.optionalKey(Schema.String),
  city: Schema.String,
  /** State or province as the country abbreviates it (Brazil's UF: `SP`). */
  state: Schema.String,
  postalCode: Schema.String,
  /** ISO-2; the rail's country when absent. */
  country: Schema.optionalKey(Schema.String)
})
export type BuyerAddress = typeof BuyerAddress.Type

/**
 * The buyer as a charge request carries them: `Redacted`, so that a connector's log line, span
 * attribute or error message prints `<redacted>`. A connector reads a field (`Redacted.value`,
 * or the kit's `clear`) only where it puts it on its wire.
 */
export interface ChargeCustomer {
  readonly name?: Redacted.Redacted<string> | undefined
  readonly email?: Redacted.Redacted<string> | undefined
  /** Forwarded to the provider, never persisted by the engine. */
  readonly documentId?: Redacted.Redacted<string> | undefined
  readonly phone?: Redacted.Redacted<string> | undefined
  readonly ip?: string | undefined
  readonly address?: Redacted.Redacted<BuyerAddress> | undefined
}

/** A `ChargeCustomer` of values in the clear: for kits, harnesses and tests that build charge requests. */
export const chargeCustomer = (plain: {
  readonly name?: string | undefined
  readonly email?: string | undefined
  readonly documentId?: string | undefined
  readonly phone?: string | undefined
  readonly ip?: string | undefined
  readonly address?: BuyerAddress | undefined
}): ChargeCustomer => ({
  ...(plain.name === undefined ? {} : { name: Redacted.make(plain.name) }),
  ...(plain.email === undefined ? {} : { email: Redacted.make(plain.email) }),
  ...(plain.documentId === undefined ? {} : { documentId: Redacted.make(plain.documentId) }),
  ...(plain.phone === undefined ? {} : { phone: Redacted.make(plain.phone) }),
  ...(plain.ip === undefined ? {} : { ip: plain.ip }),
  ...(plain.address === undefined ? {} : { address: Redacted.make(plain.address) })
})

export interface ChargeRequest {
  /** The engine's transaction id (`TXN-...`): the provider's merchant reference. */
  readonly transactionId: string
  /** Stays the same across retries of this charge on this provider: `<transactionId>:<providerId>`. */
  readonly idempotencyKey: string
  readonly environment: Environment
  readonly method: PaymentMethodDef
  /** What the buyer pays, in the rail's local currency, rounded to its exponent. */
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  /** ISO-2 country of the rail. */
  readonly country: string
  readonly customer: ChargeCustomer
  readonly expiresAt: Date
  /** Where the provider must send signed status callbacks for this charge. */
  readonly callbackUrl: string
  /** Sandbox only: the outcome the merchant asked to simulate. */
  readonly simulate?: SandboxSimulate | undefined
  /**
   * A card rail's card, as its vault token describes it (`CardVault.ts`): the connector sends the
   * provider's request through `CardVault.forward` with placeholders for the number.
   */
  readonly card?: ChargeCard | undefined
  /**
   * Card rails: `required` asks the provider to authenticate the buyer with 3-D Secure (the
   * engine's one retry after an `authentication_required` decline, or the merchant's ask).
   * Absent: the provider's (or the account's) default.
   */
  readonly threeDSecure?: "required" | undefined
  /**
   * Card rails: where the provider sends the buyer's browser back after a 3-D Secure challenge
   * (the engine's return page for this charge, which then asks the provider how it ended).
   */
  readonly returnUrl?: string | undefined
  /**
   * Card rails: `false` authorizes only; the engine captures (or voids) later. Absent or `true`:
   * the provider captures at once.
   */
  readonly capture?: boolean | undefined
  /**
   * Card rails: pay in `count` instalments (absent: one). `interest: "merchant"`:
   * the buyer pays `amount` in equal parts, the merchant absorbs the cost (the only one the
   * engine asks for today; `core/payments/Installments.ts`).
   */
  readonly installments?: { readonly count: number; readonly interest: "merchant" | "buyer" } | undefined
}

/**
 * Status of a charge as the provider reports it. Anything unknown maps to `pending`.
 * `authorized`: a charge asked with `capture: false` that the provider holds as an authorization
 * (the engine captures or voids it later: `PaymentProvider.capture`, `PaymentProvider.void`).
 */
export type ChargeStatus = "pending" | "authorized" | "completed" | "failed" | "expired"

export interface ChargeAccepted {
  readonly providerRef: string
  readonly status: ChargeStatus
  /** Where the buyer completes the payment (provider's hosted form, voucher page, QR page). */
  readonly paymentFormUrl: string
  /** Method-specific data for the buyer (QR code text, voucher barcode, bank reference...). */
  readonly paymentData: Readonly<Record<string, unknown>>
  /**
   * What the buyer must do before the charge can go on (a 3-D Secure challenge on the issuer's
   * page): the charge is `pending` until the provider's callback or the status poll tells how it
   * ended. None when nothing is asked of the buyer.
   */
  readonly nextAction?: NextAction | undefined
}

/** A step the buyer takes in the browser: go to `url` (the challenge page); the provider sends them back to `ChargeRequest.returnUrl`. */
export interface NextAction {
  readonly type: "redirect_to_url"
  readonly url: string
}

/**
 * Why a provider call failed, as the cascade, the refund and payout paths ask it: may another
 * provider be tried, and may this one hold what was asked? Each is a reason of `ProviderError`
 * (Effect's reason errors: `Effect.catchReason("ProviderError", "Declined", ...)`).
 */

/**
 * The buyer's or the issuer's answer (declined, invalid buyer data, a refund refused): about the
 * request itself, so another provider would refuse it too. The cascade stops; a refund is refused.
 */
export class Declined extends Schema.TaggedError<Declined>()("Declined", {}) {}

/**
 * Failed and left nothing upstream (a refused connection, a 503, a 429, a rail or amount this
 * connector does not take): the same request may succeed later or elsewhere, so the cascade tries
 * the next provider.
 */
export class Failed extends Schema.TaggedError<Failed>()("Failed", {}) {}

/**
 * The call may have reached the provider and taken effect, and the answer says nothing about it
 * (no answer in time, a connection lost after sending, a 500, 502 or 504, a 2xx that cannot be
 * read). Only the same call again with the same idempotency key can tell, so the cascade never
 * moves to another provider: that could charge the buyer twice.
 */
export class OutcomeUnknown extends Schema.TaggedError<OutcomeUnknown>()("OutcomeUnknown", {}) {}

/**
 * This provider's credentials or configuration were refused (a wrong key, a rail or country the
 * account has not activated): nothing was done, and it says nothing about the request, so the
 * cascade tries the next provider as after `Failed`; the code tells operators what to fix.
 */
export class Misconfigured extends Schema.TaggedError<Misconfigured>()("Misconfigured", {}) {}

export const ProviderFailure = Schema.Union([Declined, Failed, OutcomeUnknown, Misconfigured])
export type ProviderFailure = typeof ProviderFailure.Type

/** What a `ProviderError` says besides its reason. */
export interface ProviderErrorFields {
  readonly providerId: string
  /** The provider's own code or word (`5001`, `BP-DR-23`, `invalid_credentials`, `timeout`), for the record. */
  readonly code: string
  readonly message: string
}

const reasons = {
  declined: new Declined(),
  failed: new Failed(),
  outcomeUnknown: new OutcomeUnknown(),
  misconfigured: new Misconfigured()
}

/**
 * A failed provider call: its `reason` (one of the four above), the provider's own `code` and a
 * message made safe to log. `UpstreamHttp` classifies every HTTP connector's failures; a plugin
 * with its own transport builds them with the named constructors.
 */
export class ProviderError extends Schema.TaggedError<ProviderError>()("ProviderError", {
  providerId: Schema.String,
  reason: ProviderFailure,
  code: Schema.String,
  message: Schema.String
}) {
  static declined(fields: ProviderErrorFields) {
    return new ProviderError({ ...fields, reason: reasons.declined })
  }
  static failed(fields: ProviderErrorFields) {
    return new ProviderError({ ...fields, reason: reasons.failed })
  }
  static outcomeUnknown(fields: ProviderErrorFields) {
    return new ProviderError({ ...fields, reason: reasons.outcomeUnknown })
  }
  static misconfigured(fields: ProviderErrorFields) {
    return new ProviderError({ ...fields, reason: reasons.misconfigured })
  }
}

/** A status update the provider pushed (signed callback) or answered (status poll). */
export interface ChargeUpdate {
  readonly providerRef: string
  /** The engine's transaction id, when the provider echoes it. */
  readonly transactionId?: string | undefined
  /**
   * `chargeback`: the buyer's bank disputes the charge; `chargeback_won` / `chargeback_lost`: the
   * dispute was decided for the merchant / for the buyer.
   */
  readonly status: ChargeStatus | "chargeback" | "chargeback_won" | "chargeback_lost" | "refunded"
  /** Provider's own words, for the record (failure reason...). */
  readonly detail?: string | undefined
  /**
   * Refunds of this charge as the provider reports them now (a refund notification, or a status
   * read that lists them): a pending refund the engine follows is settled or failed at once.
   */
  readonly refunds?: ReadonlyArray<RefundOutcome> | undefined
}

/** A callback that is unsigned, badly signed, stale or unreadable: answered 401, changes nothing. */
export class CallbackRejected extends Schema.TaggedError<CallbackRejected>()("CallbackRejected", {
  reason: Schema.String
}) {}

export interface RefundRequest {
  readonly transactionId: string
  readonly providerRef: string
  readonly refundId: string
  readonly idempotencyKey: string
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  /** Where the provider sends notifications about this refund (the engine's callback URL for it). */
  readonly callbackUrl?: string | undefined
  /**
   * What the engine holds of this payment's refunds, for a connector whose provider keeps nothing
   * of ours on a refund (no reference, no metadata: Conekta), so that it can tell its refund among
   * the charge's refunds as the one the engine does not hold, and look it up before sending again.
   * Undefined when the caller does not say (an embedder's own call): such a connector then cannot
   * tell a refund from another of the same amount.
   *
   * `providerRefundRef`: the provider's id of THIS refund, when the provider already answered
   * about it (a pending refund followed).
   */
  readonly providerRefundRef?: string | undefined
  /** The provider's ids of this payment's OTHER refunds the provider answered about (any status). */
  readonly knownRefunds?: ReadonlyArray<string> | undefined
  /**
   * How many of this payment's refunds opened before this one the provider has not answered about
   * yet (each may be made upstream already). A connector that serialises a payment's refunds lets
   * this one wait while it is above zero: the oldest always goes first.
   */
  readonly refundsAhead?: number | undefined
}

/**
 * Where a refund stands at the provider. `pending`: accepted, not yet paid back (the engine keeps
 * the claim open and asks again later); `failed`: accepted first, then rejected or cancelled by the
 * provider (the frozen money returns to the shop). A refund refused outright is a `ProviderError`
 * of reason `Declined` instead.
 */
export type RefundStatus = "succeeded" | "pending" | "failed"

export interface RefundOutcome {
  /** The provider's id of the refund. */
  readonly providerRef: string
  readonly status: RefundStatus
  /** Provider's own words, for the record (rejection reason...). */
  readonly detail?: string | undefined
}

/** Captures (part of) an authorization the provider holds; the rest of it is released. */
export interface CaptureRequest {
  readonly transactionId: string
  /** The charge's reference at the provider (`ChargeAccepted.providerRef`). */
  readonly providerRef: string
  /** Stays the same across retries of this capture: `<transactionId>:capture`. */
  readonly idempotencyKey: string
  /** What is captured, in the charge's currency: at most what was authorized. */
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  /** What was authorized, so that a connector can tell a partial capture. */
  readonly authorizedAmount: BigDecimal.BigDecimal
}

/** Releases an authorization the provider holds, nothing captured. */
export interface VoidRequest {
  readonly transactionId: string
  readonly providerRef: string
  /** Stays the same across retries of this void: `<transactionId>:void`. */
  readonly idempotencyKey: string
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
}

/**
 * The provider's answer to a capture or a void: `succeeded` (captured, or released), or
 * `pending` (accepted, not final yet: the engine treats it like an unknown outcome and asks again
 * with the same key). A refusal is a `ProviderError` of reason `Declined`.
 */
export interface CaptureOutcome {
  /** The provider's id of the capture or void (its charge id when it has none of its own). */
  readonly providerRef: string
  readonly status: "succeeded" | "pending"
}

export interface PaymentProvider {
  /** Stable id, used in routing configuration and in the callback URL. */
  readonly id: string
  readonly displayName: string
  /** Environments this provider may be configured in. */
  readonly environments: ReadonlyArray<Environment>
  /**
   * Whether this provider can charge that exact rail with the buyer data the engine's API carries.
   * A rail that needs something the API cannot carry (a bank code from the provider's own list)
   * is not supported: it would only ever be declined.
   */
  readonly supports: (method: PaymentMethodDef) => boolean
  /**
   * Buyer data this provider needs to charge the rail, beyond the catalog's `method.requires`
   * (a boleto's address and phone). A charge without it is refused before any upstream call with
   * 422 `missing_required_fields`; the catalog lists it per method. None when absent.
   */
  readonly requires?: ((method: PaymentMethodDef) => ReadonlyArray<RequiredField>) | undefined
  readonly charge: (request: ChargeRequest) => Effect.Effect<ChargeAccepted, ProviderError>
  /** The current status of a charge, for the reconcile poll when a callback was lost. */
  readonly status: (providerRef: string, transactionId: string) => Effect.Effect<ChargeUpdate, ProviderError>
  /**
   * Verifies (HMAC-SHA256, constant time) and parses a callback. The raw body is the exact bytes
   * received; headers are lowercase; `query` is the callback URL's query string as received (the
   * first value of each name), which some providers sign (Mercado Pago's `data.id`).
   */
  readonly verifyCallback: (
    headers: Readonly<Record<string, string | undefined>>,
    rawBody: string,
    query?: Readonly<Record<string, string>>
  ) => Effect.Effect<ReadonlyArray<ChargeUpdate>, CallbackRejected>
  /**
   * Refunds (part of) a charge, or, when the provider already holds a refund for
   * `request.refundId`, answers that refund as it stands now: never a second refund. The engine
   * calls it again with the same request after a timeout and to follow a `pending` refund, so a
   * connector whose provider documents no idempotency for refunds looks its refund up first.
   */
  readonly refund: (request: RefundRequest) => Effect.Effect<RefundOutcome, ProviderError>
  /**
   * Card rails: captures an authorization made with `capture: false` (full, or partial: the
   * rest is released). A provider without it cannot authorize only: `capture: false` is refused
   * before anything is written (422 `capture_not_supported`). Called again with the same request
   * after a timeout: a connector makes it idempotent on `request.idempotencyKey` (or looks its
   * capture up first).
   */
  readonly capture?: ((request: CaptureRequest) => Effect.Effect<CaptureOutcome, ProviderError>) | undefined
  /** Card rails: releases an authorization made with `capture: false`, nothing captured. */
  readonly void?: ((request: VoidRequest) => Effect.Effect<CaptureOutcome, ProviderError>) | undefined
  /**
   * How long the provider holds an authorization made with `capture: false`, from its answer:
   * past it the engine expires the payment (`expired`). Default 7 days.
   */
  readonly authorizationWindow?: Duration.Duration | undefined
}
