/**
 * The payment (transaction) record, as the engine keeps it. The schema is the source of truth:
 * the type comes from it, and `Schema.toCodecJson(Payment)` is how a store serialises it
 * (decimals as strings, instants as ISO 8601). `encodePaymentJson` writes that same JSON by hand
 * for the write path.
 */
import { BigDecimal, DateTime, Effect, Redacted, Schema } from "effect"
import { Channel } from "../catalog/Channel.ts"
import { Environment } from "../Environment.ts"
import { CardBrand } from "../ports/CardVault.ts"
import { CardDecline } from "../ports/CardDeclines.ts"
import { SandboxSimulate } from "../ports/PaymentProvider.ts"
import { skipReasons } from "../routing/Skips.ts"
import { PaymentInstallments } from "./Installments.ts"
import { PaymentRecordStatus } from "./PaymentStatus.ts"

const Decimal = Schema.BigDecimal
const Instant = Schema.DateTimeUtc
/** A decimal that documents written before the field existed decode as 0. */
const DecimalOrZero = Decimal.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(BigDecimal.fromBigInt(0n))))
/**
 * Buyer data: `Redacted` in memory, so a log line, a span attribute or an error message that
 * carries the record or the field by accident prints `<redacted>`; the store's JSON holds the
 * value (the codec unwraps it), and whoever needs it reads it with `Redacted.value`.
 */
const BuyerTextOrNull = Schema.NullOr(Schema.RedactedFromValue(Schema.String))

export const Fees = Schema.Struct({
  platform: Decimal,
  /** The flat part of `platform`, reported apart in the balance's fee summary. */
  platformFlat: Decimal,
  provider: Decimal,
  network: Decimal,
  total: Decimal
})
export type Fees = typeof Fees.Type

export const Settlement = Schema.Struct({
  type: Schema.Literal("delayed"),
  /** `T+n` in days. */
  delay: Schema.String,
  delayDays: Schema.Int,
  /** Rolling reserve held from this payment, USD. */
  reserve: Decimal,
  status: Schema.Literals(["pending", "settled", "none"]),
  settledAt: Schema.NullOr(Instant),
  /** The rolling reserve is released to `available` this many days after completion. */
  reserveReleaseDays: Schema.Int,
  reserveReleasedAt: Schema.NullOr(Instant),
  /**
   * USD of this payment's net that its claims (refunds, chargebacks) took from `pending` before
   * it settled; the settlement moves the rest (`Shares.pendingShare`).
   */
  pendingTaken: DecimalOrZero,
  /** USD of this payment's rolling reserve that its claims took before its release. */
  reserveTaken: DecimalOrZero
})
export type Settlement = typeof Settlement.Type

/**
 * One try of the routing cascade on one provider, with the idempotency key the provider sees.
 * `in_flight` is written ahead, before the call: after a crash the same provider is asked again
 * with the same key.
 */
/** Why the attempt went to its provider: the rule that chose the candidates, the strategy, the circuit, the success-rate draw. */
export const AttemptRouting = Schema.Struct({
  ruleId: Schema.NullOr(Schema.String),
  strategy: Schema.Literals(["static", "health", "success_rate"]),
  circuit: Schema.Literals(["closed", "open", "half_open"]),
  score: Schema.NullOr(Schema.Finite)
})

export const Attempt = Schema.Struct({
  provider: Schema.String,
  /**
   * `unknown`: the provider gave no answer about the charge (reason `OutcomeUnknown`); it
   * may hold it, so it is asked again with the same key before any other provider is tried.
   */
  outcome: Schema.Literals(["in_flight", "accepted", "failed", "declined", "unknown"]),
  latencyMs: Schema.Number,
  reason: Schema.NullOr(Schema.String),
  at: Instant,
  /** Absent on attempts made before routing recorded its reasons, and on resumed ones. */
  routing: Schema.optionalKey(AttemptRouting),
  /**
   * On a card payment's attempt: the normalized decline (`core/ports/CardDeclines.ts`) the
   * provider's refusal named, null when it named none (accepted, in flight, a code outside the
   * vocabulary). Absent on other rails' attempts and on records older than it.
   */
  decline: Schema.optionalKey(Schema.NullOr(CardDecline)),
  /**
   * `required`: the engine's one retry on the same provider with 3-D Secure after an
   * `authentication_required` decline (`ThreeDSecure.ts`), sent with its own upstream key
   * `<transactionId>:<providerId>:3ds`. Absent on every other attempt.
   */
  threeDSecure: Schema.optionalKey(Schema.Literal("required"))
})
export type Attempt = typeof Attempt.Type

