/**
 * The Conekta pay-in connector (`https://api.conekta.io`): OXXO / cash vouchers and SPEI in
 * Mexico (`Rails.ts`). Wire types and the status map are in `Wire.ts`, the webhook signature in
 * `Signing.ts`, refunds in `ConektaRefunds.ts`; a local upstream is `ConektaSimulator.ts`.
 *
 * - **Authentication**: `Authorization: Bearer <private key>` and the versioned `Accept` header
 *   on every call, as the official SDK sends them. The key stays `Redacted` and is scrubbed from
 *   anything Conekta answers.
 * - **Charge**: one order per engine transaction, `POST /orders` with `customer_info` (name, email,
 *   phone), one line item of the whole amount, one charge (`payment_method.type` `cash` or `spei`,
 *   `expires_at` = the engine's expiry, `reference_id` = the engine's transaction id: the charge
 *   request's documented "custom reference") and `metadata.transaction_id`. Conekta has no
 *   idempotency header, so the connector first looks the transaction up
 *   (`GET /orders?search=<transaction id>`, the list's documented "general order search, e.g. by
 *   mail, reference"), keeps only an order whose charge's `reference_id` (or, for orders made
 *   before it was sent, `metadata.transaction_id`) is the transaction id exactly, and answers the
 *   order it finds: a retry after a lost answer never makes a second order.
 * - **Status**: `GET /orders/{id}`, checked to be about the transaction asked for.
 * - **Notifications**: `digest` verified (`Signing.ts`), then the order is read from the API:
 *   what the connector reports is what Conekta says now, never what a body claims.
 * - **Refunds**: see `ConektaRefunds.ts`.
 */
import { Duration, Effect, Schema } from "effect"
import { type HttpClient, HttpClientRequest } from "effect/http"
import type { Environment, PaymentMethodDef, RequiredField } from "../../core/ports/index.ts"
import {
  CallbackRejected,
  type ChargeAccepted,
  type ChargeRequest,
  type ChargeUpdate,
  type PaymentProvider,
  type ProviderError
} from "../../core/ports/PaymentProvider.ts"
import { clear } from "../kit/Buyer.ts"
import { defineConnector } from "../kit/Connector.ts"
import { UpstreamHttp, type UpstreamWords } from "../kit/UpstreamHttp.ts"
import * as ConektaRefunds from "./ConektaRefunds.ts"
import { railOf, rails, requiredBeyondCatalog } from "./Rails.ts"
import { conektaTransactionsReport } from "./Report.ts"
import * as Signing from "./Signing.ts"
import * as Wire from "./Wire.ts"

export const defaultBaseUrl = "https://api.conekta.io"
export const defaultTimeoutMs = 15_000

export interface Options {
  readonly id: string
  readonly displayName?: string | undefined
  /** The one environment this account serves (a test private key is `sandbox`). */
  readonly environment: Environment
  /** Default {@link defaultBaseUrl} (the same for test and live keys). */
  readonly baseUrl?: string | undefined
  readonly privateKey: import("effect").Redacted.Redacted<string>
  /** The `public_key` (PEM) of the account's webhook key; without it every notification is refused. */
  readonly webhookPublicKey?: string | undefined
  /**
   * The merchant's page that shows a charge's payment data, `{order_id}` replaced by the order id.
   * SPEI is served only with it (Conekta answers a CLABE, no page); cash falls back on the
   * voucher's `barcode_url`.
   */
  readonly instructionsUrl?: string | undefined
  readonly timeoutMs?: number | undefined
}

const decodeError = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.ErrorBody))

/** `{ details: [{ code, message }], type }`: the first detail speaks, else the type. */
export const readError = (text: string): UpstreamWords => {
  const body = decodeError(text)
  if (body._tag === "None") return {}
  const detail = body.value.details?.[0]
  return {
    code: detail?.code ?? body.value.type ?? undefined,
    message: detail?.message ?? detail?.debug_message ?? undefined
  }
}

