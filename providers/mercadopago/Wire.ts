/**
 * The wire format of Mercado Pago's Payments API as the connector uses it, as Schemas (only the
 * fields read or validated), and the status map.
 *
 * | call         | request                                                       | answer                    |
 * |--------------|---------------------------------------------------------------|---------------------------|
 * | charge       | `POST /v1/payments` {@link PaymentBody}, `X-Idempotency-Key`  | `201` {@link Payment}     |
 * | status       | `GET /v1/payments/{id}`                                       | `200` {@link Payment}     |
 * | refund       | `POST /v1/payments/{id}/refunds` `{ amount? }`, `X-Idempotency-Key` | `201` {@link Refund} |
 * | notification | Mercado Pago `POST`s {@link Notification}                     | `x-signature`, `x-request-id` |
 * | errors       | any call                                                      | {@link ErrorBody}         |
 *
 * Every call carries `Authorization: Bearer <access token>`. Ids are JSON numbers
 * (`"id": 1234567890`), read as text. Statuses are read as plain strings, so a status this
 * connector has never seen still decodes, and maps to `pending`.
 */
import { Schema } from "effect"
import { Money } from "../../core/ports/index.ts"
import type { ChargeStatus, ChargeUpdate, RefundStatus } from "../../core/ports/PaymentProvider.ts"
import { type StatusMap, statusOf } from "../kit/StatusMap.ts"

const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(4096)))

/** A Mercado Pago id: a JSON number (payments, refunds) or, in notifications, a string. */
export const Id = Schema.Union([Schema.Int, Schema.NonEmptyString.pipe(Schema.check(Schema.isMaxLength(64)))])
export const idText = (id: typeof Id.Type): string => String(id)

/** An absolute `http:` or `https:` URL (the buyer is sent there; anything else is refused). */
const HttpUrl = Schema.String.pipe(Schema.check(Schema.isPattern(/^https?:\/\/[^\s]+$/)))

/**
 * The payer's address as `POST /v1/payments` takes it (`payer.address`). Boleto requires all six
 * fields (BACEN rule, 2024); `street_number` is a string in the official SDK's types and a number
 * in some examples, so both are accepted.
 */
export const PayerAddress = Schema.Struct({
  zip_code: Schema.optionalKey(Schema.String),
  street_name: Schema.optionalKey(Schema.String),
  street_number: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number])),
  neighborhood: Schema.optionalKey(Schema.String),
  city: Schema.optionalKey(Schema.String),
  federal_unit: Schema.optionalKey(Schema.String)
})
export type PayerAddress = typeof PayerAddress.Type

/**
 * The body of `POST /v1/payments` as the simulator validates it: what the documentation's minimal
 * PIX body and the official SDK send is accepted (`transaction_amount`, `payment_method_id`,
 * `payer.email`; the rest optional). `transaction_amount` is a JSON number in major units,
 * decoded through its decimal text (`Money.Amount`), never a float sum.
 */
export const PaymentBody = Schema.Struct({
  transaction_amount: Money.Amount,
  description: Schema.optionalKey(Schema.String),
  payment_method_id: Schema.NonEmptyString,
  external_reference: Schema.optionalKey(Schema.String),
  notification_url: Schema.optionalKey(Schema.String),
  date_of_expiration: Schema.optionalKey(Schema.String),
  payer: Schema.Struct({
    email: Schema.NonEmptyString,
    first_name: Schema.optionalKey(Schema.String),
    last_name: Schema.optionalKey(Schema.String),
    entity_type: Schema.optionalKey(Schema.String),
    identification: Schema.optionalKey(Schema.Struct({ type: Schema.NonEmptyString, number: Schema.NonEmptyString })),
    address: Schema.optionalKey(PayerAddress),
    phone: Schema.optionalKey(Schema.Struct({ area_code: Schema.optionalKey(Schema.String), number: Schema.optionalKey(Schema.String) }))
  }),
  transaction_details: Schema.optionalKey(Schema.Struct({ financial_institution: Schema.optionalKey(Schema.String) })),
  callback_url: Schema.optionalKey(Schema.String),
  additional_info: Schema.optionalKey(Schema.Struct({ ip_address: Schema.optionalKey(Schema.String) }))
})
export type PaymentBody = typeof PaymentBody.Type

