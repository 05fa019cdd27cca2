/**
 * A Pagar.me credit card charge, through the card vault. The plugin never holds the card's
 * number or security code: it writes the order (`OrderBody.ts`, `credit_card.card` with the
 * vault's placeholders) and asks `CardVault.forward` to send it to `POST /orders`; the vault fills
 * the placeholders in and answers Pagar.me's response with the number masked. Everything that
 * carries no card data (the lookup of an earlier order by `code`, status reads, refunds) goes
 * through the plugin's own HTTP client as for PIX and boleto.
 *
 * - Refused before any call: no card on the request (`card_required`), a card of another brand
 *   than the rail's (`card_brand_mismatch`), a card whose security code the vault no longer holds
 *   (`security_code_required`): all `Declined` (another provider could not charge it either); no
 *   vault in this host (`card_vault_unavailable`, `Misconfigured`).
 * - The vault's failures: `ForwardOutcomeUnknown` (the vault timed out waiting for Pagar.me, or
 *   did not answer) is `OutcomeUnknown` `timeout`: the order may exist, and the same call again
 *   finds it by its `code` first. `ForwardUnreachable` is `Failed` (nothing was sent).
 *   `ForwardRefused`: `host_not_allowed` is `Misconfigured` (the vault's allowlist lacks
 *   Pagar.me's host), `security_code_gone` and `token_not_found` are `Failed`.
 * - Pagar.me's HTTP answer reads as `UpstreamHttp` reads it (401 misconfigured, 422/412 declined,
 *   429 and 503 failed, other 5xx unknown). A `200` order is paid (`completed`), processing
 *   (`pending`: the acquirer settles it later, the webhook or the reconcile poll tells), or
 *   refused: the acquirer's return code (`CardWire.ts`) as a `CardDecline`: a hard one is
 *   `Declined` with the word as its code, a soft one `Failed` (nothing was charged: the cascade
 *   may try the next acquirer).
 * - `capture: false` orders `auth_only`: the held authorization answers `authorized`
 *   (`CardCapture.ts` captures or voids it). `threeDSecure: "required"` is refused before any
 *   call (`Failed` `three_d_secure_unsupported`: Pagar.me's 3-D Secure needs its browser script).
 */
import { Effect, Option, Redacted, Schema } from "effect"
import { isHardDecline } from "../../core/ports/CardDeclines.ts"
import type { CardVault } from "../../core/ports/CardVault.ts"
import type { ChargeAccepted, ChargeRequest, ProviderError } from "../../core/ports/PaymentProvider.ts"
import { forwardCard } from "../kit/CardForward.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import * as CardWire from "./CardWire.ts"
import { orderBodyOf } from "./OrderBody.ts"
import type { Rail } from "./Rails.ts"
import * as Wire from "./Wire.ts"

export interface CardChargeDeps {
  readonly providerId: string
  readonly baseUrl: string
  readonly timeoutMs: number
  /** `base64(<secret key>:)`, for the forwarded request's `Authorization: Basic`. */
  readonly basicCredential: Redacted.Redacted<string>
  readonly statementDescriptor?: string | undefined
  readonly upstream: UpstreamHttp
  /** The order made earlier for this transaction (`GET /orders?code=`), if any. */
  readonly earlierOrder: (transactionId: string) => Effect.Effect<Wire.Order | undefined, ProviderError>
  readonly vault: Option.Option<CardVault["Service"]>
}

const decodeOrder = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.Order))

/** The merchant the token belongs to, when the charge's card names it (the port's `ChargeCard` does not yet). */

