/**
 * The dLocal pay-in connector (Payins API): PIX and boleto in Brazil, SPEI and OXXO in Mexico, PSE
 * and Efecty in Colombia, PagoEfectivo in Peru, Webpay in Chile and Rapipago in Argentina
 * (`Wire.ts`), all in dLocal's REDIRECT flow: the buyer is sent to dLocal's page for the method
 * (QR code, voucher, bank redirect). Every call is signed (`Signing.ts`, `Client.ts`).
 *
 * - **Idempotency.** dLocal's key for a payment is `order_id`, unique per merchant: the engine's
 *   transaction id, the same on every retry of the charge. A retry after a lost answer is refused
 *   `400 5009 Order ID is duplicated`, and the connector answers the payment dLocal already holds
 *   (`GET /orders/{order_id}`), so it is never charged twice. A refund carries its own `id` (the
 *   engine's refund id): a retried refund answers the refund already made.
 * - **Declines.** A payment created `REJECTED`, and dLocal's refusals of the buyer (5005 cadastral
 *   situation, 5006/5007 limits, 5014 blacklisted...), are `ProviderError` not retryable. A
 *   country, currency or method this account cannot take (5003, 5004, 5010), outages, 429 (6000),
 *   5xx (7000), timeouts and refused credentials (403 3001-3003) are retryable.
 * - **Notifications.** dLocal POSTs the payment object signed like every request; the connector
 *   verifies the signature over the exact bytes and the `X-Date` (300 s), then reads the status.
 * - **Secrets** (`login`, `transKey`, `secretKey`) stay `Redacted` and out of errors and logs.
 */
import { Effect, Schema } from "effect"
import type { Mac } from "effect/crypto"
import type { HttpClient } from "effect/http"
import * as Money from "../../core/Money.ts"
import { ProviderRegistry } from "../../core/payments/ProviderRegistry.ts"
import {
  CallbackRejected,
  type ChargeAccepted,
  type ChargeRequest,
  type ChargeUpdate,
  type PaymentProvider,
  type RefundRequest
} from "../../core/ports/PaymentProvider.ts"
import type { Connector, ConnectorSettings } from "../kit/Connector.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import { type ClientOptions, makeClient } from "./Client.ts"
import { payoutsFromSettings } from "./Payouts.ts"
import { verifyNotification } from "./Signing.ts"
import * as Wire from "./Wire.ts"

export interface Options extends ClientOptions {
  readonly displayName?: string | undefined
}

const decodeNotification = Schema.decodeUnknownEffect(Schema.fromJsonString(Wire.PaymentObject))

