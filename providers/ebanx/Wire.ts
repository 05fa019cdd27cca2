/**
 * EBANX's Direct API on the wire, as Schemas, its rails and its status map
 * (https://docs.ebanx.com/docs/resources/error-codes/api-error-codes and the Direct API reference
 * pages listed in the README).
 *
 * | call         | request                                                      | answer                          |
 * |--------------|--------------------------------------------------------------|---------------------------------|
 * | charge       | `POST /ws/direct` {@link DirectBody}                         | `200` {@link PaymentAnswer}     |
 * | status       | `POST /ws/query` `{ integration_key, hash }` or `merchant_payment_code` | `200` {@link PaymentAnswer} |
 * | refund       | `POST /ws/refund` {@link RefundBody}                         | `200` {@link RefundAnswer}      |
 * | notification | EBANX `POST`s a form `operation=payment_status_change&notification_type=update&hash_codes=h1,h2` | `200` |
 *
 * The key travels in the body (`integration_key`); an error is HTTP 200 too, with
 * `{ status: "ERROR", status_code, status_message }`. Amounts are JSON numbers in major units,
 * written from decimal text. Statuses are read as plain strings: one EBANX adds later maps to
 * `pending`.
 */
import { Schema } from "effect"
import type { ChargeStatus, ChargeUpdate } from "../../core/ports/PaymentProvider.ts"

/** The engine's rails EBANX serves (catalog id -> EBANX's `payment_type_code`). */
export const rails: Readonly<Record<string, string>> = {
  "1001": "pix",
  "1002": "boleto",
  "1031": "spei",
  "1033": "oxxo",
  "1047": "pse",
  "1051": "efecty",
  "1061": "pagoefectivo",
  "1075": "webpay"
}

/** EBANX's error codes the connector reads. */
export const errorCodes = {
  /** Payment already exists with merchant_payment_code: X. */
  duplicate: "BP-DR-0",
  /** Payment type (group) not active / invalid payment_type_code: this account cannot take the rail. */
  notActive: ["BP-CH-1", "BP-DR-4", "BP-DR-35", "BP-DR-36"],
  /** `BP-SA-*`: the integration key is missing or invalid. */
  credentialsPrefix: "BP-SA-"
} as const

const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(4096)))
const HttpUrl = Schema.String.pipe(Schema.check(Schema.isPattern(/^https?:\/\/[^\s]+$/)))

export const DirectBody = Schema.Struct({
  integration_key: Schema.String,
  operation: Schema.Literal("request"),
  payment: Schema.Struct({
    name: Schema.String,
    email: Schema.String,
    document: Schema.String,
    phone_number: Schema.optionalKey(Schema.String),
    country: Schema.String,
    payment_type_code: Schema.String,
    merchant_payment_code: Schema.String,
    currency_code: Schema.String,
    amount_total: Schema.Number,
    notification_url: Schema.String,
    due_date: Schema.optionalKey(Schema.String)
  })
})
export type DirectBody = typeof DirectBody.Type

export const Payment = Schema.Struct({
  hash: Schema.NonEmptyString,
  merchant_payment_code: Schema.String,
  status: Text,
  redirect_url: Schema.optionalKey(HttpUrl),
  boleto_url: Schema.optionalKey(HttpUrl),
  voucher_url: Schema.optionalKey(HttpUrl),
  pix: Schema.optionalKey(Schema.Struct({ qr_code_value: Schema.optionalKey(Schema.String) })),
  refunds: Schema.optionalKey(Schema.Array(Schema.Struct({
    id: Schema.Union([Schema.String, Schema.Number]),
    merchant_refund_code: Schema.optionalKey(Schema.NullOr(Schema.String)),
    status: Text
  })))
})
export type Payment = typeof Payment.Type

/** Every answer: `SUCCESS` with what was asked, or `ERROR` with a code. */
const Outcome = {
  status: Text,
  status_code: Schema.optionalKey(Text),
  status_message: Schema.optionalKey(Text)
}

export const PaymentAnswer = Schema.Struct({ ...Outcome, payment: Schema.optionalKey(Payment) })
export type PaymentAnswer = typeof PaymentAnswer.Type

export const RefundBody = Schema.Struct({
  integration_key: Schema.String,
  operation: Schema.Literal("request"),
  hash: Schema.String,
  amount: Schema.Number,
  description: Schema.String,
  merchant_refund_code: Schema.String
})

export const RefundAnswer = Schema.Struct({
  ...Outcome,
  refund: Schema.optionalKey(Schema.Struct({ id: Schema.Union([Schema.String, Schema.Number]), status: Text }))
})

/** CO is confirmed (paid); CA cancelled; PE pending and OP open, and anything else, pending. */
export const toUpdateStatus = (status: string): ChargeUpdate["status"] => {
  switch (status.toUpperCase()) {
    case "CO":
      return "completed"
    case "CA":
      return "failed"
    default:
      return "pending"
  }
}

export const toChargeStatus = (status: string): ChargeStatus => toUpdateStatus(status) as ChargeStatus
