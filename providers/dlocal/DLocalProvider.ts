/**
 * The dLocal pay-in connector (Payins API 2.1): PIX and boleto in Brazil, SPEI and OXXO in Mexico,
 * PSE and Efecty in Colombia, PagoEfectivo in Peru, Webpay in Chile and Rapipago in Argentina
 * (`Rails.ts`), all in dLocal's REDIRECT flow: the buyer is sent to dLocal's page for the method
 * (QR code, voucher, bank redirect). Every call is signed (`Signing.ts`, `Client.ts`).
 *
 * - **Idempotency.** dLocal documents no idempotency header for pay-ins; its key for a payment is
 *   `order_id`, unique per merchant: the engine's transaction id, the same on every retry of the
 *   charge. A retry after a lost answer is refused `400 5009 Order ID is duplicated`; the connector
 *   then reads the order (`GET /orders/{order_id}`, which answers the order object and its
 *   `payment_id`) and the payment itself (`GET /payments/{payment_id}`), and answers that payment:
 *   one upstream payment, however often the charge is retried. A refund carries the engine's
 *   refund id as dLocal's `order_refund_id` and is looked up by it before it is sent (`Refunds.ts`).
 * - **Declines.** A payment created `REJECTED`, and dLocal's refusals of the buyer or the amount
 *   (5005 cadastral situation, 5006/5007/5016 limits, 5014 blacklisted, 5000/5001 invalid data...),
 *   are `ProviderError`s of reason `Declined`. A country, currency or method this account cannot take
 *   (5003, 5004, 5010), our API version (5017) and refused credentials (403 3001-3003) are
 *   `Misconfigured`; the acquirer's failure (5021), 429 (6000), 5xx (7000) and timeouts are
 *   `Failed` or `OutcomeUnknown` (`providers/kit/UpstreamHttp.ts`): the next provider may try.
 * - **Notifications.** dLocal POSTs the payment object signed like every request; the connector
 *   verifies the signature over the exact bytes, accepts the `X-Date` of a retried notification
 *   within dLocal's retry horizon (`Signing.ts`), then reads the status.
 * - **Cards** (`Rails.ts` card rails, `payment_method_id: "CARD"`) go through the card vault,
 *   which signs the filled body for the plugin: `CardCharge.ts`. A card rail is served only where
 *   a vault is there to forward the card.
 * - **Secrets** (`login`, `transKey`, `secretKey`) stay `Redacted` and out of errors and logs.
 */
import { Effect, Option, Redacted, Schema } from "effect"
import type { Mac } from "effect/crypto"
import type { HttpClient } from "effect/http"
import { CardVault, Money, type PaymentMethodDef } from "../../core/ports/index.ts"
import {
  type BuyerAddress,
  CallbackRejected,
  type ChargeAccepted,
  type ChargeRequest,
  type ChargeUpdate,
  type PaymentProvider
} from "../../core/ports/PaymentProvider.ts"
import { clear } from "../kit/Buyer.ts"
import { defineConnector } from "../kit/Connector.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import * as CardCharge from "./CardCharge.ts"
import { baseUrls, type ClientOptions, defaultTimeoutMs, makeClient } from "./Client.ts"
import { payoutsFromSettings } from "./Payouts.ts"
import * as Rails from "./Rails.ts"
import { makeRefund, outcomeOf } from "./Refunds.ts"
import { dlocalSettlementReport } from "./Report.ts"
import { verifyNotification } from "./Signing.ts"
import * as Wire from "./Wire.ts"

export interface Options extends ClientOptions {
  readonly displayName?: string | undefined
  /**
   * dLocal's `callback_url`: where its page sends the buyer back after paying (the shop's own
   * page). Omitted when not configured; dLocal's REDIRECT examples omit it too. Never the engine's
   * notification URL, which takes signed POSTs, not a browser.
   */
  readonly returnUrl?: string | undefined
}

/**
 * dLocal's payer `address` (https://docs.dlocal.com/reference/the-payer-object: `state`, `city`,
 * `zip_code`, `street`, `number`); the complement and district have no field there.
 */
const payerAddress = (address: BuyerAddress) => ({
  street: address.street,
  number: address.number,
  city: address.city,
  state: address.state,
  zip_code: address.postalCode
})

const decodeNotification = Schema.decodeUnknownEffect(Schema.fromJsonString(Wire.PaymentObject))
const decodeRefundNotification = Schema.decodeUnknownEffect(Schema.fromJsonString(Wire.RefundObject))
/** A refund object names its payment (`payment_id`) at the top; a payment object does not. */
const namesPayment = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Struct({ payment_id: Schema.String })))
const isRefundNotification = (rawBody: string) => Option.isSome(namesPayment(rawBody))

