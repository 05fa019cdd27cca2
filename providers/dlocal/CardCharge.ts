/**
 * A dLocal card payment, through the card vault. The plugin never holds the card's number or
 * security code: it writes `POST /secure_payments` (`CardWire.ts`) with the vault's placeholders
 * in `card` and asks `CardVault.forward` to send it; the vault fills them in and answers dLocal's
 * payment object with any number masked.
 *
 * **The signature.** dLocal signs every request with `HMAC-SHA256(secretKey, X-Login + X-Date +
 * body)` (`Signing.ts`), over the exact bytes sent. The body that leaves the vault is not the one
 * the plugin wrote (the placeholders are filled in), so a signature computed here would not match,
 * and dLocal documents no way around it: its other card routes (`POST /secure_cards` for a
 * `card_id`, `encrypted_data`) carry the number in a signed body too, and Smart Fields is a
 * script from dLocal's origin in the buyer's browser, which the hosted checkout does not load.
 * So the forward asks the vault to sign after filling (`ForwardRequest.bodyHmac`): the plugin
 * passes the prefix `X-Login + X-Date`, the secret key for this one request (`Redacted`) and the
 * `Authorization` template; the vault computes the HMAC over the body it sends. The vault thereby
 * sees the secret key for the request, as it already sees Pagar.me's and Mercado Pago's
 * credentials in the headers it forwards (vault/README.md, "Signed bodies").
 *
 * Exactly once: dLocal's key for a payment is `order_id` (the transaction id). Before anything
 * the order is looked for (`GET /orders/{order_id}`, then the payment): a retry after an unknown
 * outcome answers that payment and never sends the card again. A create refused `5009 Order ID is
 * duplicated` reads it the same way. The vault's `ForwardOutcomeUnknown` is `OutcomeUnknown`.
 *
 * The security code is sent when the vault still holds it and left out otherwise: dLocal marks
 * `cvv` optional outside India, so the same token can cascade here after another acquirer used it.
 *
 * Answers: `PAID` is `completed`; `PENDING` `101` with `three_dsecure.redirect_url` is `pending`
 * with `nextAction` `redirect_to_url`; other `PENDING` / `AUTHORIZED` wait (`pending`); `REJECTED`
 * is a decline by `status_code` (`CardWire.declineOf`): hard -> `Declined` with the word, soft ->
 * `Failed` with the word; `307` -> `Declined` `duplicated_payment`.
 */
import { Clock, Effect, Option, Redacted, Schema } from "effect"
import { isHardDecline } from "../../core/ports/CardDeclines.ts"
import { BodyHmacPlaceholder, CardPlaceholders, type CardVault } from "../../core/ports/CardVault.ts"
import { Money } from "../../core/ports/index.ts"
import type { ChargeAccepted, ChargeRequest, ProviderError } from "../../core/ports/PaymentProvider.ts"
import { forwardCard } from "../kit/CardForward.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import type { DLocalClient } from "./Client.ts"
import * as CardWire from "./CardWire.ts"
import { dlocalDecimals, type Rail } from "./Rails.ts"
import { apiVersion, authorizationOf, type Credentials } from "./Signing.ts"
import * as Wire from "./Wire.ts"

export interface CardChargeDeps {
  readonly providerId: string
  readonly baseUrl: string
  readonly timeoutMs: number
  readonly credentials: Credentials
  readonly client: DLocalClient
  /** The payer object of the charge (the same as the other rails send). */
  readonly payerOf: (request: ChargeRequest) => Record<string, unknown>
  readonly returnUrl?: string | undefined
  readonly vault: Option.Option<CardVault["Service"]>
}

const decodePayment = Schema.decodeUnknownOption(Schema.fromJsonString(CardWire.CardPayment))
const decodeError = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Struct({
  code: Schema.optionalKey(Schema.Union([Schema.Number, Schema.String])),
  message: Schema.optionalKey(Schema.String)
})))

const accountCannot = new Set<string>([Wire.errorCodes.countryNotSupported, Wire.errorCodes.currencyNotAllowed, Wire.errorCodes.methodNotAvailable, Wire.errorCodes.invalidApiVersion])

