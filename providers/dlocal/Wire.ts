/**
 * dLocal's Payins API on the wire, as Schemas, its error codes and its status map
 * (https://docs.dlocal.com/reference/create-payment, https://docs.dlocal.com/reference/the-order-object,
 * https://docs.dlocal.com/reference/make-a-refund, https://docs.dlocal.com/reference/the-refund-object,
 * https://docs.dlocal.com/reference/payment-status-codes, https://docs.dlocal.com/reference/http-errors-payments,
 * https://docs.dlocal.com/docs/receive-notifications). The rails are in `Rails.ts`.
 *
 * | call         | request                                          | answer                      |
 * |--------------|--------------------------------------------------|-----------------------------|
 * | charge       | `POST /payments` {@link PaymentBody}             | `200` {@link PaymentObject} |
 * | status       | `GET /payments/{payment_id}`                     | `200` {@link PaymentObject} |
 * | by order     | `GET /orders/{order_id}`                         | `200` {@link OrderObject}   |
 * | refund       | `POST /refunds` {@link RefundBody}               | `200` {@link RefundObject}  |
 * | refund by id | `GET /refunds/{refund_id}`                       | `200` {@link RefundObject}  |
 * | refund by ours | `GET /orders/{order_refund_id}`                | `200` {@link RefundObject} (see README, "Not confirmed") |
 * | notification | dLocal `POST`s the {@link PaymentObject}, signed | `2xx`                       |
 * | refund notification | dLocal `POST`s the {@link RefundObject} to the refund's `notification_url`, signed | `2xx` |
 * | errors       | `4xx/5xx` `{ code, message, param? }`            |                             |
 *
 * Amounts are JSON numbers in major units of `currency`; the connector writes them from decimal
 * text (`UpstreamHttp.JsonDecimal`) and never reads one back into arithmetic. Statuses are read
 * as plain strings, so one dLocal adds later still decodes, and maps to `pending`.
 */
import { Schema } from "effect"
import type { ChargeStatus, ChargeUpdate, RefundStatus } from "../../core/ports/PaymentProvider.ts"
import { type StatusMap, statusOf } from "../kit/StatusMap.ts"

/**
 * dLocal's error codes the connector reads (https://docs.dlocal.com/reference/http-errors-payments).
 * The names `countryNotSupported`, `currencyNotAllowed` and `methodNotAvailable` are read by the
 * shared `Client.ts`, which makes them `Misconfigured` (this account cannot, another provider may).
 */
export const errorCodes = {
  invalidCredentials: "3001", // 403
  unregisteredIp: "3002", // 403
  apiNotAuthorized: "3003", // 403
  paymentNotFound: "4000", // 404
  invalidRequest: "5000",
  missingParameter: "5001",
  invalidTransactionStatus: "5002",
  countryNotSupported: "5003",
  currencyNotAllowed: "5004",
  userUnauthorized: "5005", // cadastral situation
  userLimitExceeded: "5006",
  amountExceeded: "5007",
  orderIdDuplicated: "5009",
  methodNotAvailable: "5010", // also 504 "Request Timeout"
  orderRefundIdDuplicated: "5011", // refunds: "Order refund id is duplicated"
  insufficientFunds: "5012", // refunds"
  unsupportedOperation: "5013",
  userBlacklisted: "5014",
  amountTooLow: "5016",
  invalidApiVersion: "5017",
  chargebackInPlace: "5018",
  acquirerCouldNotProcess: "5021",
  tooManyRequests: "6000", // 429
  failedToProcess: "7000" // 500
} as const

/**
 * Codes under a 4xx that say nothing about the charge itself, so the next provider may try it:
 * our own API version (a misconfiguration, like refused credentials) and an acquirer that could not
 * process the request (its outage, which left nothing). 403s, 429, 5xx and the "this account
 * cannot" codes are already read so in `Client.ts`; every other 4xx code (invalid or refused
 * buyer, limits, duplicate, unsupported operation...) is `Declined`.
 */
export const notAboutTheCharge: ReadonlyMap<string, "Misconfigured" | "Failed"> = new Map([
  [errorCodes.invalidApiVersion, "Misconfigured"],
  [errorCodes.acquirerCouldNotProcess, "Failed"]
])