/** A provider routing passed over, never called (`core/routing/Skips.ts`). */
export const SkippedProvider = Schema.Struct({
  provider: Schema.String,
  reason: Schema.Literals(skipReasons),
  missingFields: Schema.optionalKey(Schema.Array(Schema.String))
})

/**
 * The card a card-rail payment was charged with, as its vault token described it when the
 * payment was created: never its number or security code (only the vault holds those). The
 * holder's name is buyer data.
 */
export const PaymentCard = Schema.Struct({
  token: Schema.String,
  brand: CardBrand,
  bin: Schema.String,
  last4: Schema.String,
  expMonth: Schema.Int,
  expYear: Schema.Int,
  fingerprint: Schema.String,
  holderName: Schema.RedactedFromValue(Schema.String)
})
export type PaymentCard = typeof PaymentCard.Type

/**
 * What the buyer must do before a pending charge can go on (`ChargeAccepted.nextAction`): go to
 * `url`, a 3-D Secure challenge, and come back through the engine's return page. Kept while the
 * payment is pending; a final payment has none (`PaymentState.advance`).
 */
export const PaymentNextAction = Schema.Struct({
  type: Schema.Literal("redirect_to_url"),
  url: Schema.String
})
export type PaymentNextAction = typeof PaymentNextAction.Type

/**
 * A capture or a void of an authorization, written ahead (`in_flight`) with the idempotency key
 * the provider sees before the provider is called (`core/payments/Capture.ts`). `unknown`: the
 * provider gave no answer; only the same call with the same key can settle it.
 */
export const AuthorizationOperation = Schema.Struct({
  kind: Schema.Literals(["capture", "void"]),
  /** What is captured, in the payment's local currency (a void: the authorized amount). */
  amountLocal: Decimal,
  idempotencyKey: Schema.String,
  outcome: Schema.Literals(["in_flight", "unknown", "failed", "declined", "succeeded"]),
  reason: Schema.NullOr(Schema.String),
  at: Instant
})
export type AuthorizationOperation = typeof AuthorizationOperation.Type

/**
 * A card payment made with `capture: false`: the provider is asked to authorize only. The
 * payment keeps what was authorized (its `amountLocal` and `amount` become what is captured,
 * so that refunds and settlement see the captured amount), until when the provider holds it, and
 * the capture or void written ahead, if any.
 */
export const PaymentAuthorization = Schema.Struct({
  amountLocal: Decimal,
  amountUsd: Decimal,
  /** Null until the provider answered the authorization (its window from then). */
  expiresAt: Schema.NullOr(Instant),
  operation: Schema.NullOr(AuthorizationOperation)
})
export type PaymentAuthorization = typeof PaymentAuthorization.Type

const Rate = Schema.Struct({ currency: Schema.String, midPerUsd: Decimal, rate: Decimal })

/** The FX this payment used, kept with it. */
export const PaymentFx = Schema.Struct({
  /** Presentment currency -> USD, when the merchant sent another currency. */
  presentment: Schema.NullOr(Rate),
  /** USD -> the rail's local currency. */
  local: Rate,
  markupPct: Decimal
})
export type PaymentFx = typeof PaymentFx.Type

