/**
 * What a dLocal card payment speaks, as the connector reads it: the card object of the request,
 * the card payment's answer (its 3-D Secure step), and the `status_code` of a rejected card
 * payment as one of the engine's `CardDecline` words.
 *
 * | call   | request                                                                | answer                     |
 * |--------|------------------------------------------------------------------------|----------------------------|
 * | charge | `POST /secure_payments` {@link CardPaymentBody} (through the card vault) | `200` {@link CardPayment} |
 * | lookup | `GET /orders/{order_id}`, then `GET /payments/{payment_id}`            | `200` {@link CardPayment} |
 *
 * - A payment with the card's own data goes to `/secure_payments`, not `/payments` ("If you are
 *   making a payment with credit card information ... you need to use the following endpoint
 *   instead: https://api.dlocal.com/secure_payments", https://docs.dlocal.com/docs/card-payments,
 *   https://docs.dlocal.com/reference/the-card-object). The card object: `holder_name`,
 *   `number` (a string without separators), `cvv` ("Optional. Required for India"),
 *   `expiration_month` and `expiration_year` as integers, `capture` (default true).
 * - 3-D Secure (https://docs.dlocal.com/docs/3d-secure): a payment that needs it is answered
 *   `PENDING` with `status_code` `101` and a `three_dsecure` object holding the `redirect_url`
 *   the buyer goes to; the payment then proceeds and the buyer comes back to `callback_url`.
 * - Rejections (https://docs.dlocal.com/reference/payment-status-codes, "Rejection status"):
 *   `REJECTED` with a `status_code` from 300 to 3xx, read by {@link declineByStatusCode}.
 */
import { Schema } from "effect"
import type { CardDecline } from "../../core/ports/CardDeclines.ts"
import * as Wire from "./Wire.ts"

/** The card object as the vault fills it in (the plugin writes placeholders). */
export const CardObject = Schema.Struct({
  holder_name: Schema.String,
  number: Schema.String,
  cvv: Schema.optionalKey(Schema.String),
  expiration_month: Schema.Int,
  expiration_year: Schema.Int,
  capture: Schema.optionalKey(Schema.Boolean),
  installments: Schema.optionalKey(Schema.String)
})
export type CardObject = typeof CardObject.Type

/** `POST /secure_payments` (what the simulator checks beyond `Wire.PaymentBody`). */
export const CardPaymentBody = Schema.Struct({
  ...Wire.PaymentBody.fields,
  card: CardObject
})
export type CardPaymentBody = typeof CardPaymentBody.Type

const HttpUrl = Schema.String.pipe(Schema.check(Schema.isPattern(/^https?:\/\/[^\s]+$/)))
const ThreeDSecure = Schema.optionalKey(Schema.NullOr(Schema.Struct({ redirect_url: Schema.optionalKey(Schema.NullOr(HttpUrl)) })))

/** A card payment as dLocal answers it: the payment object, its card (masked) and its 3-D Secure step. */
export const CardPayment = Schema.Struct({
  ...Wire.PaymentObject.fields,
  card: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    brand: Schema.optionalKey(Schema.NullOr(Schema.String)),
    last4: Schema.optionalKey(Schema.NullOr(Schema.String)),
    // The documentation's 3-D Secure example shows the object inside `card` as well as beside it.
    three_dsecure: ThreeDSecure
  }))),
  three_dsecure: ThreeDSecure
})
export type CardPayment = typeof CardPayment.Type

/** The `status_code` of a payment waiting for the buyer's 3-D Secure step. */
export const pendingThreeDSecure = "101"

/** Where the buyer authenticates, if the payment asks for it. */
export const challengeUrlOf = (payment: CardPayment): string | undefined =>
  payment.three_dsecure?.redirect_url ?? payment.card?.three_dsecure?.redirect_url ?? undefined

/** `307 Duplicated payment`: another acquirer could charge the buyer twice, so it is a decline of its own. */
export const duplicatedPayment = "307"

/**
 * Rejection `status_code` -> the engine's decline. Hard: what the issuer or dLocal's risk check
 * says about this card (another acquirer would hear the same). Soft: nothing final about the card.
 * 304 "Score validation" and 317 "Rejected due to high risk" are dLocal's fraud screening: hard,
 * as the cascade must not shop a card a risk engine refused. 319 "Amount exceeded" names no
 * cause (the card's limit or the account's): soft. 311 "Card requested by the bank" (pick up)
 * and 312 "restricted" say the card must not be used: `invalid_card`.
 */
export const declineByStatusCode: Readonly<Record<string, CardDecline>> = {
  "300": "do_not_honour",
  "301": "do_not_honour",
  "302": "insufficient_funds",
  "303": "fraud",
  "304": "fraud",
  "305": "rate_limited",
  "306": "do_not_honour",
  "308": "invalid_card",
  "309": "expired_card",
  "310": "lost_card",
  "311": "invalid_card",
  "312": "invalid_card",
  "313": "stolen_card",
  "314": "invalid_card",
  "315": "invalid_card",
  "316": "processing_error",
  "317": "fraud",
  "318": "processing_error",
  "319": "do_not_honour",
  "320": "authentication_required",
  "321": "processing_error"
}

/** The decline a rejected card payment's `status_code` says; `do_not_honour` (soft) when the table does not know it. */
export const declineOf = (statusCode: string | number | null | undefined): CardDecline => {
  const code = String(statusCode ?? "").trim()
  return Object.hasOwn(declineByStatusCode, code) ? declineByStatusCode[code]! : "do_not_honour"
}