/**
 * Conekta's documented `402 processing_error` (a decline) and `422 parameter_validation_error`
 * refuse the charge: `Declined` (the table's default for 4xx). `428` (the API reference's
 * "precondition required", a second factor / account setting) is this account's state, not a
 * verdict on the charge: `Misconfigured`, the next provider may take it.
 */
export const classify = (status: number) =>
  status === 428 ? { reason: "Misconfigured", code: "account_precondition_required" } as const : undefined

const decodeEvent = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.Event))

/**
 * The voucher reference as text. The API reference types it a string, but its own example writes
 * a 20-digit number; a number past 2^53 was already rounded by JSON parsing, and a wrong reference
 * would send the buyer's cash nowhere: it is dropped (the barcode stays), never shown rounded.
 */
const referenceText = (reference: string | number | null | undefined): string | undefined =>
  typeof reference === "string" ? reference : typeof reference === "number" && Number.isSafeInteger(reference) ? String(reference) : undefined

/** What the buyer needs to pay an order's charge: the voucher reference and barcode, or the CLABE. */
export const paymentDataOf = (order: Wire.Order): Readonly<Record<string, unknown>> => {
  const method = order.charges?.data[0]?.payment_method
  return UpstreamHttp.defined({
    paymentMethodType: method?.type ?? undefined,
    reference: referenceText(method?.reference),
    barcodeUrl: method?.barcode_url ?? undefined,
    serviceName: method?.service_name ?? undefined,
    clabe: method?.clabe ?? method?.receiving_account_number ?? undefined,
    bank: method?.bank ?? method?.receiving_account_bank ?? undefined,
    expiresAt: method?.expires_at === undefined || method.expires_at === null ? undefined : new Date(method.expires_at * 1000).toISOString()
  })
}

const nonEmpty = (s: string | undefined) => (s === undefined || s.trim() === "" ? undefined : s.trim())