export const make = (deps: CardChargeDeps) => {
  const { declined, failed, malformed, misconfigured, outcomeUnknown, clip } = deps.upstream

  const statusError = (status: number, text: string): ProviderError => {
    const said = Wire.readError(text)
    const words = clip(said.message ?? said.code ?? "")
    const message = `Pagar.me answered ${status}${words === "" ? "" : `: ${words}`}`
    if (status === 503) return failed("upstream_unavailable", message)
    if (status >= 500) return outcomeUnknown("upstream_unavailable", message)
    if (status === 429) return failed("rate_limited", message)
    if (status === 401 || status === 403) return misconfigured("invalid_credentials", message)
    if (status >= 400) return declined(clip(said.code ?? `http_${status}`), message)
    return malformed(message)
  }

  /** What an order says about its card charge: accepted (paid or processing) or a decline. */
  const outcomeOf = (request: ChargeRequest, order: Wire.Order): Effect.Effect<ChargeAccepted, ProviderError> => {
    if (order.code !== undefined && order.code !== null && order.code !== request.transactionId) {
      return Effect.fail(malformed("Pagar.me answered about another order"))
    }
    const charge = order.charges?.[0]
    if (charge === undefined) return Effect.fail(malformed(`order ${order.id} has no charge`))
    const transaction = charge.last_transaction ?? undefined
    const byTransaction = transaction?.status === undefined || transaction.status === null ? undefined : CardWire.toCardChargeStatus(transaction.status)
    const byCharge = Wire.toChargeStatus(charge)
    // The charge speaks first: a `processing` charge whose transaction is in error is not final
    // (the test-card page's "processing -> success" card), the acquirer settles it later.
    if (order.status === "failed" || byCharge === "failed") {
      const returnCode = transaction?.acquirer_return_code ?? undefined
      const decline = transaction?.antifraud_response?.status === "reproved"
        ? "fraud"
        : returnCode === undefined && transaction?.status === "with_error"
        ? "processing_error"
        : CardWire.declineOf(returnCode)
      const said = clip(`${transaction?.status ?? charge.status}${returnCode === undefined ? "" : ` ${returnCode}`} ${transaction?.acquirer_message ?? ""}`.trim())
      const message = `Pagar.me refused card charge ${charge.id}: ${said}`
      return Effect.fail(isHardDecline(decline) ? declined(decline, message) : failed(decline, message))
    }
    // `auth_only` (`capture: false`): an authorization held (charge `pending`, transaction
    // `authorized_pending_capture`) is `authorized`; `CardCapture.ts` captures or voids it.
    const status = byCharge === "completed" && (byTransaction === undefined || byTransaction === "completed")
      ? "completed"
      : request.capture === false && byCharge === "pending" && byTransaction === "authorized"
      ? "authorized"
      : "pending"
    return Effect.succeed({
      providerRef: charge.id,
      status,
      // A card is charged at once: there is no page for the buyer to go to.
      paymentFormUrl: "",
      paymentData: UpstreamHttp.defined({
        paymentMethod: "credit_card",
        orderId: order.id,
        brand: request.card?.brand,
        last4: request.card?.last4,
        acquirerReturnCode: transaction?.acquirer_return_code ?? undefined
      })
    } satisfies ChargeAccepted)
  }

  return Effect.fn("PagarmeProvider.cardCharge")(function*(request: ChargeRequest, rail: Rail) {
    const card = request.card
    if (card === undefined) return yield* declined("card_required", `${request.method.id} is a card rail: the charge needs the card's token`)
    if (rail.brand !== undefined && card.brand !== rail.brand) {
      return yield* declined("card_brand_mismatch", `the card is ${card.brand}, the rail ${rail.brand}`)
    }
    // Pagar.me's 3-D Secure runs in the buyer's browser with its own script (`3ds-nx-js`, a
    // `tds-token` JWT) and hands no challenge URL to redirect to: it cannot be served here. Failed
    // (nothing was sent), so the cascade tries an acquirer that can (README, "3-D Secure").
    if (request.threeDSecure === "required") {
      return yield* failed("three_d_secure_unsupported", "Pagar.me authenticates with 3-D Secure only through its browser script, which this connector cannot run")
    }
    if (!card.securityCodeHeld) return yield* declined("security_code_required", "Pagar.me charges a card with its security code, which the vault no longer holds")
    if (Option.isNone(deps.vault)) return yield* misconfigured("card_vault_unavailable", "no card vault is configured to forward the card")
    const built = orderBodyOf(rail, request, yield* Effect.clockWith((clock) => clock.currentTimeMillis), deps.statementDescriptor)
    if (built._tag === "Failure") return yield* failed(built.failure.reason, built.failure.message)
    const earlier = yield* deps.earlierOrder(request.transactionId)
    if (earlier !== undefined) return yield* outcomeOf(request, earlier)
    const response = yield* forwardCard(deps.vault.value, {
      token: card.token,
      merchantId: card.merchantId,
      providerId: deps.providerId,
      method: "POST",
      url: `${deps.baseUrl}/orders`,
      headers: {
        // The vault is where the request is sent from: it needs the key as the request carries it.
        authorization: `Basic ${Redacted.value(deps.basicCredential)}`,
        "content-type": "application/json",
        accept: "application/json",
        "idempotency-key": request.idempotencyKey
      },
      body: JSON.stringify(built.success),
      timeoutMs: deps.timeoutMs
    }, { failures: deps.upstream, purpose: request.transactionId })
    if (response.status < 200 || response.status >= 300) return yield* statusError(response.status, response.body)
    const order = decodeOrder(response.body)
    if (Option.isNone(order)) return yield* malformed(`Pagar.me answered ${response.status} with an unreadable body`)
    return yield* outcomeOf(request, order.value)
  })
}
