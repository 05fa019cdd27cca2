/**
 * EBANX's Direct API on the wire, as Schemas, its error codes and its status map (the pages are
 * listed in the README; the rails are in `Rails.ts`).
 *
 * | call         | request                                                      | answer                          |
 * |--------------|--------------------------------------------------------------|---------------------------------|
 * | charge       | `POST /ws/direct` {@link DirectBody}                         | `200` {@link PaymentAnswer}     |
 * | status       | `POST /ws/query` `{ integration_key, hash }` or `merchant_payment_code` | `200` {@link PaymentAnswer} |
 * | refund       | `POST /ws/refund` {@link RefundBody}                         | `200` {@link RefundAnswer}      |
 * | notification | EBANX `POST`s a form `operation=payment_status_change&notification_type=<type>&hash_codes=h1,h2` | `200` |
 *
 * `notification_type` is `update` (the status changed from PE to CO or CA), `refund`,
 * `chargeback` or `chargeback_credit`; the form carries no status, the query answers it.
 *
 * The key travels in the body (`integration_key`); an error is HTTP 200 too, with
 * `{ status: "ERROR", status_code, status_message }`. Amounts are JSON numbers in major units,
 * written from decimal text. Statuses are read as plain strings: one EBANX adds later maps to
 * `pending`.
 */
import { Schema } from "effect"
import type { ChargeStatus, ChargeUpdate, RefundStatus } from "../../core/ports/PaymentProvider.ts"

/** EBANX's error codes the connector reads (https://docs.ebanx.com/docs/resources/error-codes/api-error-codes). */
export const errorCodes = {
  /** `Payment already exists with merchant_payment_code: X`: the charge exists, query it. */
  duplicate: "BP-DR-0",
  /** Payment type (group) not active / invalid `payment_type_code`: this account cannot take the rail. */
  notActive: ["BP-CH-1", "BP-DR-4", "BP-DR-35", "BP-DR-36"],
  /** `BP-SA-*`: the integration key is missing or invalid (`BP-SA-1` "Parameter integration_key not found"). */
  credentialsPrefix: "BP-SA-"
} as const

/**
 * What an EBANX error code means for the cascade (`retryable`: may the next provider try?).
 * A wrong key and a rail this account has not activated say nothing about the charge; every
 * other documented code (missing or invalid buyer data, amount limits, refund refusals) is about
 * the request itself and would be refused again.
 */
export const verdictOf = (code: string): { readonly retryable: boolean; readonly reason: string } =>
  code.startsWith(errorCodes.credentialsPrefix)
    ? { retryable: true, reason: "invalid_credentials" }
    : (errorCodes.notActive as ReadonlyArray<string>).includes(code)
    ? { retryable: true, reason: code }
    : { retryable: false, reason: code }

const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(4096)))
const HttpUrl = Schema.String.pipe(Schema.check(Schema.isPattern(/^https?:\/\/[^\s]+$/)))
const Bounded = (max: number) => Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(max)))

/** `merchant_payment_code`: 1 to 40 characters, unique per account. */
export const maxMerchantPaymentCode = 40
/** `merchant_refund_code`: 1 to 20 characters. */
export const maxMerchantRefundCode = 20

export const DirectBody = Schema.Struct({
  integration_key: Schema.String,
  operation: Schema.Literal("request"),
  payment: Schema.Struct({
    name: Schema.String,
    email: Schema.String,
    document: Schema.String,
    phone_number: Schema.optionalKey(Schema.String),
    /** Two letters, lower case (`br`). */
    country: Schema.String.pipe(Schema.check(Schema.isPattern(/^[a-z]{2}$/))),
    payment_type_code: Schema.String,
    merchant_payment_code: Bounded(maxMerchantPaymentCode),
    currency_code: Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Z]{3}$/))),
    /** Major units, a JSON number (`100.50`). */
    amount_total: Schema.Number,
    notification_url: Schema.String,
    /** `dd/mm/yyyy`. */
    due_date: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{2}\/\d{2}\/\d{4}$/))))
  })
})
export type DirectBody = typeof DirectBody.Type

/** One refund of a payment, as the query lists it (`payment.refunds`) and `/ws/refund` answers it. */
export const Refund = Schema.Struct({
  id: Schema.Union([Schema.String, Schema.Number]),
  merchant_refund_code: Schema.optionalKey(Schema.NullOr(Schema.String)),
  status: Text
})

/**
 * An EBANX refund status as the engine's: `CO` (confirmed) is money paid back, `CA` (cancelled)
 * is a refund that will not happen; `RE` (requested), `PE` (pending) and anything unknown wait.
 */
export const toRefundStatus = (status: string): RefundStatus => {
  switch (status.trim().toUpperCase()) {
    case "CO":
      return "succeeded"
    case "CA":
      return "failed"
    default:
      return "pending"
  }
}

export const Payment = Schema.Struct({
  hash: Schema.NonEmptyString,
  merchant_payment_code: Schema.String,
  status: Text,
  redirect_url: Schema.optionalKey(HttpUrl),
  boleto_url: Schema.optionalKey(HttpUrl),
  voucher_url: Schema.optionalKey(HttpUrl),
  pix: Schema.optionalKey(Schema.Struct({ qr_code_value: Schema.optionalKey(Schema.String) })),
  refunds: Schema.optionalKey(Schema.NullOr(Schema.Array(Refund)))
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
  /** Major units of the payment's currency, a JSON number. */
  amount: Schema.Number,
  description: Bounded(1500),
  merchant_refund_code: Bounded(maxMerchantRefundCode)
})

/** `refund` is the one made; `payment` (with its `refunds`) may come along. */
export const RefundAnswer = Schema.Struct({ ...Outcome, refund: Schema.optionalKey(Refund), payment: Schema.optionalKey(Payment) })

/**
 * The payment statuses EBANX documents: `OP` open (the buyer has not filled the payment details
 * yet), `PE` pending confirmation, `CO` confirmed (paid), `CA` cancelled. CO is completed, CA
 * failed; OP, PE and anything else (a status EBANX adds later) pending, never a success.
 */
export const toUpdateStatus = (status: string): ChargeUpdate["status"] => {
  switch (status) {
    case "CO":
      return "completed"
    case "CA":
      return "failed"
    default:
      return "pending"
  }
}

export const toChargeStatus = (status: string): ChargeStatus => toUpdateStatus(status) as ChargeStatus
