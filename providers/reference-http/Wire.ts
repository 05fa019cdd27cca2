/**
 * The wire format of the reference upstream payment API, as Schemas, and its status mapping.
 *
 * | call     | request                                                   | answer                                    |
 * |----------|-----------------------------------------------------------|-------------------------------------------|
 * | charge   | `POST /v1/charges` {@link ChargeBody}                     | `201` {@link ChargeCreated}               |
 * | status   | `GET /v1/charges/{id}`                                    | `200` {@link ChargeState}                 |
 * | refund   | `POST /v1/refunds` {@link RefundBody}                     | `201` {@link RefundCreated}               |
 * | refunds  | `GET /v1/refunds?reference=<refund reference>`           | `200` {@link RefundList}                  |
 * | callback | upstream `POST`s {@link CallbackEvent} or an array of them | signed `x-upstream-signature`            |
 * | errors   | any call                                                  | `4xx/5xx` `{ error?, message? }` (maybe)   |
 *
 * Every call carries `Authorization: Bearer <apiKey>`; the POSTs carry `Idempotency-Key`.
 * Amounts travel as decimal text in major units ("150.5"), never as JSON numbers.
 *
 * Upstream statuses are read as plain strings, so a status this plugin has never seen still
 * decodes, and maps to `pending`: only an explicit success or failure moves a payment.
 */
import { Schema } from "effect"
import type { ChargeStatus, ChargeUpdate, RefundStatus } from "../../core/ports/PaymentProvider.ts"
import { type StatusMap, statusOf } from "../kit/StatusMap.ts"

/** An absolute `http:` or `https:` URL (the buyer is sent there; anything else is refused). */
const HttpUrl = Schema.String.pipe(Schema.check(Schema.isPattern(/^https?:\/\/[^\s]+$/)))

const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(4096)))

export const ChargeBody = Schema.Struct({
  reference: Schema.String,
  amount: Schema.String,
  currency: Schema.String,
  country: Schema.String,
  method: Schema.String,
  method_id: Schema.String,
  customer: Schema.Struct({
    name: Schema.optionalKey(Schema.String),
    email: Schema.optionalKey(Schema.String),
    document: Schema.optionalKey(Schema.String),
    phone: Schema.optionalKey(Schema.String),
    ip: Schema.optionalKey(Schema.String)
  }),
  expires_at: Schema.String,
  callback_url: Schema.String,
  simulate: Schema.optionalKey(Schema.String)
})
export type ChargeBody = typeof ChargeBody.Type

export const ChargeCreated = Schema.Struct({
  id: Schema.NonEmptyString,
  status: Text,
  form_url: HttpUrl,
  payment_data: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})

export const ChargeState = Schema.Struct({
  id: Schema.NonEmptyString,
  reference: Schema.optionalKey(Schema.String),
  status: Text,
  reason: Schema.optionalKey(Text)
})

export const RefundBody = Schema.Struct({
  charge_id: Schema.String,
  amount: Schema.String,
  currency: Schema.String,
  reference: Schema.String
})
export type RefundBody = typeof RefundBody.Type

export const RefundCreated = Schema.Struct({
  id: Schema.NonEmptyString,
  status: Schema.optionalKey(Text)
})

/** The refunds made with one `reference`: none, or the one. */
export const RefundList = Schema.Struct({ data: Schema.Array(RefundCreated) })

export const CallbackEvent = Schema.Struct({
  id: Schema.NonEmptyString,
  reference: Schema.String,
  status: Text,
  reason: Schema.optionalKey(Text),
  /** The charge's refunds as they stand (a callback after a refund moved lists them). */
  refunds: Schema.optionalKey(Schema.Array(RefundCreated).pipe(Schema.check(Schema.isMaxLength(100))))
})
export type CallbackEvent = typeof CallbackEvent.Type

/** A callback carries one event or a batch of at most 100. */
export const CallbackPayload = Schema.Union([
  CallbackEvent,
  Schema.Array(CallbackEvent).pipe(Schema.check(Schema.isMaxLength(100)))
])

/** The header that carries `t=<unix seconds>,v1=<hex hmac-sha256 of "<t>.<raw body>">`. */
export const signatureHeader = "x-upstream-signature"

/** The charge statuses the reference upstream documents (its README, "Status map"). */
export const DocumentedChargeStatus = Schema.Literals([
  "pending",
  "requires_action",
  "succeeded",
  "paid",
  "failed",
  "declined",
  "canceled",
  "expired",
  "chargeback",
  "disputed",
  "dispute_won",
  "chargeback_won",
  "dispute_lost",
  "chargeback_lost",
  "refunded"
])
export type DocumentedChargeStatus = typeof DocumentedChargeStatus.Type
export const chargeStatuses = DocumentedChargeStatus.literals

/** Upstream status -> engine status. Anything not listed is `pending`, never a success. */
export const chargeStatusMap = {
  pending: "pending",
  requires_action: "pending",
  succeeded: "completed",
  paid: "completed",
  failed: "failed",
  declined: "failed",
  canceled: "failed",
  expired: "expired",
  chargeback: "chargeback",
  disputed: "chargeback",
  dispute_won: "chargeback_won",
  chargeback_won: "chargeback_won",
  dispute_lost: "chargeback_lost",
  chargeback_lost: "chargeback_lost",
  refunded: "refunded"
} satisfies StatusMap<typeof DocumentedChargeStatus, ChargeUpdate["status"]>

/** The status of a callback or status poll. */
export const toUpdateStatus = (upstream: string): ChargeUpdate["status"] =>
  statusOf(chargeStatusMap, upstream, "pending")

/**
 * The status of a charge just created. A new charge cannot be disputed or refunded; if the
 * upstream says so anyway, the charge is `pending` and the status poll will tell the truth.
 */
export const toChargeStatus = (upstream: string): ChargeStatus => {
  const status = toUpdateStatus(upstream)
  return status === "chargeback" || status === "chargeback_won" || status === "chargeback_lost" || status === "refunded" ? "pending" : status
}

/** The reference upstream's refund statuses (its README, "Status map"). */
export const DocumentedRefundStatus = Schema.Literals(["pending", "succeeded", "failed"])
export type DocumentedRefundStatus = typeof DocumentedRefundStatus.Type
export const refundStatuses = DocumentedRefundStatus.literals

export const refundStatusMap = {
  pending: "pending",
  succeeded: "succeeded",
  failed: "failed"
} satisfies StatusMap<typeof DocumentedRefundStatus, RefundStatus>

/** The reference upstream's refund status; none or unknown is pending. */
export const toRefundStatus = (status: string | undefined): RefundStatus => statusOf(refundStatusMap, status, "pending")