export const make = (options: Options): Effect.Effect<PaymentProvider, never, HttpClient.HttpClient | Mac.Mac> =>
  Effect.gen(function*() {
    const { call, fail, mac } = yield* makeClient(options)

    const update = (payment: Wire.PaymentObject): ChargeUpdate => ({
      providerRef: payment.id,
      transactionId: payment.order_id,
      status: Wire.toUpdateStatus(payment.status),
      detail: payment.status_detail
    })

    const charge = Effect.fn("DLocalProvider.charge")(function*(request: ChargeRequest) {
      const method = Wire.rails[request.method.id]
      if (method === undefined) return yield* fail(true, "method_not_served", `dLocal is not configured for ${request.method.id}`)
      const body = UpstreamHttp.jsonText({
        amount: new UpstreamHttp.JsonDecimal(request.amount),
        currency: request.currency,
        country: request.country,
        payment_method_id: method,
        payment_method_flow: "REDIRECT",
        payer: {
          name: request.customer.name ?? "",
          email: request.customer.email ?? "",
          document: request.customer.documentId ?? "",
          ...UpstreamHttp.defined({ phone: request.customer.phone, ip: request.customer.ip })
        },
        order_id: request.transactionId,
        description: `Payment ${request.transactionId}`,
        notification_url: request.callbackUrl,
        callback_url: request.callbackUrl
      })
      const payment = yield* call("charge", "/payments", Wire.PaymentObject, body).pipe(
        Effect.catchIf(
          (error) => error.reason === Wire.errorCodes.orderIdDuplicated,
          () => call("charge.lookup", `/orders/${encodeURIComponent(request.transactionId)}`, Wire.PaymentObject)
        )
      )
      if (payment.order_id !== request.transactionId) {
        return yield* fail(true, "malformed_response", "dLocal answered about another order")
      }
      const status = Wire.toChargeStatus(payment.status)
      if (status === "failed") return yield* fail(false, payment.status_detail ?? "rejected", `dLocal rejected the payment: ${payment.status_detail ?? payment.status}`)
      if (payment.redirect_url === undefined) return yield* fail(true, "malformed_response", "dLocal answered without a redirect_url")
      return {
        providerRef: payment.id,
        status,
        paymentFormUrl: payment.redirect_url,
        paymentData: { method, ...(payment.ticket === undefined ? {} : { ticket: payment.ticket }) }
      } satisfies ChargeAccepted
    })

    const status = Effect.fn("DLocalProvider.status")(function*(providerRef: string, transactionId: string) {
      const payment = yield* call("status", `/payments/${encodeURIComponent(providerRef)}`, Wire.PaymentObject)
      // Only the payment asked about may speak: an answer about another one changes nothing.
      if (payment.id !== providerRef || payment.order_id !== transactionId) {
        return yield* fail(true, "malformed_response", "dLocal answered about another payment")
      }
      return update(payment)
    })

    const refund = Effect.fn("DLocalProvider.refund")(function*(request: RefundRequest) {
      const body = UpstreamHttp.jsonText({
        id: request.refundId,
        payment_id: request.providerRef,
        amount: new UpstreamHttp.JsonDecimal(Money.round(request.amount, request.currency)),
        currency: request.currency
      })
      const created = yield* call("refund", "/refunds", Wire.RefundObject, body)
      if (created.status.toUpperCase() === "REJECTED") return yield* fail(false, "refund_rejected", "dLocal rejected the refund")
      return { providerRef: created.id }
    })

    const verifyCallback = (headers: Readonly<Record<string, string | undefined>>, rawBody: string) =>
      Effect.gen(function*() {
        const verdict = yield* verifyNotification(options, headers, rawBody)
        if (verdict !== "valid") return yield* new CallbackRejected({ reason: `signature ${verdict}` })
        const payment = yield* decodeNotification(rawBody).pipe(
          Effect.mapError(() => new CallbackRejected({ reason: "unreadable body" }))
        )
        return [update(payment)]
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
      supports: (method) => method.id in Wire.rails,
      charge,
      status,
      verifyCallback,
      refund
    } satisfies PaymentProvider
  })

/** Registers the provider; the host provides `HttpClient` (e.g. `FetchHttpClient.layer`) and `Mac`. */
export const layer = (options: Options) => ProviderRegistry.register(make(options))

const optionsOf = (settings: ConnectorSettings): Options => ({
  id: settings.id,
  environment: settings.environment,
  baseUrl: settings.baseUrl,
  login: settings.secrets["LOGIN"]!,
  transKey: settings.secrets["TRANS_KEY"]!,
  secretKey: settings.secrets["SECRET_KEY"]!,
  timeoutMs: settings.timeoutMs
})

/** One dLocal account: its pay-ins and its payouts (`CONNECTORS=<id>=dlocal`). */
export const connector: Connector = {
  kind: "dlocal",
  secrets: ["LOGIN", "TRANS_KEY", "SECRET_KEY"],
  settings: ["PAYOUT_PURPOSE", "PAYOUT_FLOW_TYPE"],
  paymentProvider: (settings) => make(optionsOf(settings)),
  payoutProvider: payoutsFromSettings
}

export const DLocalProvider = { make, layer, connector }
