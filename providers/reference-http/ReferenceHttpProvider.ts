/**
 * The reference HTTP provider: a plugin for an upstream payment API spoken over HTTP + JSON, the
 * model a provider team copies. Wire types and status mapping are in `Wire.ts`; a local upstream
 * to test against is `UpstreamSimulator.ts`; the shared suite it passes is `providers/kit`.
 *
 * - **Calls.** `charge` = `POST {baseUrl}/v1/charges`, `status` = `GET {baseUrl}/v1/charges/{id}`,
 *   `refund` = `POST {baseUrl}/v1/refunds`, each with `Authorization: Bearer <apiKey>`; the POSTs
 *   carry `Idempotency-Key` = the engine's key, which stays the same when the engine retries the
 *   same charge or refund, so a retry after a lost answer never creates a second charge. The
 *   plugin itself does not retry: the engine's cascade decides what happens next.
 * - **Errors** are `ProviderError`, classified by `providers/kit/UpstreamHttp.ts` (5xx, 429,
 *   timeouts and network errors `Failed` or `OutcomeUnknown`, refused credentials `Misconfigured`;
 *   other 4xx, e.g. 402 declined or 422 invalid document, `Declined`), with the upstream's `error`
 *   code as the code. The plugin itself
 *   does not retry: the engine's cascade decides what happens next.
 * - **Callbacks.** The upstream POSTs `{ id, reference, status, reason? }` (or an array of them)
 *   signed `x-upstream-signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` with the
 *   callback secret. `verifyCallback` checks it in constant time (`core/Signatures.ts`, the same
 *   scheme as every signed message of the engine), refuses a timestamp more than 300 s from the
 *   Effect `Clock`, then decodes the body with Schema; any problem is `CallbackRejected`, never
 *   a throw.
 * - **Secrets** (`apiKey`, `callbackSecret`) stay `Redacted`: the key goes into the request as a
 *   `Redacted` bearer token (HTTP tracing records `authorization` as `<redacted>`), the callback
 *   secret only into the HMAC. No error, log line or span carries either, and the test proves it.
 * - **Amounts** go out as decimal text (`Money.toText`), never as floats.
 */
import { Duration, Effect, Redacted, Schema } from "effect"
import type { Mac } from "effect/crypto"
import { type HttpClient, HttpClientRequest } from "effect/http"
import { type Environment, Money, type PaymentMethodDef, verifySignature } from "../../core/ports/index.ts"
import {
  CallbackRejected,
  type ChargeAccepted,
  type ChargeRequest,
  type ChargeUpdate,
  type PaymentProvider,
  type RefundRequest
} from "../../core/ports/PaymentProvider.ts"
import { clear } from "../kit/Buyer.ts"
import { defineConnector } from "../kit/Connector.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import * as Wire from "./Wire.ts"

export interface Options {
  readonly id: string
  readonly displayName?: string | undefined
  /** Root of the upstream API, without `/v1`, e.g. `https://api.upstream.example`. */
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  readonly callbackSecret: Redacted.Redacted<string>
  readonly environments: ReadonlyArray<Environment>
  /** The rails this upstream serves; every rail when omitted. */
  readonly supports?: ((method: PaymentMethodDef) => boolean) | undefined
  /** Budget of one upstream call, body included. Default 10 000. */
  readonly timeoutMs?: number | undefined
}

export const defaultTimeoutMs = 10_000

/** Callbacks signed further than this from now are refused (replays, clock trouble). */
export const callbackToleranceSeconds = 300

const decodeCallback = Schema.decodeUnknownEffect(Schema.fromJsonString(Wire.CallbackPayload))