export const make = (options: Options): Effect.Effect<PaymentProvider, never, HttpClient.HttpClient | Mac.Mac> =>
  Effect.gen(function*() {
    const client = yield* makeClient(options)
    const { declined, failed, malformed, misconfigured, mac } = client

    /** The shared client's verdict, with the pay-in codes it does not know (`Wire.notAboutTheCharge`). */
    const call = <A>(operation: string, path: string, schema: Schema.Codec<A, unknown>, body?: string) =>
      client.call(operation, path, schema, body).pipe(
        Effect.mapError((error) => {
          const reason = error.reason._tag === "Declined" ? Wire.notAboutTheCharge.get(error.code) : undefined
          return reason === undefined ? error : client.of({ reason, code: error.code }, error.message)
        })
      )

    const payerOf = (request: ChargeRequest) =>
      // What the engine does not know is left out, never sent empty: the fields dLocal needs are
      // declared in `requires`, so the engine refuses a charge without them before any call.
      UpstreamHttp.defined({
        name: clear(request.customer.name),
        email: clear(request.customer.email),
        document: clear(request.customer.documentId),
        phone: clear(request.customer.phone),
        ip: request.customer.ip,
        address: request.customer.address === undefined ? undefined : payerAddress(Redacted.value(request.customer.address))
      })

    // A card rail needs a vault to forward the card (`CardCharge.ts`). A host without one provides
    // `CardVault.unconfigured`, told by identity: with it card rails are not served.
    const unconfigured = yield* Effect.provide(Effect.service(CardVault), CardVault.unconfigured)
    const vault = Option.filter(yield* Effect.serviceOption(CardVault), (given) => given !== unconfigured)
    const cardCharge = CardCharge.make({
      providerId: options.id,
      baseUrl: (options.baseUrl ?? baseUrls[options.environment]).replace(/\/+$/, ""),
      timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
      credentials: options,
      client,
      payerOf,
      returnUrl: options.returnUrl,
      vault
    })

    const supports = (method: PaymentMethodDef) => {
      const rail = Rails.railOf(method)
      return rail !== undefined && (!Rails.isCardRail(rail) || Option.isSome(vault))
    }

    const update = (payment: Wire.PaymentObject): ChargeUpdate => ({
      providerRef: payment.id,
      transactionId: payment.order_id,
      status: Wire.toUpdateStatus(payment.status),
      detail: payment.status_detail
    })

    const payment = (providerRef: string) => call("status", `/payments/${encodeURIComponent(providerRef)}`, Wire.PaymentObject)

    /** The payment dLocal already holds for this order (the charge's retry after a lost answer). */
    const held = (transactionId: string) =>
      Effect.gen(function*() {
        const order = yield* call("charge.lookup", `/orders/${encodeURIComponent(transactionId)}`, Wire.OrderObject)
        if (order.order_id !== transactionId) return yield* malformed("dLocal answered about another order")
        return yield* payment(order.payment_id)
      })

    const charge = Effect.fn("DLocalProvider.charge")(function*(request: ChargeRequest) {
      const rail = Rails.railOf(request.method)
      if (rail === undefined) return yield* misconfigured("method_not_served", `dLocal is not configured for ${request.method.id}`)
      if (!rail.currencies.includes(request.currency)) {
        return yield* misconfigured("currency_not_served", `dLocal is not configured for ${request.currency} on ${request.method.id}`)
      }
      if (Rails.isCardRail(rail)) return yield* cardCharge(request, rail)
      const amount = Money.round(request.amount, request.currency)
      if (amount.scale > Rails.dlocalDecimals(request.currency)) {
        // COP has two decimals in ISO 4217 and none at dLocal: cents cannot be charged here, and
        // dLocal documents no rounding. Another provider may take the amount as it is.
        return yield* failed("amount_precision", `dLocal takes ${request.currency} amounts with ${Rails.dlocalDecimals(request.currency)} decimals`)
      }
      // The exact JSON text that is signed and sent. `amount` is a JSON number in major units:
      // `JsonDecimal` carries `Money.toText` of the BigDecimal and `jsonText` splices that text in
      // as the number literal (`"amount":1234.5`), so no float ever holds the amount on our side.
      const body = UpstreamHttp.jsonText({
        amount: new UpstreamHttp.JsonDecimal(amount),
        currency: request.currency,
        country: request.country,
        payment_method_id: rail.paymentMethodId,
        payment_method_flow: "REDIRECT",
        payer: payerOf(request),
        order_id: request.transactionId,
        description: `Payment ${request.transactionId}`,
        notification_url: request.callbackUrl,
        ...UpstreamHttp.defined({ callback_url: options.returnUrl })
      })
      const created = yield* call("charge", "/payments", Wire.PaymentObject, body).pipe(
        Effect.catchIf((error) => error.code === Wire.errorCodes.orderIdDuplicated, () => held(request.transactionId))
      )
      if (created.order_id !== request.transactionId) {
        return yield* malformed("dLocal answered about another order")
      }
      const status = Wire.toChargeStatus(created.status)
      const detail = created.status_detail ?? created.status
      if (status === "failed") return yield* declined("rejected", `dLocal rejected the payment: ${detail}`)
      if (created.redirect_url === undefined) {
        // A pending payment without its page cannot be shown to the buyer, who never saw it (its
        // answer was lost): the cascade may try another provider and this one lapses unpaid. One
        // dLocal calls paid or expired must not be charged again elsewhere.
        const message = `dLocal answered a ${created.status} payment without a redirect_url`
        return yield* (status === "pending" ? failed("no_redirect_url", message) : declined("no_redirect_url", message))
      }
      return {
        providerRef: created.id,
        status,
        paymentFormUrl: created.redirect_url,
        paymentData: { method: rail.paymentMethodId, ...(created.ticket === undefined ? {} : { ticket: created.ticket }) }
      } satisfies ChargeAccepted
    })

    const status = Effect.fn("DLocalProvider.status")(function*(providerRef: string, transactionId: string) {
      const found = yield* payment(providerRef)
      // Only the payment asked about may speak: an answer about another one changes nothing.
      if (found.id !== providerRef || found.order_id !== transactionId) {
        return yield* malformed("dLocal answered about another payment")
      }
      return update(found)
    })

    const refund = makeRefund({ ...client, call })

    const verifyCallback = (headers: Readonly<Record<string, string | undefined>>, rawBody: string) =>
      Effect.gen(function*() {
        const verdict = yield* verifyNotification(options, headers, rawBody)
        if (verdict !== "valid") return yield* new CallbackRejected({ reason: `signature ${verdict}` })
        if (isRefundNotification(rawBody)) {
          // A refund's notification (the refund object, signed), sent to the refund's
          // notification_url (the payment's). It names the payment only by `payment_id`: the
          // payment is read for its order id and status, and the update carries the refund as
          // dLocal notified it, so the engine settles or fails a pending refund at once.
          const notified = yield* decodeRefundNotification(rawBody).pipe(Effect.mapError(() => new CallbackRejected({ reason: "unreadable body" })))
          const paymentId = notified.payment_id ?? ""
          const found = yield* payment(paymentId).pipe(
            Effect.mapError((error) => new CallbackRejected({ reason: `payment query failed: ${error.code}` }))
          )
          if (found.id !== paymentId) return yield* new CallbackRejected({ reason: "dLocal answered about another payment" })
          return [{ ...update(found), refunds: [outcomeOf(notified)] }]
        }
        const notified = yield* decodeNotification(rawBody).pipe(
          Effect.mapError(() => new CallbackRejected({ reason: "unreadable body" }))
        )
        return [update(notified)]
      }).pipe(
        // Untrusted input must never escape as a defect.
        Effect.catchDefect(() => Effect.fail(new CallbackRejected({ reason: "unreadable callback" }))),
        Effect.provideContext(mac),
        Effect.withSpan("DLocalProvider.verifyCallback")
      )

    return {
      id: options.id,
      displayName: options.displayName ?? "dLocal",
      environments: [options.environment],
      supports,
      requires: Rails.requiresBeyondCatalog,
      charge,
      status,
      verifyCallback,
      refund
    } satisfies PaymentProvider
  })

