/**
 * The Mercado Pago pay-in connector (Payments API, `https://api.mercadopago.com`): PIX, boleto and
 * lotérica in Brazil, OXXO in Mexico (`Rails.ts`; PSE is not served: the API cannot carry the
 * buyer's bank). Wire types and the status map are in `Wire.ts`; a local upstream to test against
 * is `MercadoPagoSimulator.ts`, itself judged by Mercado Pago's official Node SDK.
 *
 * - **Environments.** One base URL for both: the access token decides (`TEST-...` in the test
 *   environment, `APP_USR-...` in production). Every call carries `Authorization: Bearer <token>`.
 * - **Idempotency.** `POST /v1/payments` and `POST /v1/payments/{id}/refunds` carry
 *   `X-Idempotency-Key` = the engine's key, which stays the same across retries: Mercado Pago
 *   answers a repeated key with the payment (refund) it already made instead of a second one.
 * - **Declines.** A payment created `rejected` is a decline: `ProviderError` of reason `Declined`, with
 *   the `status_detail` as code. Errors are classified by `providers/kit/UpstreamHttp.ts` (5xx,
 *   429, timeouts and network errors `Failed` or `OutcomeUnknown`, refused credentials
 *   `Misconfigured`; other 4xx `Declined`), except: `409`
 *   (the documented idempotency answer "The process has not been completed yet. Try again
 *   later."), `423` (key temporarily locked) and `424` (a dependency failed), which are not
 *   verdicts and are `Failed` (the same key asks again); and the documented errors that say this
 *   ACCOUNT is misconfigured ("Invalid users involved": test and live credentials or users mixed;
 *   "Collector user without key enabled for QR render": no PIX key), `Misconfigured`: another
 *   provider may serve the charge.
 * - **Buyer data.** Every rail needs `payer.email`; boleto also the CPF/CNPJ and the address
 *   (`payer.address`, BACEN rule 2024): `requires` says so, and a charge without them is refused
 *   before any call (`Failed`: another provider may not need them).
 * - **Notifications** are signed but carry no status. `notification_url` is the engine's callback
 *   URL with `source_news=webhooks` (without it Mercado Pago also sends IPN notifications, which
 *   cannot be signed). `verifyCallback` checks `x-signature` (HMAC-SHA256 of
 *   `id:<data.id>;request-id:<x-request-id>;ts:<ts>;` with the webhook secret, `data.id` exactly as
 *   sent, constant time), refuses a `ts` older than Mercado Pago's last retry (4 days) plus a day,
 *   or more than 300 s ahead of the Effect clock, then asks `GET /v1/payments/{data.id}` and
 *   reports what the API says (an old notification only triggers that read). `data.id` comes from
 *   the body: the port passes no URL query (see README).
 * - **Refunds** answer where the refund stands: `POST /v1/payments/{id}/refunds` with the
 *   engine's key finds the refund already made for that key; a refund not final yet is read
 *   again (`GET .../refunds/{refund_id}`) so the answer is its current status.
 * - **Cards** (`Rails.ts` card rails) go through the card vault: `CardCharge.ts`.
 * - **Secrets** (access token, webhook secret) stay `Redacted`; no error or log line carries them.
 */
import { BigDecimal, Clock, Duration, Effect, Option, Redacted, Schema } from "effect"
import type { Mac } from "effect/crypto"
import { type HttpClient, HttpClientRequest } from "effect/http"
import { CardVault, type Environment, type PaymentMethodDef, type RequiredField, verifyHmacSha256Hex } from "../../core/ports/index.ts"
import {
  CallbackRejected,
  type ChargeAccepted,
  type ChargeRequest,
  type ChargeUpdate,
  type PaymentProvider,
  type ProviderError,
  type RefundOutcome,
  type RefundRequest
} from "../../core/ports/PaymentProvider.ts"
import { clear } from "../kit/Buyer.ts"
import { defineConnector } from "../kit/Connector.ts"
import { UpstreamHttp, type UpstreamWords } from "../kit/UpstreamHttp.ts"
import * as CardCharge from "./CardCharge.ts"
import { boletoPaymentMethodId, isCardRail, railOf, rails } from "./Rails.ts"
import { mercadopagoReleaseReport } from "./Report.ts"
import * as Reports from "./ReportSource.ts"
import { addressOf, completeForBoleto, identificationOf, nameParts } from "./Payer.ts"
import * as Wire from "./Wire.ts"

