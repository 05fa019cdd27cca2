/**
 * What a Mercado Pago card payment speaks, as the connector reads it: the card token
 * (`POST /v1/card_tokens`), the card fields of `POST /v1/payments`, the 3-D Secure answer, the
 * payment search, and the `status_detail` of a rejected card payment as one of the engine's
 * `CardDecline` words.
 *
 * | call        | request                                                             | answer                  |
 * |-------------|---------------------------------------------------------------------|-------------------------|
 * | tokenize    | `POST /v1/card_tokens` {@link CardTokenBody} (through the card vault) | `201` {@link CardToken} |
 * | charge      | `POST /v1/payments` with `token`, `payment_method_id`, `installments` | `201` {@link CardPayment} |
 * | lookup      | `GET /v1/payments/search?external_reference=`                      | `200` {@link PaymentSearch} |
 *
 * - The token: Mercado Pago's Checkout API charges a card only by its own single-use token. A
 *   PCI-compliant merchant tokenizes from its back end
 *   (https://www.mercadopago.com.br/developers/es/docs/resources-pci-compliant-merchants/receiving-payment-by-card:
 *   `POST /v1/card_tokens` with the access token, `card_number`, `security_code`,
 *   `expiration_month` and `expiration_year` as numbers, `cardholder.name` and
 *   `cardholder.identification`); the official Node SDK's `CardToken.create` sends the same
 *   fields and reads `id`, `first_six_digits`, `last_four_digits`. The cardholder's name is the
 *   field the test-card pages drive outcomes with.
 * - 3-D Secure (https://www.mercadopago.com.br/developers/en/docs/checkout-api-payments/how-tos/integrate-3ds):
 *   `three_d_secure_mode: "optional"` lets the issuer ask for a challenge; the payment is then
 *   `pending` / `pending_challenge` with `three_ds_info.external_resource_url` and `creq`.
 * - `status_detail` of a rejected card payment: the lists of
 *   https://www.mercadopago.com.mx/developers/en/docs/checkout-api-payments/response-handling/collection-results.md
 *   and https://www.mercadopago.com.br/developers/en/docs/checkout-pro-preferences/how-tos/improve-payment-approval/reasons-for-rejection
 *   (and the test-card pages' cardholder names, https://mercadopago.com.br/developers/en/docs/checkout-bricks/integration-test/test-cards: OTHE other reason, CALL call for authorize, FUND
 *   insufficient amount, SECU bad security code, EXPI bad date, FORM bad filled other, LOCK card
 *   disabled, DUPL duplicated payment, BLAC blacklist, INST invalid installments, CARD
 *   insufficient data, CTNA 3DS... see {@link declineByStatusDetail}).
 */
import { Schema } from "effect"
import type { CardDecline } from "../../core/ports/CardDeclines.ts"
import * as Wire from "./Wire.ts"

/** `POST /v1/card_tokens`: the card as the vault fills it in (placeholders in the plugin). */
export const CardTokenBody = Schema.Struct({
  card_number: Schema.String,
  security_code: Schema.optionalKey(Schema.String),
  expiration_month: Schema.Union([Schema.Int, Schema.String]),
  expiration_year: Schema.Union([Schema.Int, Schema.String]),
  cardholder: Schema.optionalKey(Schema.Struct({
    name: Schema.optionalKey(Schema.String),
    identification: Schema.optionalKey(Schema.Struct({ type: Schema.optionalKey(Schema.String), number: Schema.optionalKey(Schema.String) }))
  }))
})
export type CardTokenBody = typeof CardTokenBody.Type

/** The token answer (fields used; the number comes back masked by the vault, and Mercado Pago sends only BIN and last four). */
export const CardToken = Schema.Struct({
  id: Schema.NonEmptyString.pipe(Schema.check(Schema.isMaxLength(128))),
  first_six_digits: Schema.optionalKey(Schema.NullOr(Schema.String)),
  last_four_digits: Schema.optionalKey(Schema.NullOr(Schema.String)),
  status: Schema.optionalKey(Schema.NullOr(Schema.String))
})
export type CardToken = typeof CardToken.Type