const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(4096)))
const Id = Schema.NonEmptyString.pipe(Schema.check(Schema.isMaxLength(200)))
const HttpUrl = Schema.String.pipe(Schema.check(Schema.isPattern(/^https?:\/\/[^\s]+$/)))

/** `POST /payments`, as the simulator checks it (`amount` is read from the raw text as well). */
export const PaymentBody = Schema.Struct({
  amount: Schema.Number,
  currency: Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Z]{3}$/))),
  country: Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Z]{2}$/))),
  /** Absent in dLocal's checkout (`REDIRECT`: the buyer picks the method on dLocal's page). */
  payment_method_id: Schema.optionalKey(Schema.NonEmptyString),
  payment_method_flow: Schema.Literals(["DIRECT", "REDIRECT"]),
  /** The payer object; which fields a country requires is checked apart (the simulator's 5001). */
  payer: Schema.Struct({
    name: Schema.optionalKey(Schema.String),
    email: Schema.optionalKey(Schema.String),
    document: Schema.optionalKey(Schema.String),
    phone: Schema.optionalKey(Schema.String),
    ip: Schema.optionalKey(Schema.String),
    user_reference: Schema.optionalKey(Schema.String),
    address: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
  }),
  order_id: Schema.NonEmptyString,
  description: Schema.optionalKey(Schema.String),
  notification_url: Schema.optionalKey(HttpUrl),
  /** Where dLocal sends the buyer back after the payment page (optional). */
  callback_url: Schema.optionalKey(HttpUrl)
})
export type PaymentBody = typeof PaymentBody.Type

/** The payment object: the answer to `POST /payments` and `GET /payments/{id}`, and every notification. */
export const PaymentObject = Schema.Struct({
  id: Id,
  order_id: Id,
  status: Text,
  status_code: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number])),
  status_detail: Schema.optionalKey(Text),
  /** Where dLocal notifies this payment's changes (the one the charge named). */
  notification_url: Schema.optionalKey(Schema.String),
  redirect_url: Schema.optionalKey(HttpUrl),
  ticket: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})
export type PaymentObject = typeof PaymentObject.Type

/** `GET /orders/{order_id}`: not the payment object, its `payment_id` names the payment. */
export const OrderObject = Schema.Struct({
  order_id: Id,
  payment_id: Id,
  status: Text,
  status_detail: Schema.optionalKey(Text)
})
export type OrderObject = typeof OrderObject.Type

/**
 * `POST /refunds`, as the simulator checks it (https://docs.dlocal.com/api-documentation/payins-api-reference/refunds).
 * Only `payment_id` is always there: without `amount` and `currency` (each required with the
 * other) the whole payment is refunded. `notification_url` is marked required on the page, but
 * dLocal's own Postman collection sends refunds without it, so it is optional here.
 * `order_refund_id` is "ID given by the merchant in their system" (125).
 */
export const RefundBody = Schema.Struct({
  payment_id: Schema.NonEmptyString,
  amount: Schema.optionalKey(Schema.Number),
  currency: Schema.optionalKey(Schema.String),
  order_refund_id: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(125)))),
  description: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(200)))),
  notification_url: Schema.optionalKey(Schema.NullOr(HttpUrl)),
  custom_merchant_name: Schema.optionalKey(Schema.String)
})
export type RefundBody = typeof RefundBody.Type

/**
 * The refund object (https://docs.dlocal.com/reference/the-refund-object): the answer to
 * `POST /refunds` and `GET /refunds/{id}`, and the body of a refund notification. `status` is
 * `PENDING` (100), `SUCCESS` (200), `REJECTED` (300) or `CANCELLED` (400); `amount` is always in
 * local currency.
 */
export const RefundObject = Schema.Struct({
  id: Id,
  payment_id: Schema.optionalKey(Schema.String),
  status: Text,
  status_code: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number])),
  status_detail: Schema.optionalKey(Text),
  amount: Schema.optionalKey(Schema.Number),
  currency: Schema.optionalKey(Schema.String),
  order_refund_id: Schema.optionalKey(Schema.String),
  notification_url: Schema.optionalKey(Schema.String)
})
export type RefundObject = typeof RefundObject.Type

