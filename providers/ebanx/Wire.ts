/**
 * EBANX's Direct API on the wire, as Schemas, its error codes and its status maps (the pages and
 * the SDK files are listed in the README; the rails are in `Rails.ts`).
 *
 * | call         | request                                                      | answer                          |
 * |--------------|--------------------------------------------------------------|---------------------------------|
 * | charge       | `POST /ws/direct` {@link DirectBody}                         | `200` {@link PaymentAnswer}     |
 * | status       | `POST /ws/query` `{ hash }` or `{ merchant_payment_code }`   | `200` {@link PaymentAnswer}     |
 * | refund       | `POST /ws/refund` {@link RefundBody}                         | `200` {@link RefundAnswer}      |
 * | notification | EBANX `POST`s a form `operation=payment_status_change&notification_type=<type>&hash_codes=h1,h2` | `200` |
 *
 * `notification_type` is `update` (the status changed from PE to CO or CA), `refund`,
 * `chargeback` or `chargeback_credit`; the form carries no status, the query answers it.
 *
 * Authentication is either the legacy `integration_key` in the body or, as EBANX documents it now,
 * an `X-JWS-Signature` header over the exact body (`Auth.ts`). An error is HTTP 200 too, with
 * `{ status: "ERROR", status_code, status_message }`. Amounts are JSON numbers in major units,
 * written from decimal text. Statuses are read as plain strings: one EBANX adds later maps to
 * `pending`.
 */
import { Schema } from "effect"
import type { ChargeUpdate, RefundStatus } from "../../core/ports/PaymentProvider.ts"
import { type StatusMap, statusOf } from "../kit/StatusMap.ts"
import type { Verdict } from "../kit/UpstreamHttp.ts"

/** EBANX's error codes the connector and its simulator use (README, "Errors"). */
export const errorCodes = {
  /** `Payment already exists with merchant_payment_code: X`: the charge exists, query it. */
  duplicate: "BP-DR-0",
  /** Payment type (group) not active / invalid `payment_type_code`: this account cannot take the rail. */
  notActive: ["BP-CH-1", "BP-DR-4", "BP-DR-35", "BP-DR-36"],
  /** `BP-SA-*`: the integration key is missing or invalid (`BP-SA-1` "Parameter integration_key not found"). */
  credentialsPrefix: "BP-SA-",
  keyMissing: "BP-SA-1",
  keyInvalid: "BP-SA-2",
  /** `Field payment is required`: the body has no readable `payment` (EBANX's answer to a malformed charge). */
  paymentMissing: "BP-DR-2",
  /**
   * `Field payment.<x> is required`, by field (the API error page lists 2, 3, 5, 9, 13, 15;
   * EBANX's WooCommerce plugin `services/class-wc-ebanx-errors.php` names 22 and 24 to 31).
   */
  fieldMissing: {
    currency_code: "BP-DR-3",
    amount_total: "BP-DR-5",
    merchant_payment_code: "BP-DR-9",
    name: "BP-DR-13",
    email: "BP-DR-15",
    document: "BP-DR-22",
    zipcode: "BP-DR-24",
    address: "BP-DR-25",
    street_number: "BP-DR-26",
    city: "BP-DR-27",
    state: "BP-DR-28",
    phone_number: "BP-DR-31"
  },
  /** `Parameter merchant_payment_code can have 40 characters maximum`. */
  merchantPaymentCodeTooLong: "BP-DR-10",
  /** `Invalid payment_type_code: X`. */
  invalidPaymentType: "BP-DR-35",
  /** The document is invalid (EBANX's plugins: "O número de documento informado é inválido"). */
  invalidDocument: "BP-DR-23"
} as const

/**
 * What an EBANX error code means for the cascade. A wrong key and a rail this account has not
 * activated are `Misconfigured`: they say nothing about the charge, the next provider may try it;
 * every other documented code (missing or invalid buyer data, amount limits, refund refusals) is
 * about the request itself and would be refused again: `Declined`.
 */
export const verdictOf = (code: string): Verdict =>
  code.startsWith(errorCodes.credentialsPrefix)
    ? { reason: "Misconfigured", code: "invalid_credentials" }
    : (errorCodes.notActive as ReadonlyArray<string>).includes(code)
    ? { reason: "Misconfigured", code }
    : { reason: "Declined", code }

