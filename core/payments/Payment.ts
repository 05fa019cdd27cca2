/**
 * The payment (transaction) record, as the engine keeps it. The schema is the source of truth:
 * the type comes from it, and `Schema.toCodecJson(Payment)` is how a store serialises it
 * (decimals as strings, instants as ISO 8601).
 */
import { BigDecimal, Effect, Schema } from "effect"
import { Channel } from "../catalog/Channel.ts"
import { Environment } from "../Environment.ts"
import { SandboxSimulate } from "../ports/PaymentProvider.ts"
import { PaymentRecordStatus } from "./PaymentState.ts"

const Decimal = Schema.BigDecimal
const Instant = Schema.DateTimeUtc
/** A decimal that documents written before the field existed decode as 0. */
const DecimalOrZero = Decimal.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(BigDecimal.fromBigInt(0n))))

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
  outcome: Schema.Literals(["in_flight", "accepted", "failed", "declined"]),
  latencyMs: Schema.Number,
  reason: Schema.NullOr(Schema.String),
  at: Instant,
  /** Absent on attempts made before routing recorded its reasons, and on resumed ones. */
  routing: Schema.optionalKey(AttemptRouting)
})
export type Attempt = typeof Attempt.Type

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
  merchantOrderId: Schema.NullOr(Schema.String),
  tag1: Schema.NullOr(Schema.String),
  tag2: Schema.NullOr(Schema.String),
  tag3: Schema.NullOr(Schema.String),
  userName: Schema.NullOr(Schema.String),
  userEmail: Schema.NullOr(Schema.String),
  userPhone: Schema.NullOr(Schema.String),
  userIp: Schema.NullOr(Schema.String),
  hostedCheckout: Schema.Boolean,
  returnUrl: Schema.NullOr(Schema.String),
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
