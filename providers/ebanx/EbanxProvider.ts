/**
 * The EBANX pay-in connector (Direct API): PIX and boleto in Brazil, SPEI and OXXO in Mexico, PSE
 * and Efecty in Colombia, PagoEfectivo in Peru, Webpay in Chile (`Rails.ts`).
 *
 * - **Authentication.** The integration key travels in the JSON body of every call; it stays
 *   `Redacted` until the body is written and is scrubbed from anything EBANX answers.
 * - **Errors.** EBANX answers most errors with HTTP 200 and `status: "ERROR"` plus a documented
 *   `status_code` (`Wire.verdictOf`): `BP-SA-*` (integration key) is `invalid_credentials` and a
 *   rail this account has not activated (`BP-CH-1`, `BP-DR-4`, `BP-DR-35`, `BP-DR-36`) is
 *   retryable, the next provider may serve the charge; every other code (invalid buyer data,
 *   amount limits...) is final. The same codes under an HTTP 4xx are read the same way; HTTP
 *   5xx, 429, timeouts and network errors are retryable (`providers/kit/UpstreamHttp.ts`).
 * - **Idempotency.** `merchant_payment_code` (the engine's transaction id) is unique per account:
 *   a retry after a lost answer is refused `BP-DR-0` and the connector answers the payment EBANX
 *   holds, queried by that code. A refund carries `merchant_refund_code`, derived from the
 *   engine's refund id ({@link refundCodeOf}); before asking, and again when EBANX refuses, the
 *   connector looks for a refund with that code on the payment, so a retried refund is never a
 *   second one.
 * - **Notifications** are not trusted: EBANX POSTs only the hashes of payments that changed
 *   (`operation=payment_status_change&hash_codes=...`). `verifyCallback` reads the form and asks
 *   `/ws/query` about each hash with our key (notify-then-query): a hash EBANX does not know, or a
 *   query that fails, is `CallbackRejected` (EBANX notifies again), and the status is always the
 *   one EBANX answers, never one a caller could forge.
 */
import { Duration, Effect, Redacted, type Schema } from "effect"
import { Mac } from "effect/crypto"
import { type HttpClient, HttpClientRequest } from "effect/http"
import type { Environment } from "../../core/Environment.ts"
import * as Money from "../../core/Money.ts"
import { ProviderRegistry } from "../../core/payments/ProviderRegistry.ts"
import {
  CallbackRejected,
  type ChargeAccepted,
  type ChargeRequest,
  type ChargeUpdate,
  type PaymentProvider,
  type ProviderError,
  type RefundRequest
} from "../../core/ports/PaymentProvider.ts"
import { hmacSha256Hex } from "../../core/Signatures.ts"
import type { Connector } from "../kit/Connector.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import * as Rails from "./Rails.ts"
import * as Wire from "./Wire.ts"

export const baseUrls: Readonly<Record<Environment, string>> = {
  sandbox: "https://sandbox.ebanxpay.com",
  production: "https://api.ebanxpay.com"
}

export interface Options {
  readonly id: string
  readonly displayName?: string | undefined
  readonly environment: Environment
  readonly baseUrl?: string | undefined
  readonly integrationKey: Redacted.Redacted<string>
  readonly timeoutMs?: number | undefined
}

/** The `hash_codes` a notification names; none when it is not EBANX's form. */
const hashesOf = (rawBody: string): ReadonlyArray<string> | undefined => {
  if (rawBody.length > 16_384) return undefined
  const form = new URLSearchParams(rawBody)
  const hashes = (form.get("hash_codes") ?? "").split(",").map((h) => h.trim()).filter((h) => h !== "")
  if (form.get("operation") !== "payment_status_change" || hashes.length === 0 || hashes.length > 100) return undefined
  return hashes.every((h) => /^[A-Za-z0-9_-]{1,100}$/.test(h)) ? hashes : undefined
}

/** EBANX's `due_date` (`dd/mm/yyyy`): the UTC calendar day of the engine's expiry. */
export const dueDateOf = (expiresAt: Date): string =>
  `${String(expiresAt.getUTCDate()).padStart(2, "0")}/${String(expiresAt.getUTCMonth() + 1).padStart(2, "0")}/${expiresAt.getUTCFullYear()}`

/**
 * The `merchant_refund_code` of an engine refund. EBANX takes at most 20 characters and the
 * engine's refund ids are longer (`CLM-` and a 26-character ULID), so the code is the first 20 hex
 * digits of HMAC-SHA256 of the refund id under a fixed, public key: the same refund id always
 * gives the same code (a retry finds its refund), and two refunds of one payment share a code
 * with a probability of about 2^-80. It is a name, not a secret; the refund's `description`
 * carries the whole id for people reading EBANX's dashboard.
 */