const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(4096)))
const HttpUrl = Schema.String.pipe(Schema.check(Schema.isPattern(/^https?:\/\/[^\s]+$/)))
const Bounded = (max: number) => Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(max)))
const Optional = <S extends Schema.Top>(schema: S) => Schema.optionalKey(Schema.NullOr(schema))

/** `merchant_payment_code`: 1 to 40 characters, unique per account. */
export const maxMerchantPaymentCode = 40
/** `merchant_refund_code`: 1 to 20 characters. */
export const maxMerchantRefundCode = 20

/**
 * The `payment` of a Direct API request, as the connector writes it and the simulator reads it.
 * Buyer fields the engine does not know are left out, never sent empty (EBANX answers a missing
 * required one with its `BP-DR-*` code). The address fields are EBANX's flat ones (`address`,
 * `street_number`, `street_complement`, `city`, `state`, `zipcode`), as its PHP SDK sends them.
 */
export const DirectPayment = Schema.Struct({
  name: Schema.optionalKey(Bounded(100)),
  email: Schema.optionalKey(Bounded(100)),
  document: Schema.optionalKey(Bounded(30)),
  phone_number: Schema.optionalKey(Bounded(40)),
  address: Schema.optionalKey(Bounded(200)),
  street_number: Schema.optionalKey(Bounded(30)),
  street_complement: Schema.optionalKey(Bounded(100)),
  city: Schema.optionalKey(Bounded(80)),
  state: Schema.optionalKey(Bounded(30)),
  zipcode: Schema.optionalKey(Bounded(20)),
  customer_ip: Schema.optionalKey(Bounded(45)),
  /** Two letters, lower case (`br`). */
  country: Schema.String.pipe(Schema.check(Schema.isPattern(/^[a-z]{2}$/))),
  payment_type_code: Schema.String,
  merchant_payment_code: Schema.String,
  currency_code: Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Z]{3}$/))),
  /** Major units, a JSON number (`100.50`). */
  amount_total: Schema.Number,
  notification_url: Schema.optionalKey(Schema.String),
  /** `dd/mm/yyyy`. */
  due_date: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{2}\/\d{2}\/\d{4}$/))))
})

export const DirectBody = Schema.Struct({
  /** Legacy authentication; absent when the request is signed (`X-JWS-Signature`). */
  integration_key: Schema.optionalKey(Schema.String),
  operation: Schema.Literal("request"),
  payment: DirectPayment
})
export type DirectBody = typeof DirectBody.Type

/** One refund of a payment, as the query lists it (`payment.refunds`) and `/ws/refund` answers it. */
export const Refund = Schema.Struct({
  id: Schema.Union([Schema.String, Schema.Number]),
  merchant_refund_code: Optional(Schema.String),
  status: Text,
  amount_ext: Optional(Schema.Union([Schema.String, Schema.Number]))
})
export type Refund = typeof Refund.Type

/**
 * The refund statuses EBANX documents, as the engine's
 * (https://docs.ebanx.com/docs/payments/guides/after-payments/refund-payment: "placed into EBANX
 * refund queue, marked as Requested", "acknowledged ... marked as Pending", "transitions to Confirmed"; a requested or
 * pending refund "can be cancelled"): `CO` is money paid back, `CA` a refund that will not happen
 * (the money returns to the shop); `RE`, `PE` and anything unknown wait.
 */
export const DocumentedRefundStatus = Schema.Literals(["RE", "PE", "CO", "CA"])
export type DocumentedRefundStatus = typeof DocumentedRefundStatus.Type
export const refundStatuses = DocumentedRefundStatus.literals

export const refundStatusMap = {
  RE: "pending",
  PE: "pending",
  CO: "succeeded",
  CA: "failed"
} satisfies StatusMap<typeof DocumentedRefundStatus, RefundStatus>

export const toRefundStatus = (status: string): RefundStatus =>
  statusOf(refundStatusMap, status.trim().toUpperCase(), "pending")

/**
 * A payment as `/ws/direct` and `/ws/query` answer it. The buyer's page is in one of several
 * fields by rail (`boleto_url`, `oxxo_url`, `spei_url`, `cip_url`, `voucher_url`; EBANX's SDK
 * fixtures show each), or in the answer's top-level `redirect_url` (PSE/eft, Webpay, PIX).
 */