export const make = (deps: CardChargeDeps) => {
  const { client } = deps
  const { declined, failed, malformed, misconfigured, outcomeUnknown, clip } = client

  /** dLocal's error answer, read as `Client.ts` reads one. */
  const statusError = (status: number, text: string): ProviderError => {
    const said = Option.getOrUndefined(decodeError(text))
    const code = said?.code === undefined ? `http_${status}` : String(said.code)
    const message = `dLocal answered ${status}: ${clip(said?.message ?? code)}`
    if (status === 401 || status === 403) return misconfigured(code, message)
    if (accountCannot.has(code)) return misconfigured(code, message)
    if (code === Wire.errorCodes.acquirerCouldNotProcess) return failed(code, message)
    if (status === 429) return failed("rate_limited", message)
    if (status === 503) return failed("upstream_unavailable", message)
    if (status >= 500) return outcomeUnknown("upstream_unavailable", message)
    return declined(code, message)
  }

  /** The payment dLocal holds for this order, if any. */
  const earlierPayment = (transactionId: string) =>
    client.call("charge.lookup", `/orders/${encodeURIComponent(transactionId)}`, Wire.OrderObject).pipe(
      Effect.flatMap((order) =>
        order.order_id !== transactionId
          ? Effect.fail(malformed("dLocal answered about another order"))
          : client.call("charge.lookup", `/payments/${encodeURIComponent(order.payment_id)}`, CardWire.CardPayment)
      ),
      Effect.map((payment): CardWire.CardPayment | undefined => payment),
      Effect.catchIf((error) => error.code === Wire.errorCodes.paymentNotFound, () => Effect.succeed(undefined))
    )

  /** What a card payment says: accepted (paid, pending, a challenge) or a decline. */
  const outcomeOf = (request: ChargeRequest, payment: CardWire.CardPayment): Effect.Effect<ChargeAccepted, ProviderError> => {
    if (payment.order_id !== request.transactionId) return Effect.fail(malformed("dLocal answered about another order"))
    const status = Wire.toChargeStatus(payment.status)
    const code = payment.status_code === undefined ? undefined : String(payment.status_code)
    if (status === "failed" || status === "expired") {
      const message = `dLocal ${payment.status} card payment ${payment.id}: ${clip(`${code ?? ""} ${payment.status_detail ?? ""}`.trim())}`
      if (code === CardWire.duplicatedPayment) return Effect.fail(declined("duplicated_payment", message))
      const decline = CardWire.declineOf(code)
      return Effect.fail(isHardDecline(decline) ? declined(decline, message) : failed(decline, message))
    }
    const challengeUrl = status === "pending" ? CardWire.challengeUrlOf(payment) : undefined
    if (code === CardWire.pendingThreeDSecure && challengeUrl === undefined) {
      return Effect.fail(malformed(`card payment ${payment.id} asks for 3-D Secure without its redirect_url`))
    }
    return Effect.succeed({
      providerRef: payment.id,
      status,
      // A card is charged at once: there is no page for the buyer to go to (a challenge is `nextAction`).
      paymentFormUrl: "",
      paymentData: UpstreamHttp.defined({
        paymentMethod: "credit_card",
        brand: request.card?.brand,
        last4: request.card?.last4,
        statusCode: code
      }),
      ...(challengeUrl === undefined ? {} : { nextAction: { type: "redirect_to_url", url: challengeUrl } as const })
    } satisfies ChargeAccepted)
  }

  return Effect.fn("DLocalProvider.cardCharge")(function*(request: ChargeRequest, rail: Rail) {
    const card = request.card
    if (card === undefined) return yield* declined("card_required", `${request.method.id} is a card rail: the charge needs the card's token`)
    if (rail.brand !== undefined && card.brand !== rail.brand) {
      return yield* declined("card_brand_mismatch", `the card is ${card.brand}, the rail ${rail.brand}`)
    }
    if (Option.isNone(deps.vault)) return yield* misconfigured("card_vault_unavailable", "no card vault is configured to forward the card")
    const amount = Money.round(request.amount, request.currency)
    if (amount.scale > dlocalDecimals(request.currency)) {
      return yield* failed("amount_precision", `dLocal takes ${request.currency} amounts with ${dlocalDecimals(request.currency)} decimals`)
    }
    // A retry finds the payment made first, and never sends the card again.
    const earlier = yield* earlierPayment(request.transactionId)
    if (earlier !== undefined) return yield* outcomeOf(request, earlier)
    const body = UpstreamHttp.jsonText({
      amount: new UpstreamHttp.JsonDecimal(amount),
      currency: request.currency,
      country: request.country,
      payment_method_id: rail.paymentMethodId,
      payment_method_flow: "DIRECT",
      payer: deps.payerOf(request),
      card: {
        holder_name: CardPlaceholders.holderName,
        number: CardPlaceholders.number,
        ...(card.securityCodeHeld ? { cvv: CardPlaceholders.securityCode } : {}),
        expiration_month: card.expMonth,
        expiration_year: card.expYear
      },
      order_id: request.transactionId,
      description: `Payment ${request.transactionId}`,
      notification_url: request.callbackUrl,
      ...UpstreamHttp.defined({ callback_url: request.returnUrl ?? deps.returnUrl })
    })
    const date = new Date(yield* Clock.currentTimeMillis).toISOString()
    const response = yield* forwardCard(deps.vault.value, {
      token: card.token,
      merchantId: card.merchantId,
      providerId: deps.providerId,
      method: "POST",
      url: `${deps.baseUrl}/secure_payments`,
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "x-date": date,
        "x-login": Redacted.value(deps.credentials.login),
        "x-trans-key": Redacted.value(deps.credentials.transKey),
        "x-version": apiVersion
      },
      body,
      // Signed by the vault over the body it sends (see the header).
      bodyHmac: {
        header: "authorization",
        key: deps.credentials.secretKey,
        prefix: `${Redacted.value(deps.credentials.login)}${date}`,
        template: authorizationOf(BodyHmacPlaceholder)
      },
      timeoutMs: deps.timeoutMs
    }, { failures: client, purpose: request.transactionId })
    if (response.status < 200 || response.status >= 300) {
      const error = statusError(response.status, response.body)
      if (error.code !== Wire.errorCodes.orderIdDuplicated) return yield* error
      // The order exists (a create whose answer was lost before this call looked): answer it.
      const held = yield* earlierPayment(request.transactionId)
      if (held === undefined) return yield* outcomeUnknown("order_unreadable", "dLocal says the order exists but does not answer it")
      return yield* outcomeOf(request, held)
    }
    const payment = decodePayment(response.body)
    if (Option.isNone(payment)) return yield* malformed(`dLocal answered ${response.status} with an unreadable body`)
    return yield* outcomeOf(request, payment.value)
  })
}