export const defaultBaseUrl = "https://api.mercadopago.com"
export const defaultTimeoutMs = 10_000
/** Notifications signed further than this ahead of now are refused (clock trouble). */
export const callbackToleranceSeconds = 300
/**
 * Notifications signed longer ago than this are refused: Mercado Pago retries an unacknowledged
 * notification up to 4 days after its first dispatch, plus a day of margin. A replayed old
 * notification only makes the plugin read the payment's status.
 */
export const callbackMaxAgeSeconds = 5 * 24 * 3600

export interface Options {
  readonly id: string
  readonly displayName?: string | undefined
  /** The one environment this account serves (a `TEST-` token is `sandbox`). */
  readonly environment: Environment
  /** Default {@link defaultBaseUrl} (the same for both environments). */
  readonly baseUrl?: string | undefined
  readonly accessToken: Redacted.Redacted<string>
  /** The secret signature of the application's Webhooks configuration. */
  readonly webhookSecret: Redacted.Redacted<string>
  readonly timeoutMs?: number | undefined
}

/** Documented errors that mean this account is misconfigured, not that the charge is refused. */
const accountErrors: ReadonlyArray<{ readonly code: string; readonly words: string; readonly reason: string }> = [
  { code: "2034", words: "invalid users involved", reason: "invalid_users_involved" },
  { code: "13253", words: "without key enabled for qr render", reason: "pix_key_not_enabled" }
]

const decodeError = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.ErrorBody))

/** `{ message, error, cause: [{ code, description }] }`: the first cause speaks, else `error`. */
export const readError = (text: string): UpstreamWords => {
  const body = decodeError(text)
  if (body._tag === "None") return {}
  const cause = body.value.cause?.[0]
  const code = cause?.code ?? body.value.error ?? undefined
  return {
    code: code === undefined || code === null ? undefined : String(code),
    message: cause?.description ?? body.value.message ?? undefined
  }
}

/** Answers that are not a verdict on the request: the same key asks again later. */
const notYet: Readonly<Record<number, string>> = { 409: "in_progress", 423: "locked", 424: "failed_dependency" }

export const classify = (status: number, words: UpstreamWords) => {
  if (Object.hasOwn(notYet, status)) return { reason: "Failed", code: notYet[status]! } as const
  if (status < 400 || status >= 500 || status === 401 || status === 403 || status === 429) return undefined
  const message = (words.message ?? "").toLowerCase()
  const account = accountErrors.find((e) => e.code === words.code || (message !== "" && message.includes(e.words)))
  return account === undefined ? undefined : { reason: "Misconfigured", code: account.reason } as const
}

/** `2026-05-25T13:01:08.000+00:00`: the documented format carries an explicit offset. */
const dateOf = (date: Date) => date.toISOString().replace(/Z$/, "+00:00")

/** The engine's callback URL with `source_news=webhooks`: Webhooks only, no unsignable IPN. */
export const notificationUrlOf = (callbackUrl: string) => {
  const url = new URL(callbackUrl)
  url.searchParams.set("source_news", "webhooks")
  return url.toString()
}

const decodeNotification = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.Notification))

/** `ts=<digits>,v1=<hex>` (other keys ignored); undefined when either is missing. */
export const parseSignature = (header: string | undefined) => {
  if (header === undefined || header.length > 1024) return undefined
  let ts: string | undefined
  let v1: string | undefined
  for (const part of header.split(",")) {
    const eq = part.indexOf("=")
    if (eq <= 0) continue
    const key = part.slice(0, eq).trim().toLowerCase()
    const value = part.slice(eq + 1).trim()
    if (key === "ts") ts = value
    else if (key === "v1") v1 = value
  }
  return ts === undefined || v1 === undefined || !/^\d{1,13}$/.test(ts) || v1 === "" ? undefined : { ts, v1 }
}

/** The docs' `ts` is in seconds; a 13-digit value (milliseconds) is read as such. */
const tsSeconds = (ts: string) => (ts.length >= 12 ? Math.floor(Number(ts) / 1000) : Number(ts))