export const Payment = Schema.Struct({
  hash: Schema.NonEmptyString,
  merchant_payment_code: Schema.String,
  status: Text,
  status_date: Optional(Text),
  due_date: Optional(Text),
  redirect_url: Optional(HttpUrl),
  boleto_url: Optional(HttpUrl),
  voucher_url: Optional(HttpUrl),
  oxxo_url: Optional(HttpUrl),
  spei_url: Optional(HttpUrl),
  cip_url: Optional(HttpUrl),
  pix: Optional(Schema.Struct({ qr_code_value: Optional(Schema.String) })),
  refunds: Optional(Schema.Array(Refund))
})
export type Payment = typeof Payment.Type

/** The fields that can hold the buyer's page, in the order the connector reads them. */
export const pageFields = ["boleto_url", "voucher_url", "oxxo_url", "spei_url", "cip_url", "redirect_url"] as const

/** Every answer: `SUCCESS` with what was asked, or `ERROR` with a code. */
const Outcome = {
  status: Text,
  status_code: Optional(Text),
  status_message: Optional(Text)
}

export const PaymentAnswer = Schema.Struct({ ...Outcome, redirect_url: Optional(HttpUrl), payment: Optional(Payment) })
export type PaymentAnswer = typeof PaymentAnswer.Type

export const RefundBody = Schema.Struct({
  integration_key: Schema.optionalKey(Schema.String),
  operation: Schema.Literal("request"),
  hash: Schema.String,
  /** Major units of the payment's currency, a JSON number. */
  amount: Schema.Number,
  description: Bounded(1500),
  merchant_refund_code: Bounded(maxMerchantRefundCode)
})

/** `refund` is the one made; `payment` (with its `refunds`) may come along. */
export const RefundAnswer = Schema.Struct({ ...Outcome, refund: Optional(Refund), payment: Optional(Payment) })

/**
 * The payment statuses EBANX documents
 * (https://www.ebanx.com/business/en/developers/api-reference/refund-or-cancel-operation): `OP` open ("can change
 * either to CA (timeout) or to PE"), `PE` pending confirmation ("either to CA or to CO"), `CO`
 * confirmed (paid), `CA` cancelled. `CA` is therefore either the payment lapsing unpaid or a
 * cancellation; EBANX sends no reason, so a `CA` whose `status_date` falls on a day after the
 * payment's `due_date` is `expired`, any other `CA` `failed` (a same-day PIX lapse reads as
 * `failed`; the engine's own expiry covers it) (README, "Not confirmed"). OP, PE and
 * anything else (a status EBANX adds later) pending, never a success.
 */
export const DocumentedPaymentStatus = Schema.Literals(["OP", "PE", "CO", "CA"])
export type DocumentedPaymentStatus = typeof DocumentedPaymentStatus.Type
export const paymentStatuses = DocumentedPaymentStatus.literals

/** `CA` here is a cancellation; `toUpdateStatus` reads a lapsed one as `expired`. */
export const paymentStatusMap = {
  OP: "pending",
  PE: "pending",
  CO: "completed",
  CA: "failed"
} satisfies StatusMap<typeof DocumentedPaymentStatus, ChargeUpdate["status"]>

export const toUpdateStatus = (payment: Pick<Payment, "status" | "status_date" | "due_date">): ChargeUpdate["status"] => {
  const status = statusOf(paymentStatusMap, payment.status, "pending")
  return payment.status === "CA" && lapsed(payment) ? "expired" : status
}

/** The calendar day (`yyyy-mm-dd`) of an EBANX date (`2017-06-01` or `2017-06-07 18:20:13`). */
const dayOf = (text: string | null | undefined) => /^(\d{4}-\d{2}-\d{2})/.exec(text ?? "")?.[1]

const lapsed = (payment: Pick<Payment, "status_date" | "due_date">) => {
  const due = dayOf(payment.due_date)
  const at = dayOf(payment.status_date)
  return due !== undefined && at !== undefined && at > due
}

/** The form EBANX POSTs: its `notification_type` and the hashes it names; none when it is not that form. */
export const notificationOf = (rawBody: string): { readonly type: string; readonly hashes: ReadonlyArray<string> } | undefined => {
  if (rawBody.length > 16_384) return undefined
  const form = new URLSearchParams(rawBody)
  const hashes = (form.get("hash_codes") ?? "").split(",").map((h) => h.trim()).filter((h) => h !== "")
  if (form.get("operation") !== "payment_status_change" || hashes.length === 0 || hashes.length > 100) return undefined
  if (!hashes.every((h) => /^[A-Za-z0-9_-]{1,100}$/.test(h))) return undefined
  return { type: form.get("notification_type") ?? "update", hashes }
}