/** The card fields of `POST /v1/payments` (what the simulator checks on a card payment). */
export const CardPaymentFields = Schema.Struct({
  token: Schema.NonEmptyString,
  installments: Schema.Int,
  three_d_secure_mode: Schema.optionalKey(Schema.Literals(["not_supported", "optional", "mandatory"])),
  statement_descriptor: Schema.optionalKey(Schema.String),
  capture: Schema.optionalKey(Schema.Boolean)
})
export type CardPaymentFields = typeof CardPaymentFields.Type

const HttpUrl = Schema.String.pipe(Schema.check(Schema.isPattern(/^https?:\/\/[^\s]+$/)))

/** A card payment as `POST` / `GET /v1/payments` answer it: the payment, its card, and its 3-D Secure step. */
export const CardPayment = Schema.Struct({
  ...Wire.Payment.fields,
  payment_type_id: Schema.optionalKey(Schema.NullOr(Schema.String)),
  card: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    first_six_digits: Schema.optionalKey(Schema.NullOr(Schema.String)),
    last_four_digits: Schema.optionalKey(Schema.NullOr(Schema.String))
  }))),
  three_ds_info: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    external_resource_url: Schema.optionalKey(Schema.NullOr(HttpUrl)),
    creq: Schema.optionalKey(Schema.NullOr(Schema.String))
  })))
})
export type CardPayment = typeof CardPayment.Type

/** `GET /v1/payments/search`: `{ paging, results }` (the official SDK's `PaymentSearch`). */
export const PaymentSearch = Schema.Struct({
  results: Schema.optionalKey(Schema.NullOr(Schema.Array(CardPayment)))
})

/** The `status_detail` of a payment waiting for the buyer's 3-D Secure challenge. */
export const pendingChallenge = "pending_challenge"

/**
 * `status_detail` of a rejected card payment -> the engine's decline. Hard: what the issuer
 * says about this card (another acquirer would hear the same). Soft: nothing final about the
 * card (the cascade may try the next acquirer).
 *
 * - `cc_rejected_duplicated_payment` is not here: it says a payment of that amount with that card
 *   was just made, so trying another acquirer could charge the buyer twice. The connector
 *   declines it with `duplicated_payment` (no normalized word fits; the cascade stops).
 */
export const declineByStatusDetail: Readonly<Record<string, CardDecline>> = {
  cc_rejected_insufficient_amount: "insufficient_funds",
  cc_rejected_bad_filled_security_code: "invalid_card",
  cc_rejected_bad_filled_card_number: "invalid_card",
  cc_rejected_bad_filled_other: "invalid_card",
  cc_rejected_bad_filled_date: "expired_card",
  cc_rejected_card_disabled: "invalid_card",
  cc_rejected_high_risk: "fraud",
  cc_rejected_blacklist: "fraud",
  cc_rejected_fraud: "fraud",
  cc_rejected_call_for_authorize: "do_not_honour",
  cc_rejected_other_reason: "do_not_honour",
  cc_rejected_card_error: "processing_error",
  cc_rejected_insufficient_data: "processing_error",
  cc_rejected_invalid_installments: "processing_error",
  cc_rejected_max_attempts: "rate_limited",
  cc_rejected_3ds_mandatory: "authentication_required",
  cc_rejected_3ds_challenge: "do_not_honour",
  cc_amount_rate_limit_exceeded: "rate_limited"
}

export const duplicatedPayment = "cc_rejected_duplicated_payment"

/** The decline a rejected card payment's `status_detail` says; `do_not_honour` (soft) when it says nothing the table knows. */
export const declineOf = (statusDetail: string | null | undefined): CardDecline => {
  const detail = (statusDetail ?? "").trim().toLowerCase()
  return Object.hasOwn(declineByStatusDetail, detail) ? declineByStatusDetail[detail]! : "do_not_honour"
}
