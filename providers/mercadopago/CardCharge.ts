/**
 * A Mercado Pago card payment, through the card vault. Mercado Pago charges a card only by its
 * own single-use card token, so a charge is two calls (`CardWire.ts` cites the pages):
 *
 * 1. **Tokenize, through the vault.** The plugin writes `POST /v1/card_tokens` with the vault's
 *    placeholders (`CardPlaceholders`: number, security code, holder name; the expiry is not
 *    secret and goes as numbers) and asks `CardVault.forward` to send it; the vault fills them in
 *    and answers Mercado Pago's token with any number masked. The plugin reads only the token `id`.
 * 2. **Charge, with the plugin's own client.** `POST /v1/payments` with `token`,
 *    `payment_method_id` (the rail's brand word), `installments` (the engine's count, 1 when absent; who pays
 *    the interest is the Mercado Pago account's own setting), `external_reference` = the
 *    transaction id and `X-Idempotency-Key` = the charge's key. No card data is in that call.
 *
 * Exactly once:
 * - Before anything, the payment made earlier for this transaction is looked for
 *   (`GET /v1/payments/search?external_reference=`): a retry after an unknown outcome answers that
 *   payment and never tokenizes or charges again (the vault dropped the security code anyway).
 * - The token step cannot charge anyone: a token is not a payment. So the vault's
 *   `ForwardOutcomeUnknown` on it (a timeout, a lost answer) is `Failed` `tokenization_unknown`
 *   (nothing was charged; the cascade may go on), not `OutcomeUnknown`. Redoing it is safe for
 *   the same reason; it only needs the security code again, which the vault holds for one use.
 * - The payment step is the one whose outcome can be unknown: a timeout or a 5xx there is
 *   `OutcomeUnknown` (`UpstreamHttp`); the same call again finds the payment by the search above,
 *   and Mercado Pago's key would answer the first payment too.
 *
 * Answers: `approved` is `completed`; `in_process` / `pending` are `pending` (the notification or
 * the reconcile poll tells the end); `pending` / `pending_challenge` is `pending` with
 * `nextAction` `redirect_to_url` = `three_ds_info.external_resource_url` (the `creq` in
 * `paymentData`); `rejected` (or `cancelled`) is a decline by `status_detail`
 * (`CardWire.declineOf`): hard -> `Declined` with the word, soft -> `Failed` with the word;
 * `cc_rejected_duplicated_payment` -> `Declined` `duplicated_payment` (another acquirer could
 * charge the buyer twice). `threeDSecure: "required"` sends `three_d_secure_mode: "optional"`
 * (the mode that lets the issuer challenge). `capture: false` is refused before any call
 * (`Failed` `capture_later_unsupported`): authorize-only is not built for this connector yet.
 */
import { Effect, Option, Redacted, Schema } from "effect"
import { HttpClientRequest } from "effect/http"
import { isHardDecline } from "../../core/ports/CardDeclines.ts"
import { type ChargeCard, CardPlaceholders, type CardVault } from "../../core/ports/CardVault.ts"
import type { ChargeAccepted, ChargeRequest, ProviderError } from "../../core/ports/PaymentProvider.ts"
import { clear } from "../kit/Buyer.ts"
import { forwardCard } from "../kit/CardForward.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import * as CardWire from "./CardWire.ts"
import { identificationOf, nameParts } from "./Payer.ts"
import type { Rail } from "./Rails.ts"
import * as Wire from "./Wire.ts"

export interface CardChargeDeps {
  readonly providerId: string
  readonly baseUrl: string
  readonly timeoutMs: number
  readonly accessToken: Redacted.Redacted<string>
  readonly upstream: UpstreamHttp
  /** A call with the plugin's own client (bearer token, JSON). */
  readonly call: <A>(operation: string, request: HttpClientRequest.HttpClientRequest, schema: Schema.Codec<A, unknown>) => Effect.Effect<A, ProviderError>
  readonly notificationUrl: (callbackUrl: string) => string
  readonly vault: Option.Option<CardVault["Service"]>
}

const decodeToken = Schema.decodeUnknownOption(Schema.fromJsonString(CardWire.CardToken))
const decodeError = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.ErrorBody))