export const make = (options: Options): Effect.Effect<PaymentProvider, never, HttpClient.HttpClient | Mac.Mac> =>
  Effect.gen(function*() {
    const mac = yield* Effect.context<Mac.Mac>()
    const providerId = options.id
    const baseUrl = options.baseUrl.replace(/\/+$/, "")
    const upstream = yield* UpstreamHttp.make({
      providerId,
      secrets: [options.apiKey, options.callbackSecret],
      timeout: Duration.millis(options.timeoutMs ?? defaultTimeoutMs),
      readError: UpstreamHttp.jsonWords("error", "message")
    })
    const { malformed } = upstream
    /** One upstream call, authenticated with the API key. */
    const call = <A>(operation: string, request: HttpClientRequest.HttpClientRequest, schema: Schema.Codec<A, unknown>) =>
      upstream.call(operation, request.pipe(HttpClientRequest.bearerToken(options.apiKey), HttpClientRequest.acceptJson), schema)

    const charge = Effect.fn("ReferenceHttpProvider.charge")(function*(request: ChargeRequest) {
      const body: Wire.ChargeBody = {
        reference: request.transactionId,
        amount: Money.toText(request.amount),
        currency: request.currency,
        country: request.country,
        method: request.method.method,
        method_id: request.method.id,
        customer: UpstreamHttp.defined({
          name: clear(request.customer.name),
          email: clear(request.customer.email),
          document: clear(request.customer.documentId),
          phone: clear(request.customer.phone),
          ip: request.customer.ip
        }),
        expires_at: request.expiresAt.toISOString(),
        callback_url: request.callbackUrl,
        ...(request.simulate === undefined ? {} : { simulate: request.simulate })
      }
      const created = yield* call(
        "charge",
        HttpClientRequest.post(`${baseUrl}/v1/charges`).pipe(
          HttpClientRequest.setHeader("Idempotency-Key", request.idempotencyKey),
          HttpClientRequest.bodyJsonUnsafe(body)
        ),
        Wire.ChargeCreated
      )
      return {
        providerRef: created.id,
        status: Wire.toChargeStatus(created.status),
        paymentFormUrl: created.form_url,
        paymentData: created.payment_data ?? {}
      } satisfies ChargeAccepted
    })

    const status = Effect.fn("ReferenceHttpProvider.status")(function*(providerRef: string, transactionId: string) {
      const state = yield* call(
        "status",
        HttpClientRequest.get(`${baseUrl}/v1/charges/${encodeURIComponent(providerRef)}`),
        Wire.ChargeState
      )
      // Only the charge asked about may speak: an answer about another one changes nothing.
      if (state.id !== providerRef || (state.reference !== undefined && state.reference !== transactionId)) {
        return yield* malformed("upstream answered about another charge")
      }
      return {
        providerRef,
        transactionId,
        status: Wire.toUpdateStatus(state.status),
        detail: state.reason
      } satisfies ChargeUpdate
    })

    const refund = Effect.fn("ReferenceHttpProvider.refund")(function*(request: RefundRequest) {
      // Asked again (a retry, or the engine following a pending refund): the refund as it stands
      // now. A second POST with the key would only replay its first answer.
      const made = yield* call(
        "refund.lookup",
        HttpClientRequest.get(`${baseUrl}/v1/refunds`).pipe(HttpClientRequest.setUrlParam("reference", request.refundId)),
        Wire.RefundList
      )
      const existing = made.data[0]
      if (existing !== undefined) return { providerRef: existing.id, status: Wire.toRefundStatus(existing.status) }
      const body: Wire.RefundBody = {
        charge_id: request.providerRef,
        amount: Money.toText(request.amount),
        currency: request.currency,
        reference: request.refundId
      }
      const created = yield* call(
        "refund",
        HttpClientRequest.post(`${baseUrl}/v1/refunds`).pipe(
          HttpClientRequest.setHeader("Idempotency-Key", request.idempotencyKey),
          HttpClientRequest.bodyJsonUnsafe(body)
        ),
        Wire.RefundCreated
      )
      return { providerRef: created.id, status: Wire.toRefundStatus(created.status) }
    })

    const verifyCallback = (headers: Readonly<Record<string, string | undefined>>, rawBody: string) =>
      Effect.gen(function*() {
        const verdict = yield* verifySignature(
          rawBody,
          headers[Wire.signatureHeader],
          [Redacted.value(options.callbackSecret)],
          callbackToleranceSeconds
        )
        if (verdict !== "valid") return yield* new CallbackRejected({ reason: `signature ${verdict}` })
        const payload = yield* decodeCallback(rawBody).pipe(
          Effect.mapError(() => new CallbackRejected({ reason: "unreadable body" }))
        )
        const events = Array.isArray(payload) ? payload : [payload as Wire.CallbackEvent]
        return events.map((event): ChargeUpdate => ({
          providerRef: event.id,
          transactionId: event.reference,
          status: Wire.toUpdateStatus(event.status),
          detail: event.reason,
          // Signed with the event: a refund that moved is settled or failed at once.
          ...(event.refunds === undefined || event.refunds.length === 0
            ? {}
            : { refunds: event.refunds.map((r: typeof Wire.RefundCreated.Type) => ({ providerRef: r.id, status: Wire.toRefundStatus(r.status) })) })
        }))
      }).pipe(
        // Untrusted input must never escape as a defect.
        Effect.catchDefect(() => Effect.fail(new CallbackRejected({ reason: "unreadable callback" }))),
        Effect.provideContext(mac),
        Effect.withSpan("ReferenceHttpProvider.verifyCallback")
      )

    return {
      id: providerId,
      displayName: options.displayName ?? providerId,
      environments: options.environments,
      supports: options.supports ?? (() => true),
      charge,
      status,
      verifyCallback,
      refund
    } satisfies PaymentProvider
  })

/**
 * The reference upstream as a configurable connector: `CONNECTORS=<id>=reference-http` with
 * `<PREFIX>_BASE_URL`, `<PREFIX>_API_KEY` and `<PREFIX>_CALLBACK_SECRET` (see `host/Connectors.ts`).
 */
export const ReferenceHttpConnector = defineConnector({
  kind: "reference-http",
  secrets: ["API_KEY", "CALLBACK_SECRET"],
  baseUrlRequired: true,
  // The reference upstream has no rails of its own: it serves what `Options.supports` names.
  rails: [],
  wire: Wire,
  statusMaps: { charges: Wire.chargeStatusMap, refunds: Wire.refundStatusMap },
  make,
  options: (settings) => ({
    baseUrl: settings.baseUrl ?? "",
    apiKey: settings.secrets["API_KEY"]!,
    callbackSecret: settings.secrets["CALLBACK_SECRET"]!,
    environments: [settings.environment]
  })
})

/** Registers the provider; the host provides `HttpClient` (e.g. `FetchHttpClient.layer`) and `Mac`. */
export const { connector, layer } = ReferenceHttpConnector

export const ReferenceHttpProvider = { make, layer, connector, defaultTimeoutMs, callbackToleranceSeconds }