export const Payment = Schema.Struct({
  id: Schema.String,
  environment: Environment,
  merchantId: Schema.String,
  shopId: Schema.String,
  status: PaymentRecordStatus,
  /** USD headline. */
  amount: Decimal,
  inputCurrency: Schema.NullOr(Schema.String),
  inputAmount: Schema.NullOr(Decimal),
  amountLocal: Decimal,
  currencyLocal: Schema.String,
  paymentMethodId: Schema.String,
  method: Schema.String,
  methodName: Schema.String,
  channel: Channel,
  /** ISO-3. */
  country: Schema.String,
  provider: Schema.String,
  providerRef: Schema.String,
  paymentFormUrl: Schema.String,
  paymentData: Schema.Record(Schema.String, Schema.Unknown),
  fees: Fees,
  settlement: Settlement,
  fx: PaymentFx,
  attempts: Schema.Array(Attempt),
  /** The providers routing passed over when the payment was created, with why; absent when none (and on older records). */
  skipped: Schema.optionalKey(Schema.Array(SkippedProvider)),
  merchantOrderId: Schema.NullOr(Schema.String),
  tag1: Schema.NullOr(Schema.String),
  tag2: Schema.NullOr(Schema.String),
  tag3: Schema.NullOr(Schema.String),
  userName: BuyerTextOrNull,
  userEmail: BuyerTextOrNull,
  userPhone: BuyerTextOrNull,
  userIp: Schema.NullOr(Schema.String),
  /** A card rail's card (`PaymentCard`); absent on every other rail, on a sandbox card payment made without one, and on older records. */
  card: Schema.optionalKey(PaymentCard),
  /** A card payment made in instalments (`Installments.ts`); absent otherwise and on older records. */
  installments: Schema.optionalKey(PaymentInstallments),
  /** Present when the payment was created with `capture: false` (`PaymentAuthorization`). */
  authorization: Schema.optionalKey(PaymentAuthorization),
  hostedCheckout: Schema.Boolean,
  /**
   * The capability of the payment's hosted link (`/c/{id}?token=`, `PaymentView.checkoutUrlOf`):
   * random, 24 bytes; the id alone opens nothing. Payments written before it existed have none,
   * and their link answers as an unknown one.
   */
  linkToken: Schema.NullOr(Schema.String).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(null))),
  returnUrl: Schema.NullOr(Schema.String),
  /** The step the buyer must take (a 3-D Secure challenge) while the payment is pending; null otherwise and on older records. */
  nextAction: Schema.NullOr(PaymentNextAction).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(null))),
  /** Sandbox only: what the merchant asked to simulate. */
  simulate: Schema.NullOr(SandboxSimulate),
  failureReason: Schema.NullOr(Schema.String),
  expiresAt: Instant,
  createdAt: Instant,
  updatedAt: Instant,
  completedAt: Schema.NullOr(Instant),
  /** Optimistic concurrency: an update names the version it read. */
  version: Schema.Int
})
export type Payment = typeof Payment.Type

export const PaymentJson = Schema.toCodecJson(Payment)

/** What `PaymentJson` writes for a value of type `T`: decimals, instants and non-finite numbers as strings. */
type JsonOf<T> = T extends BigDecimal.BigDecimal | DateTime.Utc ? string
  : T extends Redacted.Redacted<infer A> ? A
  : T extends number ? number | "NaN" | "Infinity" | "-Infinity"
  : T extends ReadonlyArray<infer U> ? ReadonlyArray<JsonOf<U>>
  : T extends object ? { readonly [K in keyof T]: JsonOf<T[K]> }
  : T

const decimal = BigDecimal.format
const instant = DateTime.formatIso
/** `Schema.Number` in JSON: a finite number as is, NaN and the infinities by name. */
const number = (n: number) => Number.isFinite(n) ? n : String(n) as "NaN" | "Infinity" | "-Infinity"
const instantOrNull = (t: DateTime.Utc | null) => t === null ? null : instant(t)
const buyerOrNull = (v: Redacted.Redacted<string> | null) => v === null ? null : Redacted.value(v)
const rate = (r: typeof Rate.Type): JsonOf<typeof Rate.Type> => ({ currency: r.currency, midPerUsd: decimal(r.midPerUsd), rate: decimal(r.rate) })