/** A refund as `POST` / `GET /v1/payments/{id}/refunds[/{refund_id}]` answer it (fields used). */
export const Refund = Schema.Struct({
  id: Id,
  payment_id: Schema.optionalKey(Id),
  amount: Schema.optionalKey(Schema.NullOr(Money.Amount)),
  status: Schema.optionalKey(Schema.NullOr(Text))
})
export type Refund = typeof Refund.Type
/** A payment as `POST /v1/payments` and `GET /v1/payments/{id}` answer it (fields used). */
export const Payment = Schema.Struct({
  id: Id,
  status: Text,
  status_detail: Schema.optionalKey(Schema.NullOr(Text)),
  external_reference: Schema.optionalKey(Schema.NullOr(Text)),
  payment_method_id: Schema.optionalKey(Schema.NullOr(Text)),
  transaction_amount: Schema.optionalKey(Money.Amount),
  transaction_amount_refunded: Schema.optionalKey(Money.Amount),
  // The payment's refunds as they stand (the SDK's `PaymentResponse.refunds`): a notification
  // about a refund names the payment, and its query says where each refund is.
  refunds: Schema.optionalKey(Schema.NullOr(Schema.Array(Refund))),
  date_of_expiration: Schema.optionalKey(Schema.NullOr(Text)),
  point_of_interaction: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    transaction_data: Schema.optionalKey(Schema.NullOr(Schema.Struct({
      qr_code: Schema.optionalKey(Schema.NullOr(Schema.String)),
      qr_code_base64: Schema.optionalKey(Schema.NullOr(Schema.String)),
      ticket_url: Schema.optionalKey(Schema.NullOr(HttpUrl))
    })))
  }))),
  transaction_details: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    external_resource_url: Schema.optionalKey(Schema.NullOr(HttpUrl)),
    digitable_line: Schema.optionalKey(Schema.NullOr(Text)),
    payment_method_reference_id: Schema.optionalKey(Schema.NullOr(Text)),
    // Where the official SDK's types put the boleto barcode (`TransactionDetails.barcode`).
    barcode: Schema.optionalKey(Schema.NullOr(Schema.Struct({ content: Schema.optionalKey(Schema.NullOr(Text)) })))
  }))),
  // Older answers carry it at the top level; read there when `transaction_details` has none.
  barcode: Schema.optionalKey(Schema.NullOr(Schema.Struct({ content: Schema.optionalKey(Schema.NullOr(Text)) })))
})
export type Payment = typeof Payment.Type

/**
 * The body of `POST /v1/payments/{id}/refunds`: `{ amount }` refunds a part; no body, or a body
 * without `amount` (the official SDK's `total()` sends `{}`), refunds the whole payment.
 */
export const RefundBody = Schema.Struct({ amount: Schema.optionalKey(Money.Amount) })

/** `GET /v1/payments/{id}/refunds`: the payment's refunds. */
export const RefundList = Schema.Array(Refund)

const decodeRefundJson = Schema.decodeUnknownResult(Schema.fromJsonString(Refund))
/** A refund answer's JSON text, decoded (documentation fixtures, tests). */
export const decodeRefundText = (text: string) => decodeRefundJson(text)

/**
 * The refund statuses the connector reads: `approved` and `in_process` are documented (the refund
 * answer's `status`, https://mercadopago.com.br/developers/en/reference/chargebacks/_payments_id_refunds/post
 * and the Pix refund page, https://mercadopago.com.br/developers/es/docs/checkout-api/payment-management/cancellations-and-refunds/refund-pix);
 * `pending`, `authorized`, `rejected` and `cancelled` are read defensively (the SDK's refund
 * `status` is an untyped string, "e.g. `approved`, `in_process`"; README, "Not confirmed").
 */
export const DocumentedRefundStatus = Schema.Literals(["approved", "in_process", "pending", "authorized", "rejected", "cancelled"])
export type DocumentedRefundStatus = typeof DocumentedRefundStatus.Type
export const refundStatuses = DocumentedRefundStatus.literals

/**
 * A Mercado Pago refund status as the engine's: `approved` is money paid back; `rejected` and
 * `cancelled` will not happen (the money stays the shop's); `in_process`, `pending`,
 * `authorized`, a missing status and anything unknown wait (never a success).
 */
export const refundStatusMap = {
  approved: "succeeded",
  in_process: "pending",
  pending: "pending",
  authorized: "pending",
  rejected: "failed",
  cancelled: "failed"
} satisfies StatusMap<typeof DocumentedRefundStatus, RefundStatus>