export const refundCodeOf = (refundId: string): Effect.Effect<string, never, Mac.Mac> =>
  Effect.map(hmacSha256Hex("ebanx/merchant_refund_code", refundId), (hex) => hex.slice(0, Wire.maxMerchantRefundCode))

type Outcome = { readonly status: string; readonly status_code?: string | undefined; readonly status_message?: string | undefined }

export const make = (options: Options): Effect.Effect<PaymentProvider, never, HttpClient.HttpClient | Mac.Mac> =>
  Effect.gen(function*() {
    const mac = yield* Mac.Mac
    const baseUrl = (options.baseUrl ?? baseUrls[options.environment]).replace(/\/+$/, "")
    const upstream = yield* UpstreamHttp.make({
      providerId: options.id,
      secrets: [options.integrationKey],
      timeout: Duration.millis(options.timeoutMs ?? 10_000),
      readError: UpstreamHttp.jsonWords("status_code", "status_message"),
      // Some documented codes come with an HTTP 4xx: read them as their HTTP-200 twins.
      classify: (status, words) =>
        status >= 400 && status < 500 && status !== 429 && words.code?.startsWith("BP-") === true ? Wire.verdictOf(words.code) : undefined
    })
    const { fail } = upstream

    /** EBANX's `ERROR` answer as a `ProviderError` (see the module comment for what is retryable). */
    const refused = (answer: Outcome) => {
      const code = upstream.clip(answer.status_code ?? "error")
      const verdict = Wire.verdictOf(code)
      return fail(verdict.retryable, verdict.reason, `EBANX refused ${code}: ${upstream.clip(answer.status_message ?? code)}`)
    }

    /**
     * One call with the key in the body, answered `SUCCESS` or `ERROR` (both HTTP 200). Amounts
     * are `UpstreamHttp.JsonDecimal`s: `jsonText` writes each as a JSON number literal of its
     * exact decimal text (`"amount_total":250.05`), so no float ever holds money on our side.
     */
    const exchange = <A extends Outcome>(operation: string, path: string, body: Record<string, unknown>, schema: Schema.Codec<A, unknown>) => {
      const text = UpstreamHttp.jsonText({ integration_key: Redacted.value(options.integrationKey), ...body })
      const request = HttpClientRequest.post(`${baseUrl}${path}`).pipe(
        HttpClientRequest.bodyText(text, "application/json"),
        HttpClientRequest.acceptJson
      )
      return upstream.call(operation, request, schema)
    }

    /** {@link exchange}, where an `ERROR` answer fails. */
    const call = <A extends Outcome>(operation: string, path: string, body: Record<string, unknown>, schema: Schema.Codec<A, unknown>) =>
      Effect.flatMap(exchange(operation, path, body, schema), (answer) => answer.status === "SUCCESS" ? Effect.succeed(answer) : Effect.fail(refused(answer)))

    const query = (by: { readonly hash: string } | { readonly merchant_payment_code: string }) =>
      Effect.flatMap(call("status", "/ws/query", by, Wire.PaymentAnswer), (answer) =>
        answer.payment === undefined ? Effect.fail(fail(true, "malformed_response", "EBANX answered without the payment")) : Effect.succeed(answer.payment))

    const update = (payment: Wire.Payment): ChargeUpdate => ({
      providerRef: payment.hash,
      transactionId: payment.merchant_payment_code,
      status: Wire.toUpdateStatus(payment.status)
    })

    const charge = Effect.fn("EbanxProvider.charge")(function*(request: ChargeRequest) {
      const rail = Rails.railOf(request.method)
      if (rail === undefined) return yield* fail(true, "method_not_served", `EBANX is not configured for ${request.method.id}`)
      const type = rail.paymentTypeCode
      const payment = yield* call("charge", "/ws/direct", {
        operation: "request",
        payment: {
          name: request.customer.name ?? "",
          email: request.customer.email ?? "",
          document: request.customer.documentId ?? "",
          ...UpstreamHttp.defined({ phone_number: request.customer.phone }),
          country: request.country.toLowerCase(),
          payment_type_code: type,
          merchant_payment_code: request.transactionId,
          currency_code: request.currency,
          // Major units as a JSON number, written from the decimal text (never a float): 250.05.
          amount_total: new UpstreamHttp.JsonDecimal(request.amount),
          notification_url: request.callbackUrl,
          due_date: dueDateOf(request.expiresAt)
        }
      }, Wire.PaymentAnswer).pipe(
        Effect.flatMap((answer) => answer.payment === undefined ? Effect.fail(fail(true, "malformed_response", "EBANX answered without the payment")) : Effect.succeed(answer.payment)),
        Effect.catchIf(
          (error: ProviderError) => error.reason === Wire.errorCodes.duplicate,
          () => query({ merchant_payment_code: request.transactionId })
        )
      )
      if (payment.merchant_payment_code !== request.transactionId) return yield* fail(true, "malformed_response", "EBANX answered about another payment")
      const status = Wire.toChargeStatus(payment.status)
      if (status === "failed") return yield* fail(false, "cancelled", "EBANX cancelled the payment")
      const formUrl = payment[rail.page] ?? payment.redirect_url ?? payment.boleto_url ?? payment.voucher_url
      if (formUrl === undefined) return yield* fail(true, "malformed_response", "EBANX answered without a page for the buyer")
      return {
        providerRef: payment.hash,
        status,
        paymentFormUrl: formUrl,
        paymentData: { type, ...(payment.pix?.qr_code_value === undefined ? {} : { qrCode: payment.pix.qr_code_value }) }
      } satisfies ChargeAccepted
    })

    const status = Effect.fn("EbanxProvider.status")(function*(providerRef: string, transactionId: string) {
      const payment = yield* query({ hash: providerRef })
      if (payment.hash !== providerRef || payment.merchant_payment_code !== transactionId) {
        return yield* fail(true, "malformed_response", "EBANX answered about another payment")
      }
      return update(payment)
    })

    const refund = Effect.fn("EbanxProvider.refund")(function*(request: RefundRequest) {
      const code = yield* refundCodeOf(request.refundId).pipe(Effect.provideService(Mac.Mac, mac))
      const madeOn = (payment: Wire.Payment | undefined) => payment?.refunds?.find((r) => r.merchant_refund_code === code)
      // A retried refund: EBANX already holds one with this merchant_refund_code.
      const made = madeOn(yield* query({ hash: request.providerRef }))
      if (made !== undefined) return { providerRef: String(made.id), status: Wire.toRefundStatus(made.status) }
      const answer = yield* exchange("refund", "/ws/refund", {
        operation: "request",
        hash: request.providerRef,
        amount: new UpstreamHttp.JsonDecimal(Money.round(request.amount, request.currency)),
        description: `Refund ${request.refundId} of ${request.transactionId}`,
        merchant_refund_code: code
      }, Wire.RefundAnswer)
      // Refused, or answered without the refund: a twin request may have made it meanwhile.
      const refund = answer.status === "SUCCESS"
        ? answer.refund ?? madeOn(answer.payment) ?? madeOn(yield* query({ hash: request.providerRef }))
        : madeOn(yield* query({ hash: request.providerRef }))
      if (refund !== undefined) return { providerRef: String(refund.id), status: Wire.toRefundStatus(refund.status) }
      if (answer.status !== "SUCCESS") return yield* refused(answer)
      return yield* fail(true, "malformed_response", "EBANX answered without the refund")
    })

    const verifyCallback = (_headers: Readonly<Record<string, string | undefined>>, rawBody: string) =>
      Effect.gen(function*() {
        const hashes = hashesOf(rawBody)
        if (hashes === undefined) return yield* new CallbackRejected({ reason: "not an EBANX notification" })
        const updates: Array<ChargeUpdate> = []
        for (const hash of hashes) {
          const payment = yield* query({ hash }).pipe(
            Effect.mapError((e) => new CallbackRejected({ reason: `EBANX could not confirm ${upstream.clip(hash)}: ${e.reason}` }))
          )
          updates.push(update(payment))
        }
        return updates
      }).pipe(
        Effect.catchDefect(() => Effect.fail(new CallbackRejected({ reason: "unreadable callback" }))),
        Effect.withSpan("EbanxProvider.verifyCallback")
      )

    return {
      id: options.id,
      displayName: options.displayName ?? "EBANX",
      environments: [options.environment],
      supports: (method) => Rails.railOf(method) !== undefined,
      charge,
      status,
      verifyCallback,
      refund
    } satisfies PaymentProvider
  })

export const layer = (options: Options) => ProviderRegistry.register(make(options))

/** One EBANX account (`CONNECTORS=<id>=ebanx`, secret `<ID>_INTEGRATION_KEY`). */
export const connector: Connector = {
  kind: "ebanx",
  secrets: ["INTEGRATION_KEY"],
  paymentProvider: (settings) =>
    make({
      id: settings.id,
      environment: settings.environment,
      baseUrl: settings.baseUrl,
      integrationKey: settings.secrets["INTEGRATION_KEY"]!,
      timeoutMs: settings.timeoutMs
    })
}

export const EbanxProvider = { make, layer, connector, baseUrls }