export const make = (deps: CardChargeDeps) => {
  const { declined, failed, malformed, misconfigured, clip } = deps.upstream

  /** The payment made earlier for this transaction, if any (the newest first). */
  const earlierPayment = (transactionId: string) =>
    deps.call(
      "charge.lookup",
      HttpClientRequest.get(`${deps.baseUrl}/v1/payments/search`).pipe(
        HttpClientRequest.setUrlParams({ external_reference: transactionId, sort: "date_created", criteria: "desc" })
      ),
      CardWire.PaymentSearch
    ).pipe(Effect.map((found) => (found.results ?? []).find((p) => p.external_reference === transactionId)))

  /** What the token endpoint's refusal says: a card it would not tokenize is the card's fault. */
  const tokenStatusError = (status: number, text: string): ProviderError => {
    const said = Option.getOrUndefined(decodeError(text))
    const words = clip(said?.cause?.[0]?.description ?? said?.message ?? "")
    const message = `Mercado Pago card_tokens answered ${status}${words === "" ? "" : `: ${words}`}`
    if (status === 401 || status === 403) return misconfigured("invalid_credentials", message)
    if (status === 429) return failed("rate_limited", message)
    // A token is not a charge: even a 5xx here charged nobody.
    if (status >= 500) return failed("upstream_unavailable", message)
    return declined("invalid_card", message)
  }

  const tokenize = (vault: CardVault["Service"], card: ChargeCard, request: ChargeRequest, rail: Rail) =>
    Effect.gen(function*() {
      const identification = identificationOf(rail.country, clear(request.customer.documentId))
      const body = JSON.stringify({
        card_number: CardPlaceholders.number,
        security_code: CardPlaceholders.securityCode,
        expiration_month: card.expMonth,
        expiration_year: card.expYear,
        cardholder: { name: CardPlaceholders.holderName, ...(identification === undefined ? {} : { identification }) }
      })
      const response = yield* forwardCard(vault, {
        token: card.token,
        merchantId: card.merchantId,
        providerId: deps.providerId,
        method: "POST",
        url: `${deps.baseUrl}/v1/card_tokens`,
        headers: {
          // The vault sends this request: it needs the access token as the request carries it.
          authorization: `Bearer ${Redacted.value(deps.accessToken)}`,
          "content-type": "application/json",
          accept: "application/json"
        },
        body,
        timeoutMs: deps.timeoutMs
      }, {
        failures: deps.upstream,
        purpose: request.transactionId,
        // Safe: a token is not a charge (see the header): nothing was charged.
        noAnswer: (message) => failed("tokenization_unknown", message)
      })
      if (response.status < 200 || response.status >= 300) return yield* tokenStatusError(response.status, response.body)
      const token = decodeToken(response.body)
      if (Option.isNone(token)) return yield* failed("malformed_token", `Mercado Pago card_tokens answered ${response.status} with an unreadable body`)
      return token.value.id
    })

  /** What a card payment says: accepted (approved, pending, a challenge) or a decline. */
  const outcomeOf = (request: ChargeRequest, rail: Rail, payment: CardWire.CardPayment): Effect.Effect<ChargeAccepted, ProviderError> => {
    const providerRef = Wire.idText(payment.id)
    const echoed = payment.external_reference ?? undefined
    if (echoed !== undefined && echoed !== request.transactionId) return Effect.fail(malformed("Mercado Pago answered about another payment"))
    const detail = payment.status_detail ?? undefined
    const status = Wire.toChargeStatus(payment.status, detail)
    if (status === "failed" || status === "expired") {
      const message = `Mercado Pago ${payment.status} card payment ${providerRef}: ${clip(detail ?? "")}`
      if (detail === CardWire.duplicatedPayment) return Effect.fail(declined("duplicated_payment", message))
      const decline = CardWire.declineOf(detail)
      return Effect.fail(isHardDecline(decline) ? declined(decline, message) : failed(decline, message))
    }
    const challenge = detail === CardWire.pendingChallenge ? payment.three_ds_info ?? undefined : undefined
    const challengeUrl = challenge?.external_resource_url ?? undefined
    if (detail === CardWire.pendingChallenge && challengeUrl === undefined) {
      return Effect.fail(malformed(`card payment ${providerRef} asks for a 3-D Secure challenge without its URL`))
    }
    return Effect.succeed({
      providerRef,
      status,
      // A card is charged at once: there is no page for the buyer to go to (a challenge is `nextAction`).
      paymentFormUrl: "",
      paymentData: UpstreamHttp.defined({
        paymentMethod: "credit_card",
        paymentMethodId: rail.paymentMethodId,
        brand: request.card?.brand,
        last4: request.card?.last4,
        statusDetail: detail,
        threeDSecureCreq: challenge?.creq ?? undefined
      }),
      ...(challengeUrl === undefined ? {} : { nextAction: { type: "redirect_to_url", url: challengeUrl } as const })
    } satisfies ChargeAccepted)
  }

  return Effect.fn("MercadoPagoProvider.cardCharge")(function*(request: ChargeRequest, rail: Rail) {
    const card = request.card
    if (card === undefined) return yield* declined("card_required", `${request.method.id} is a card rail: the charge needs the card's token`)
    if (rail.brand !== undefined && card.brand !== rail.brand) {
      return yield* declined("card_brand_mismatch", `the card is ${card.brand}, the rail ${rail.brand}`)
    }
    if (Option.isNone(deps.vault)) return yield* misconfigured("card_vault_unavailable", "no card vault is configured to forward the card")
    if (request.capture === false) {
      return yield* failed("capture_later_unsupported", "the Mercado Pago connector does not authorize without capture yet")
    }
    const email = clear(request.customer.email)
    if (email === undefined || email.trim() === "") return yield* failed("payer_email_required", "Mercado Pago requires payer.email")
    // A retry finds the payment made first, before it needs the security code again.
    const earlier = yield* earlierPayment(request.transactionId)
    if (earlier !== undefined) return yield* outcomeOf(request, rail, earlier)
    if (!card.securityCodeHeld) {
      return yield* declined("security_code_required", "Mercado Pago tokenizes a card with its security code, which the vault no longer holds")
    }
    const token = yield* tokenize(deps.vault.value, card, request, rail)
    const identification = identificationOf(rail.country, clear(request.customer.documentId))
    const body = UpstreamHttp.jsonText({
      transaction_amount: new UpstreamHttp.JsonDecimal(request.amount),
      token,
      description: `Payment ${request.transactionId}`,
      installments: request.installments?.count ?? 1,
      payment_method_id: rail.paymentMethodId,
      external_reference: request.transactionId,
      notification_url: deps.notificationUrl(request.callbackUrl),
      ...(request.threeDSecure === "required" ? { three_d_secure_mode: "optional" } : {}),
      payer: {
        email,
        ...UpstreamHttp.defined(nameParts(clear(request.customer.name))),
        ...(identification === undefined ? {} : { identification })
      }
    })
    const payment = yield* deps.call(
      "charge",
      HttpClientRequest.post(`${deps.baseUrl}/v1/payments`).pipe(
        HttpClientRequest.setHeader("X-Idempotency-Key", request.idempotencyKey),
        HttpClientRequest.bodyText(body, "application/json")
      ),
      CardWire.CardPayment
    )
    return yield* outcomeOf(request, rail, payment)
  })
}