export const make = (options: Options): Effect.Effect<PaymentProvider, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const providerId = options.id
    const baseUrl = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, "")
    const upstream = yield* UpstreamHttp.make({
      providerId,
      secrets: [options.privateKey],
      timeout: Duration.millis(options.timeoutMs ?? defaultTimeoutMs),
      readError,
      classify
    })
    const { declined, failed, malformed } = upstream
    const verifier = options.webhookPublicKey === undefined ? undefined : yield* Signing.make(options.webhookPublicKey)
    const call = <A>(operation: string, request: HttpClientRequest.HttpClientRequest, schema: Schema.Codec<A, unknown>) =>
      upstream.call(
        operation,
        request.pipe(HttpClientRequest.bearerToken(options.privateKey), HttpClientRequest.setHeader("Accept", Wire.acceptHeader)),
        schema
      )
    const orderUrl = (id: string) => `${baseUrl}/orders/${encodeURIComponent(id)}`
    const getOrder = (operation: string, id: string) => call(operation, HttpClientRequest.get(orderUrl(id)), Wire.Order)

    const supports = (method: PaymentMethodDef) => {
      const rail = railOf(method)
      return rail !== undefined && (rail.payPage !== "none" || options.instructionsUrl !== undefined)
    }

    const requires = (method: PaymentMethodDef): ReadonlyArray<RequiredField> => requiredBeyondCatalog(method)

    /**
     * The engine transaction an order is for: its charge's documented `reference_id`, else (orders
     * made before the connector sent it) `metadata.transaction_id`.
     */
    const transactionOf = (order: Wire.Order) => {
      const reference = order.charges?.data.find((c) => typeof c.reference_id === "string" && c.reference_id !== "")?.reference_id
      if (typeof reference === "string") return reference
      const value = order.metadata?.[Wire.transactionIdKey]
      return typeof value === "string" ? value : undefined
    }

    /** The order already made for this transaction, if any (Conekta documents no idempotency key). */
    const existing = (transactionId: string) =>
      call(
        "charge.lookup",
        HttpClientRequest.get(`${baseUrl}/orders`).pipe(HttpClientRequest.setUrlParams({ search: transactionId, limit: "10" })),
        Wire.OrderList
      ).pipe(Effect.map((list) => list.data.find((order) => transactionOf(order) === transactionId)))

    const accepted = (order: Wire.Order, request: ChargeRequest): Effect.Effect<ChargeAccepted, ProviderError> =>
      Effect.gen(function*() {
        if (transactionOf(order) !== request.transactionId) {
          return yield* malformed("Conekta answered about another order")
        }
        const status = Wire.toChargeStatus(order.payment_status)
        const charge = order.charges?.data[0]
        if (status === "failed" || status === "expired") {
          const reason = upstream.clip(charge?.failure_code ?? order.payment_status ?? "declined")
          return yield* declined(reason === "" ? "declined" : reason, `Conekta ${order.payment_status} order ${order.id}`)
        }
        const method = charge?.payment_method
        const barcodeUrl = method?.barcode_url ?? undefined
        const formUrl = options.instructionsUrl !== undefined
          ? options.instructionsUrl.replace("{order_id}", encodeURIComponent(order.id))
          : barcodeUrl !== undefined && /^https?:\/\/\S+$/.test(barcodeUrl) ? barcodeUrl : undefined
        if (formUrl === undefined) return yield* malformed(`order ${order.id} has no page for the buyer`)
        return {
          providerRef: order.id,
          status,
          paymentFormUrl: formUrl,
          paymentData: paymentDataOf(order)
        } satisfies ChargeAccepted
      })

    const charge = Effect.fn("ConektaProvider.charge")(function*(request: ChargeRequest) {
      const rail = railOf(request.method)
      // Retryable: another provider may serve what this connector cannot.
      if (rail === undefined || !supports(request.method)) {
        return yield* failed("unsupported_method", `Conekta connector does not serve ${request.method.id}`)
      }
      if (request.currency !== rail.currency) return yield* failed("unsupported_currency", `${rail.paymentMethodType} is charged in MXN`)
      const centavos = Wire.centavosOf(request.amount)
      if (centavos === undefined || centavos <= 0) return yield* declined("invalid_amount", "the amount is not a whole number of centavos")
      const name = nonEmpty(clear(request.customer.name))
      const email = nonEmpty(clear(request.customer.email))
      const phone = nonEmpty(clear(request.customer.phone))
      if (name === undefined || email === undefined || phone === undefined) {
        return yield* declined("missing_customer_info", "Conekta requires customer_info name, email and phone")
      }
      const found = yield* existing(request.transactionId)
      if (found !== undefined) return yield* accepted(found, request)
      const body = {
        currency: "MXN",
        customer_info: { name, email, phone },
        line_items: [{ name: `Pago ${request.transactionId}`, unit_price: centavos, quantity: 1 }],
        charges: [{
          amount: centavos,
          payment_method: { type: rail.paymentMethodType, expires_at: Math.floor(request.expiresAt.getTime() / 1000) },
          reference_id: request.transactionId
        }],
        metadata: { [Wire.transactionIdKey]: request.transactionId }
      }
      const order = yield* call(
        "charge",
        HttpClientRequest.post(`${baseUrl}/orders`).pipe(HttpClientRequest.bodyText(JSON.stringify(body), "application/json")),
        Wire.Order
      )
      return yield* accepted(order, request)
    })

    const refundsOf = (order: Wire.Order) => {
      const charge = order.charges?.data[0]
      const refunds = (charge?.refunds?.data ?? []).map((refund) => ConektaRefunds.outcomeOf(refund, charge!))
      return refunds.length === 0 ? {} : { refunds }
    }

    /** What the API says about an order, as an update; only the order asked about may speak. */
    const updateOf = (providerRef: string, order: Wire.Order, transactionId?: string): Effect.Effect<ChargeUpdate, ProviderError> =>
      order.id !== providerRef || (transactionId !== undefined && (transactionOf(order) ?? transactionId) !== transactionId)
        ? Effect.fail(malformed("Conekta answered about another order"))
        : Effect.succeed({
          providerRef,
          transactionId: transactionId ?? transactionOf(order),
          status: Wire.toUpdateStatus(order.payment_status),
          detail: order.charges?.data[0]?.failure_message ?? order.payment_status ?? undefined,
          // The charge's refunds as they stand: an order event after a refund moved names the
          // order, and the order read says where each refund is, so the engine settles or fails a
          // pending refund at once.
          ...refundsOf(order)
        })

    const status = Effect.fn("ConektaProvider.status")(function*(providerRef: string, transactionId: string) {
      return yield* updateOf(providerRef, yield* getOrder("status", providerRef), transactionId)
    })

    const refund = ConektaRefunds.make({ upstream, call, orderUrl })

    const verifyCallback = (headers: Readonly<Record<string, string | undefined>>, rawBody: string) =>
      Effect.gen(function*(): Effect.fn.Return<ReadonlyArray<ChargeUpdate>, CallbackRejected> {
        const reject = (reason: string) => Effect.fail(new CallbackRejected({ reason }))
        if (verifier === undefined) return yield* reject("no webhook public key configured")
        if (!(yield* verifier.verify(headers[Wire.digestHeader], rawBody))) return yield* reject("signature mismatch")
        const event = decodeEvent(rawBody)
        if (event._tag === "None") return yield* reject("unreadable body")
        const object = event.value.data.object
        const type = event.value.type
        // A signed event about something else (webhook_ping, customers, payouts...) moves nothing.
        if (!type.startsWith("order.") && !type.startsWith("charge.")) return []
        const orderId = object.object === "charge" ? object.order_id ?? undefined : object.id
        if (orderId === undefined || orderId === "") return yield* reject("event names no order")
        const order = yield* getOrder("notification.query", orderId).pipe(
          Effect.mapError((error) => new CallbackRejected({ reason: `order query failed: ${error.code}` }))
        )
        return [yield* updateOf(orderId, order).pipe(Effect.mapError((error) => new CallbackRejected({ reason: error.code })))]
      }).pipe(
        // Untrusted input must never escape as a defect.
        Effect.catchDefect(() => Effect.fail(new CallbackRejected({ reason: "unreadable callback" }))),
        Effect.withSpan("ConektaProvider.verifyCallback")
      )

    return {
      id: providerId,
      displayName: options.displayName ?? "Conekta",
      environments: [options.environment],
      supports,
      requires,
      charge,
      status,
      verifyCallback,
      refund
    } satisfies PaymentProvider
  })