export const make = (options: Options): Effect.Effect<PaymentProvider, never, HttpClient.HttpClient | Mac.Mac> =>
  Effect.gen(function*() {
    const mac = yield* Effect.context<Mac.Mac>()
    const providerId = options.id
    const baseUrl = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, "")
    const upstream = yield* UpstreamHttp.make({
      providerId,
      secrets: [options.accessToken, options.webhookSecret],
      timeout: Duration.millis(options.timeoutMs ?? defaultTimeoutMs),
      readError,
      classify
    })
    const { declined, failed, malformed } = upstream
    const call = <A>(operation: string, request: HttpClientRequest.HttpClientRequest, schema: Schema.Codec<A, unknown>) =>
      upstream.call(operation, request.pipe(HttpClientRequest.bearerToken(options.accessToken), HttpClientRequest.acceptJson), schema)
    const paymentUrl = (id: string) => `${baseUrl}/v1/payments/${encodeURIComponent(id)}`
    const getPayment = (operation: string, id: string) => call(operation, HttpClientRequest.get(paymentUrl(id)), Wire.Payment)

    // A card rail needs a vault to forward the card (`CardCharge.ts`). A host without one provides
    // `CardVault.unconfigured`, told by identity: with it card rails are not served.
    const unconfigured = yield* Effect.provide(Effect.service(CardVault), CardVault.unconfigured)
    const vault = Option.filter(yield* Effect.serviceOption(CardVault), (given) => given !== unconfigured)
    const cardCharge = CardCharge.make({
      providerId, baseUrl, timeoutMs: options.timeoutMs ?? defaultTimeoutMs, accessToken: options.accessToken, upstream, call,
      notificationUrl: notificationUrlOf, vault
    })

    const supports = (method: PaymentMethodDef) => {
      const rail = railOf(method)
      return rail !== undefined && (!isCardRail(rail) || Option.isSome(vault))
    }

    /** Every rail needs the payer's email; boleto also the CPF/CNPJ and the address. */
    const requires = (method: PaymentMethodDef): ReadonlyArray<RequiredField> => {
      const rail = railOf(method)
      if (rail === undefined) return []
      return rail.paymentMethodId === boletoPaymentMethodId ? ["userEmail", "documentId", "userAddress"] : ["userEmail"]
    }

    const charge = Effect.fn("MercadoPagoProvider.charge")(function*(request: ChargeRequest) {
      const rail = railOf(request.method)
      // Retryable: another provider may serve what this connector cannot.
      if (rail === undefined) {
        return yield* failed("unsupported_method", `Mercado Pago connector does not serve ${request.method.id}`)
      }
      if (request.currency !== rail.currency) {
        return yield* failed("unsupported_currency", `${rail.paymentMethodId} is charged in ${rail.currency}`)
      }
      if (isCardRail(rail)) return yield* cardCharge(request, rail)
      const email = clear(request.customer.email)
      if (email === undefined || email.trim() === "") {
        return yield* failed("payer_email_required", "Mercado Pago requires payer.email")
      }
      const identification = identificationOf(rail.country, clear(request.customer.documentId))
      const buyerAddress = clear(request.customer.address)
      const sameCountry = (buyerAddress?.country ?? "").toUpperCase() === rail.country
      const address = sameCountry ? addressOf(buyerAddress) : undefined
      if (rail.paymentMethodId === boletoPaymentMethodId) {
        if (!completeForBoleto(address)) {
          return yield* failed("payer_address_required", "Mercado Pago requires the payer's address for boleto")
        }
        if (identification === undefined) {
          return yield* failed("payer_identification_required", "Mercado Pago requires the payer's CPF/CNPJ for boleto")
        }
      }
      // `transaction_amount` is a JSON number in major units. `JsonDecimal` writes the amount's
      // exact decimal text (`Money.toText`: "150.5") into the JSON as a number literal, so no
      // float ever holds or rounds money on our side.
      const body = UpstreamHttp.jsonText({
        transaction_amount: new UpstreamHttp.JsonDecimal(request.amount),
        description: `Payment ${request.transactionId}`,
        payment_method_id: rail.paymentMethodId,
        external_reference: request.transactionId,
        notification_url: notificationUrlOf(request.callbackUrl),
        date_of_expiration: dateOf(request.expiresAt),
        payer: {
          email,
          ...UpstreamHttp.defined(nameParts(clear(request.customer.name))),
          ...(identification === undefined ? {} : { identification }),
          ...(address === undefined ? {} : { address })
        },
        ...(request.customer.ip === undefined ? {} : { additional_info: { ip_address: request.customer.ip } })
      })
      const payment = yield* call(
        "charge",
        HttpClientRequest.post(`${baseUrl}/v1/payments`).pipe(
          HttpClientRequest.setHeader("X-Idempotency-Key", request.idempotencyKey),
          HttpClientRequest.bodyText(body, "application/json")
        ),
        Wire.Payment
      )
      const providerRef = Wire.idText(payment.id)
      const echoed = payment.external_reference ?? undefined
      if (echoed !== undefined && echoed !== request.transactionId) {
        return yield* malformed("Mercado Pago answered about another payment")
      }
      const status = Wire.toChargeStatus(payment.status, payment.status_detail)
      if (status === "failed" || status === "expired") {
        const reason = upstream.clip(payment.status_detail ?? payment.status)
        return yield* declined(reason === "" ? "rejected" : reason, `Mercado Pago ${payment.status} payment ${providerRef}`)
      }
      const data = payment.point_of_interaction?.transaction_data
      const details = payment.transaction_details
      const formUrl = data?.ticket_url ?? details?.external_resource_url ?? undefined
      if (formUrl === undefined) return yield* malformed(`payment ${providerRef} has no payment URL`)
      return {
        providerRef,
        status,
        paymentFormUrl: formUrl,
        paymentData: UpstreamHttp.defined({
          paymentMethodId: rail.paymentMethodId,
          qrCode: data?.qr_code ?? undefined,
          qrCodeBase64: data?.qr_code_base64 ?? undefined,
          barcode: details?.barcode?.content ?? payment.barcode?.content ?? undefined,
          digitableLine: details?.digitable_line ?? undefined,
          reference: details?.payment_method_reference_id ?? undefined,
          expiresAt: payment.date_of_expiration ?? undefined
        })
      } satisfies ChargeAccepted
    })

    /** What the API says about a payment, as an update; only the payment asked about may speak. */
    const updateOf = (providerRef: string, payment: Wire.Payment, transactionId?: string): Effect.Effect<ChargeUpdate, ProviderError> =>
      Wire.idText(payment.id) !== providerRef ||
          (transactionId !== undefined && (payment.external_reference ?? transactionId) !== transactionId)
        ? Effect.fail(malformed("Mercado Pago answered about another payment"))
        : Effect.succeed({
          providerRef,
          transactionId: transactionId ?? payment.external_reference ?? undefined,
          status: Wire.toUpdateStatus(payment.status, payment.status_detail),
          detail: payment.status_detail ?? undefined,
          ...(payment.refunds == null || payment.refunds.length === 0 ? {} : {
            refunds: payment.refunds.map((refund) => ({
              providerRef: Wire.idText(refund.id),
              status: Wire.toRefundStatus(refund.status),
              detail: refund.status ?? undefined
            }))
          })
        })

    const status = Effect.fn("MercadoPagoProvider.status")(function*(providerRef: string, transactionId: string) {
      return yield* updateOf(providerRef, yield* getPayment("status", providerRef), transactionId)
    })

    const refund = Effect.fn("MercadoPagoProvider.refund")(function*(request: RefundRequest) {
      // An empty body refunds the whole payment; `{ amount }` a part. The whole is asked for
      // without an amount, so it also works for methods that refuse partial refunds.
      const payment = yield* getPayment("refund.lookup", request.providerRef)
      const untouched = payment.transaction_amount_refunded === undefined || BigDecimal.isZero(payment.transaction_amount_refunded)
      const whole = untouched && payment.transaction_amount !== undefined && BigDecimal.equals(payment.transaction_amount, request.amount)
      const refundsUrl = `${paymentUrl(request.providerRef)}/refunds`
      // The engine's key is the same on every call for this refund: Mercado Pago answers the
      // refund already made for it instead of making a second one.
      const post = HttpClientRequest.post(refundsUrl).pipe(HttpClientRequest.setHeader("X-Idempotency-Key", request.idempotencyKey))
      const answered = yield* call(
        "refund",
        whole ? post : HttpClientRequest.bodyText(post, UpstreamHttp.jsonText({ amount: new UpstreamHttp.JsonDecimal(request.amount) }), "application/json"),
        Wire.Refund
      )
      const providerRef = Wire.idText(answered.id)
      // A refund not final when answered (or answered as it was when first made) is read as it
      // stands now: the engine asks again to follow a pending refund until it is final.
      const current = Wire.toRefundStatus(answered.status) === "pending"
        ? yield* call("refund.status", HttpClientRequest.get(`${refundsUrl}/${encodeURIComponent(providerRef)}`), Wire.Refund)
        : answered
      if (Wire.idText(current.id) !== providerRef) return yield* malformed("Mercado Pago answered about another refund")
      const status = current.status ?? undefined
      return { providerRef, status: Wire.toRefundStatus(status), ...(status === undefined ? {} : { detail: status }) } satisfies RefundOutcome
    })

    const verifyCallback = (headers: Readonly<Record<string, string | undefined>>, rawBody: string, query: Readonly<Record<string, string>> = {}) =>
      Effect.gen(function*(): Effect.fn.Return<ReadonlyArray<ChargeUpdate>, CallbackRejected, Mac.Mac> {
        const reject = (reason: string) => Effect.fail(new CallbackRejected({ reason }))
        const signature = parseSignature(headers[Wire.signatureHeader])
        if (signature === undefined) return yield* reject("signature malformed")
        const notification = decodeNotification(rawBody)
        if (notification._tag === "None") return yield* reject("unreadable body")
        // The documented manifest signs `data.id` as the URL carries it; the body must name the same.
        const dataId = query["data.id"] ?? Wire.idText(notification.value.data.id)
        if (dataId !== Wire.idText(notification.value.data.id)) return yield* reject("data.id of the URL and of the body differ")
        const manifest = Wire.manifestOf(dataId, headers[Wire.requestIdHeader], signature.ts)
        if (!(yield* verifyHmacSha256Hex(Redacted.value(options.webhookSecret), manifest, signature.v1))) {
          return yield* reject("signature mismatch")
        }
        const age = Math.floor((yield* Clock.currentTimeMillis) / 1000) - tsSeconds(signature.ts)
        if (age > callbackMaxAgeSeconds || age < -callbackToleranceSeconds) return yield* reject("signature stale")
        // A signed notification about another topic (merchant_order, chargebacks...) moves nothing.
        const type = notification.value.type
        if (type !== undefined && type !== "payment") return []
        const payment = yield* getPayment("notification.query", dataId).pipe(
          Effect.mapError((error) => new CallbackRejected({ reason: `payment query failed: ${error.code}` }))
        )
        const update = yield* updateOf(dataId, payment).pipe(
          Effect.mapError((error) => new CallbackRejected({ reason: error.code }))
        )
        return [update]
      }).pipe(
        // Untrusted input must never escape as a defect.
        Effect.catchDefect(() => Effect.fail(new CallbackRejected({ reason: "unreadable callback" }))),
        Effect.provideContext(mac),
        Effect.withSpan("MercadoPagoProvider.verifyCallback")
      )

    return {
      id: providerId,
      displayName: options.displayName ?? "Mercado Pago",
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
 * `CONNECTORS=<id>=mercadopago` with `<PREFIX>_ACCESS_TOKEN` (the account's `TEST-` or `APP_USR-`
 * access token) and `<PREFIX>_WEBHOOK_SECRET` (the secret signature of the Webhooks
 * configuration); optional `<PREFIX>_ACCOUNT_CURRENCY` (default BRL), the account's currency,
 * which its release report is in (`ReportSource.ts`).
 */
export const MercadoPagoConnector = defineConnector({
  kind: "mercadopago",
  secrets: ["ACCESS_TOKEN", "WEBHOOK_SECRET"],
  settings: [Reports.accountCurrencySetting],
  rails,
  wire: Wire,
  statusMaps: { payments: Wire.paymentStatusMap, refunds: Wire.refundStatusMap },
  make,
  options: (settings) => ({
    accessToken: settings.secrets["ACCESS_TOKEN"]!,
    webhookSecret: settings.secrets["WEBHOOK_SECRET"]!
  }),
  reportFormats: (settings) => [mercadopagoReleaseReport(Reports.accountCurrencyOf(settings))],
  reportSource: (settings) =>
    Reports.make({
      id: settings.id,
      baseUrl: settings.baseUrl ?? defaultBaseUrl,
      accessToken: settings.secrets["ACCESS_TOKEN"]!,
      accountCurrency: Reports.accountCurrencyOf(settings),
      timeoutMs: settings.timeoutMs
    })
})

/** Registers the provider; the host provides `HttpClient` (e.g. `FetchHttpClient.layer`) and `Mac`. */
export const { connector, layer } = MercadoPagoConnector

export const MercadoPagoProvider = { make, layer, connector, defaultBaseUrl, defaultTimeoutMs, callbackToleranceSeconds, callbackMaxAgeSeconds, notificationUrlOf }
