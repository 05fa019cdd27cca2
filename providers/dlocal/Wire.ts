/**
 * dLocal's Payins API on the wire, as Schemas, its rails and its status map
 * (https://docs.dlocal.com/api-documentation/payins-api-reference/payments,
 * https://docs.dlocal.com/api-documentation/payins-api-reference/payments/pix-payments,
 * https://docs.dlocal.com/api-documentation/payins-api-reference/payment-methods/mexico,
 * https://docs.dlocal.com/reference/payment-method-object, https://docs.dlocal.com/reference/http-errors-payments).
 *
 * | call         | request                                          | answer                     |
 * |--------------|--------------------------------------------------|----------------------------|
 * | charge       | `POST /payments` {@link PaymentBody}             | `200` {@link PaymentObject} |
 * | status       | `GET /payments/{payment_id}`                     | `200` {@link PaymentObject} |
 * | by order     | `GET /orders/{order_id}`                         | `200` {@link PaymentObject} |
 * | refund       | `POST /refunds` {@link RefundBody}               | `200` {@link RefundObject}  |
 * | notification | dLocal `POST`s the {@link PaymentObject}, signed | `200`                      |
 * | errors       | `4xx/5xx` `{ code, message, param? }`            |                            |
 *
 * Amounts are JSON numbers in major units of `currency`, written from decimal text
 * (`UpstreamHttp.JsonDecimal`). Statuses are read as plain strings so one dLocal adds later still
 * decodes, and maps to `pending`.
 */
import { Schema } from "effect"
import type { ChargeStatus, ChargeUpdate } from "../../core/ports/PaymentProvider.ts"

/** The engine's rails dLocal serves (catalog id -> dLocal's `payment_method_id`), all in the REDIRECT flow. */
export const rails: Readonly<Record<string, string>> = {
  "1001": "PQ", // PIX, Brazil
  "1002": "BL", // Boleto, Brazil
  "1031": "SE", // SPEI, Mexico
  "1033": "OX", // OXXO, Mexico
  "1047": "PC", // PSE, Colombia
  "1051": "EY", // Efecty, Colombia
  "1061": "EF", // PagoEfectivo, Peru
  "1075": "WP", // Webpay, Chile
  "1089": "RP" // Rapipago, Argentina
}

/** dLocal's error codes the connector reads (https://docs.dlocal.com/reference/http-errors-payments). */
export const errorCodes = {
  invalidCredentials: "3001",
  paymentNotFound: "4000",
  countryNotSupported: "5003",
  currencyNotAllowed: "5004",
  orderIdDuplicated: "5009",
  methodNotAvailable: "5010",
  tooManyRequests: "6000"
} as const

const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(4096)))
const HttpUrl = Schema.String.pipe(Schema.check(Schema.isPattern(/^https?:\/\/[^\s]+$/)))

export const PaymentBody = Schema.Struct({
  amount: Schema.Number,
  currency: Schema.String,
  country: Schema.String,
  payment_method_id: Schema.String,
  payment_method_flow: Schema.Literals(["DIRECT", "REDIRECT"]),
  payer: Schema.Struct({
    name: Schema.String,
    email: Schema.String,
    document: Schema.String,
    phone: Schema.optionalKey(Schema.String),
    ip: Schema.optionalKey(Schema.String)
  }),
  order_id: Schema.String,
  description: Schema.optionalKey(Schema.String),
  notification_url: Schema.String,
  callback_url: Schema.String
})
export type PaymentBody = typeof PaymentBody.Type

export const PaymentObject = Schema.Struct({
  id: Schema.NonEmptyString,
  order_id: Schema.String,
  status: Text,
  status_code: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number])),
  status_detail: Schema.optionalKey(Text),
  redirect_url: Schema.optionalKey(HttpUrl),
  ticket: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})
export type PaymentObject = typeof PaymentObject.Type

export const RefundBody = Schema.Struct({
  id: Schema.String,
  payment_id: Schema.String,
  amount: Schema.Number,
  currency: Schema.String,
  notification_url: Schema.optionalKey(Schema.String)
})

export const RefundObject = Schema.Struct({
  id: Schema.NonEmptyString,
  payment_id: Schema.String,
  status: Text
})

/**
 * PAID is paid; REJECTED and CANCELLED end it unpaid; EXPIRED is expired; REFUNDED and CHARGEBACK
 * are dLocal's word about the engine's own flows. PENDING, and AUTHORIZED / VERIFIED (card states
 * that are not money yet), and anything else, are `pending`.
 */
export const toUpdateStatus = (status: string): ChargeUpdate["status"] => {
  switch (status.toUpperCase()) {
    case "PAID":
      return "completed"
    case "REJECTED":
    case "CANCELLED":
      return "failed"
    case "EXPIRED":
      return "expired"
    case "REFUNDED":
      return "refunded"
    case "CHARGEBACK":
      return "chargeback"
    default:
      return "pending"
  }
}

/** The status of a charge just created (a refund or chargeback cannot be one yet). */
export const toChargeStatus = (status: string): ChargeStatus => {
  const mapped = toUpdateStatus(status)
  return mapped === "completed" || mapped === "failed" || mapped === "expired" ? mapped : "pending"
}