const authorizationJson = (a: PaymentAuthorization): JsonOf<PaymentAuthorization> => ({
  amountLocal: decimal(a.amountLocal),
  amountUsd: decimal(a.amountUsd),
  expiresAt: instantOrNull(a.expiresAt),
  operation: a.operation === null ? null : { ...a.operation, amountLocal: decimal(a.operation.amountLocal), at: instant(a.operation.at) }
})

/**
 * `Schema.encodeSync(PaymentJson)`, written out: the same document, field for field (a property
 * test holds the two equal, and the return type makes a field added to `Payment` a compile error
 * here). A create writes its payment twice (ahead of the provider call, then its answer), and the
 * schema's generic encoder costs about 100 µs a payment and its garbage, a tenth of the create's
 * CPU on PostgreSQL (`npm run bench`); this costs a few. Reads decode through the schema.
 */
export const encodePaymentJson = (p: Payment): JsonOf<Payment> => ({
  id: p.id,
  environment: p.environment,
  merchantId: p.merchantId,
  shopId: p.shopId,
  status: p.status,
  amount: decimal(p.amount),
  inputCurrency: p.inputCurrency,
  inputAmount: p.inputAmount === null ? null : decimal(p.inputAmount),
  amountLocal: decimal(p.amountLocal),
  currencyLocal: p.currencyLocal,
  paymentMethodId: p.paymentMethodId,
  method: p.method,
  methodName: p.methodName,
  channel: p.channel,
  country: p.country,
  provider: p.provider,
  providerRef: p.providerRef,
  paymentFormUrl: p.paymentFormUrl,
  paymentData: p.paymentData,
  fees: {
    platform: decimal(p.fees.platform),
    platformFlat: decimal(p.fees.platformFlat),
    provider: decimal(p.fees.provider),
    network: decimal(p.fees.network),
    total: decimal(p.fees.total)
  },
  settlement: {
    type: p.settlement.type,
    delay: p.settlement.delay,
    delayDays: p.settlement.delayDays,
    reserve: decimal(p.settlement.reserve),
    status: p.settlement.status,
    settledAt: instantOrNull(p.settlement.settledAt),
    reserveReleaseDays: p.settlement.reserveReleaseDays,
    reserveReleasedAt: instantOrNull(p.settlement.reserveReleasedAt),
    pendingTaken: decimal(p.settlement.pendingTaken),
    reserveTaken: decimal(p.settlement.reserveTaken)
  },
  fx: { presentment: p.fx.presentment === null ? null : rate(p.fx.presentment), local: rate(p.fx.local), markupPct: decimal(p.fx.markupPct) },
  attempts: p.attempts.map((a) => ({
    provider: a.provider,
    outcome: a.outcome,
    latencyMs: number(a.latencyMs),
    reason: a.reason,
    at: instant(a.at),
    ...(a.routing === undefined ? {} : { routing: a.routing }),
    ...(a.decline === undefined ? {} : { decline: a.decline }),
    ...(a.threeDSecure === undefined ? {} : { threeDSecure: a.threeDSecure })
  })),
  ...(p.skipped === undefined ? {} : { skipped: p.skipped }),
  merchantOrderId: p.merchantOrderId,
  tag1: p.tag1,
  tag2: p.tag2,
  tag3: p.tag3,
  userName: buyerOrNull(p.userName),
  userEmail: buyerOrNull(p.userEmail),
  userPhone: buyerOrNull(p.userPhone),
  userIp: p.userIp,
  ...(p.card === undefined ? {} : { card: { ...p.card, holderName: Redacted.value(p.card.holderName) } }),
  ...(p.installments === undefined ? {} : { installments: p.installments }),
  ...(p.authorization === undefined ? {} : { authorization: authorizationJson(p.authorization) }),
  hostedCheckout: p.hostedCheckout,
  linkToken: p.linkToken,
  returnUrl: p.returnUrl,
  nextAction: p.nextAction,
  simulate: p.simulate,
  failureReason: p.failureReason,
  expiresAt: instant(p.expiresAt),
  createdAt: instant(p.createdAt),
  updatedAt: instant(p.updatedAt),
  completedAt: instantOrNull(p.completedAt),
  version: p.version
})