/**
 * One dLocal account: its pay-ins and its payouts (`CONNECTORS=<id>=dlocal`). Secrets `LOGIN`
 * (`X-Login`), `TRANS_KEY` (`X-Trans-Key`), `SECRET_KEY` (the HMAC key, both ways), and the
 * Payouts v3 OAuth2 credentials `CLIENT_ID` and `CLIENT_SECRET`; optional `RETURN_URL` (the
 * buyer's way back, dLocal's `callback_url`) and the payout settings.
 */
export const DLocalConnector = defineConnector({
  kind: "dlocal",
  secrets: ["LOGIN", "TRANS_KEY", "SECRET_KEY"],
  // Payouts v3 authenticate with OAuth2 client credentials: without them, pay-ins only.
  payoutSecrets: ["CLIENT_ID", "CLIENT_SECRET"],
  settings: ["RETURN_URL", "PAYOUT_PURPOSE", "PAYOUT_FLOW_TYPE"],
  rails: Rails.rails,
  wire: Wire,
  statusMaps: { payments: Wire.paymentStatusMap, refunds: Wire.refundStatusMap },
  make,
  options: (settings) => ({
    login: settings.secrets["LOGIN"]!,
    transKey: settings.secrets["TRANS_KEY"]!,
    secretKey: settings.secrets["SECRET_KEY"]!,
    returnUrl: settings.values["RETURN_URL"]
  }),
  payoutProvider: payoutsFromSettings,
  // dLocal e-mails or SFTPs its settlement report: uploaded by an operator, no reports API.
  reportFormats: () => [dlocalSettlementReport]
})

/** Registers the provider; the host provides `HttpClient` (e.g. `FetchHttpClient.layer`) and `Mac`. */
export const { connector, layer } = DLocalConnector

export const DLocalProvider = { make, layer, connector }