export const toRefundStatus = (status: string | null | undefined): RefundStatus =>
  statusOf(refundStatusMap, status?.trim().toLowerCase(), "pending")

/** `{ message, error, status, cause: [{ code, description }] }`. */
export const ErrorBody = Schema.Struct({
  message: Schema.optionalKey(Schema.NullOr(Schema.String)),
  error: Schema.optionalKey(Schema.NullOr(Schema.String)),
  status: Schema.optionalKey(Schema.Union([Schema.Number, Schema.String])),
  cause: Schema.optionalKey(Schema.NullOr(Schema.Array(Schema.Struct({
    code: Schema.optionalKey(Schema.NullOr(Schema.Union([Schema.Number, Schema.String]))),
    description: Schema.optionalKey(Schema.NullOr(Schema.String))
  }))))
})
export type ErrorBody = typeof ErrorBody.Type

/**
 * A Webhooks notification: `{ action, api_version, type, data: { id }, id, live_mode, ... }`. It
 * names a resource and carries no status: the connector asks `GET /v1/payments/{data.id}`.
 */
export const Notification = Schema.Struct({
  action: Schema.optionalKey(Text),
  type: Schema.optionalKey(Text),
  data: Schema.Struct({ id: Id })
})

export const signatureHeader = "x-signature"
export const requestIdHeader = "x-request-id"

/**
 * The signed manifest of a notification: `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`, with
 * `data.id` exactly as sent (Mercado Pago signs its original casing: the official SDKs stopped
 * lowercasing it, sdk-nodejs PR #439) and a pair left out when its value is absent, as the docs say.
 */
export const manifestOf = (dataId: string | undefined, requestId: string | undefined, ts: string): string =>
  [
    ...(dataId === undefined || dataId === "" ? [] : [`id:${dataId}`]),
    ...(requestId === undefined || requestId === "" ? [] : [`request-id:${requestId}`]),
    `ts:${ts}`
  ].join(";") + ";"

/**
 * Mercado Pago payment status -> engine status, for the statuses Mercado Pago documents
 * (https://mercadopago.com.mx/developers/en/docs/checkout-api/response-handling/query-results ,
 * https://www.mercadopago.com.mx/developers/en/docs/checkout-api-payments/response-handling/collection-results.md).
 * Anything not listed is `pending`, never a success.
 *
 * - `pending` (waiting for the buyer: PIX not yet paid, voucher not yet paid), `in_process` (under
 *   review) and `authorized` (authorized, not captured: no money moved) are `pending`.
 * - `approved` is the only success: `completed`.
 * - `rejected` is `failed`; `cancelled` is `failed`, or `expired` when its `status_detail` is
 *   `expired` (a PIX, boleto or voucher not paid before `date_of_expiration`).
 * - `refunded` is `refunded` (refunds are driven by the engine's own flow).
 * - `charged_back` (a chargeback on the payment) and `in_mediation` (the buyer opened a dispute;
 *   Mercado Pago holds the money until it is decided) are `chargeback`: the money is no longer
 *   the merchant's to spend. Their outcome is not told by the payment status (a mediation won
 *   goes back to `approved`): see the README.
 */
export const DocumentedPaymentStatus = Schema.Literals([
  "pending",
  "in_process",
  "authorized",
  "approved",
  "rejected",
  "cancelled",
  "refunded",
  "charged_back",
  "in_mediation"
])
export type DocumentedPaymentStatus = typeof DocumentedPaymentStatus.Type
export const paymentStatuses = DocumentedPaymentStatus.literals

export const paymentStatusMap = {
  pending: "pending",
  in_process: "pending",
  authorized: "pending",
  approved: "completed",
  rejected: "failed",
  cancelled: "failed",
  refunded: "refunded",
  charged_back: "chargeback",
  in_mediation: "chargeback"
} satisfies StatusMap<typeof DocumentedPaymentStatus, ChargeUpdate["status"]>

/** The status of a notification's query or of the status poll. */
export const toUpdateStatus = (status: string, statusDetail?: string | null): ChargeUpdate["status"] => {
  if (status === "cancelled" && statusDetail === "expired") return "expired"
  return statusOf(paymentStatusMap, status, "pending")
}

/** The status of a payment just created: a new payment cannot be disputed or refunded. */
export const toChargeStatus = (status: string, statusDetail?: string | null): ChargeStatus => {
  const update = toUpdateStatus(status, statusDetail)
  return update === "completed" || update === "failed" || update === "expired" ? update : "pending"
}