/**
 * `CONNECTORS=<id>=conekta` with `<PREFIX>_PRIVATE_KEY` (the account's private API key), and the
 * settings `<PREFIX>_WEBHOOK_PUBLIC_KEY` (the PEM `public_key` of `POST /webhook_keys`, `\n`
 * escapes allowed) and `<PREFIX>_INSTRUCTIONS_URL` (serves SPEI, see {@link Options}).
 */
export const ConektaConnector = defineConnector({
  kind: "conekta",
  secrets: ["PRIVATE_KEY"],
  settings: ["WEBHOOK_PUBLIC_KEY", "INSTRUCTIONS_URL"],
  rails,
  wire: Wire,
  statusMaps: { orders: Wire.orderStatusMap, refunds: Wire.refundStatusMap },
  make,
  options: (settings) => ({
    privateKey: settings.secrets["PRIVATE_KEY"]!,
    webhookPublicKey: settings.values["WEBHOOK_PUBLIC_KEY"],
    instructionsUrl: settings.values["INSTRUCTIONS_URL"]
  }),
  // The answer of GET /transactions, uploaded by an operator (no reportSource fetches it yet).
  reportFormats: () => [conektaTransactionsReport]
})

/** Registers the provider; the host provides `HttpClient` (e.g. `FetchHttpClient.layer`). */
export const { connector, layer } = ConektaConnector

export const ConektaProvider = { make, layer, connector, paymentDataOf, defaultBaseUrl, defaultTimeoutMs }