/**
 * The refund statuses dLocal documents (https://docs.dlocal.com/reference/refund-status-codes,
 * https://docs.dlocal.com/reference/the-refund-object):
 * `PENDING` (100), `SUCCESS` (200), `REJECTED` (300), `CANCELLED` (400).
 */
export const DocumentedRefundStatus = Schema.Literals(["PENDING", "SUCCESS", "REJECTED", "CANCELLED"])
export type DocumentedRefundStatus = typeof DocumentedRefundStatus.Type
export const refundStatuses = DocumentedRefundStatus.literals

/**
 * A dLocal refund status as the engine's: only `SUCCESS` is money paid back; `REJECTED` and
 * `CANCELLED` ("the refund period has expired and is therefore automatically cancelled") end it
 * unpaid; `PENDING` and anything unknown are pending.
 */
export const refundStatusMap = {
  PENDING: "pending",
  SUCCESS: "succeeded",
  REJECTED: "failed",
  CANCELLED: "failed"
} satisfies StatusMap<typeof DocumentedRefundStatus, RefundStatus>

export const toRefundStatus = (status: string): RefundStatus =>
  statusOf(refundStatusMap, status.trim().toUpperCase(), "pending")

/**
 * dLocal's payment statuses: `PENDING`, `PAID`, `REJECTED`, `CANCELLED`, `AUTHORIZED` and `VERIFIED`
 * with their codes on https://docs.dlocal.com/reference/payment-status-codes; `EXPIRED`,
 * `REFUNDED` and `CHARGEBACK` are in the payment object's status list, not on that page (README,
 * "Not confirmed"):
 *
 * | dLocal       | code | engine       | why                                                           |
 * |--------------|------|--------------|---------------------------------------------------------------|
 * | `PAID`       | 200  | `completed`  | the buyer paid                                                |
 * | `REJECTED`   | 3xx  | `failed`     | refused (the code says why)                                   |
 * | `CANCELLED`  | 400  | `failed`     | cancelled before payment                                      |
 * | `EXPIRED`    |      | `expired`    | the voucher / QR lapsed unpaid                                |
 * | `REFUNDED`   |      | `refunded`   | dLocal's word about a refund the engine made                  |
 * | `CHARGEBACK` |      | `chargeback` | the buyer's bank disputes it                                  |
 * | `PENDING`    | 100  | `pending`    | waiting for the buyer                                         |
 * | `AUTHORIZED` | 600  | `pending`    | a card authorization not captured yet: not money              |
 * | `VERIFIED`   | 700  | `pending`    | a card verified (zero amount): not a payment                  |
 * | anything else|      | `pending`    | only an explicit word moves a payment                         |
 *
 * AUTHORIZED and VERIFIED are card states (the rails here are not cards); neither means the
 * money was taken, so neither completes a payment.
 */
export const DocumentedPaymentStatus = Schema.Literals(["PENDING", "PAID", "REJECTED", "CANCELLED", "EXPIRED", "REFUNDED", "CHARGEBACK", "AUTHORIZED", "VERIFIED"])
export type DocumentedPaymentStatus = typeof DocumentedPaymentStatus.Type
export const paymentStatuses = DocumentedPaymentStatus.literals

export const paymentStatusMap = {
  PENDING: "pending",
  PAID: "completed",
  REJECTED: "failed",
  CANCELLED: "failed",
  EXPIRED: "expired",
  REFUNDED: "refunded",
  CHARGEBACK: "chargeback",
  AUTHORIZED: "pending",
  VERIFIED: "pending"
} satisfies StatusMap<typeof DocumentedPaymentStatus, ChargeUpdate["status"]>

export const toUpdateStatus = (status: string): ChargeUpdate["status"] =>
  statusOf(paymentStatusMap, status.trim().toUpperCase(), "pending")

/** The status of a charge just created (a refund or chargeback cannot be one yet). */
export const toChargeStatus = (status: string): ChargeStatus => {
  const mapped = toUpdateStatus(status)
  return mapped === "completed" || mapped === "failed" || mapped === "expired" ? mapped : "pending"
}
