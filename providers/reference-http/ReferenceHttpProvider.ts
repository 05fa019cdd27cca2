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
 * - **Errors** are `ProviderError`; `retryable` is the cascade's question "may the next provider
 *   try this charge?":
 *
 *   | upstream answer                                   | reason                   | retryable |
 *   |---------------------------------------------------|--------------------------|-----------|
 *   | no answer within `timeoutMs` (default 10 s)       | `timeout`                | yes       |
 *   | connection refused / reset, unusable URL          | `network_error`          | yes       |
 *   | 5xx                                               | `upstream_unavailable`   | yes       |
 *   | 429                                               | `rate_limited`           | yes       |
 *   | 401 / 403                                         | `invalid_credentials`    | yes (*)   |
 *   | other 4xx (402 declined, 422 invalid document...) | upstream `error` or `http_<status>` | no |
 *   | 2xx that does not decode, or 1xx/3xx              | `malformed_response`     | yes       |
 *
 *   (*) A documented choice: refused credentials are this provider's misconfiguration, not a
 *   verdict on the charge, so the next provider may well accept it; failing the payment there
 *   would turn one bad key into an outage of the rail. The reason tells operators what to fix.
 *   A failed call is logged at Debug (provider, operation, reason); the engine logs the outcome.
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
import { Duration, Effect, Option, Redacted, Schema } from "effect"
import type { Mac } from "effect/crypto"
import { HttpClient, type HttpClientError, HttpClientRequest } from "effect/http"
import type { PaymentMethodDef } from "../../core/catalog/PaymentMethod.ts"
import type { Environment } from "../../core/Environment.ts"
import * as Money from "../../core/Money.ts"
import {
  CallbackRejected,
  type ChargeAccepted,
  type ChargeRequest,
  type ChargeUpdate,
  type PaymentProvider,
  ProviderError,
  type RefundRequest
} from "../../core/ports/PaymentProvider.ts"
import { ProviderRegistry } from "../../core/payments/ProviderRegistry.ts"
import { verifySignature } from "../../core/Signatures.ts"
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

/** Drops `undefined` values, so the JSON body carries only what the buyer gave. */
const defined = <A extends Record<string, string | undefined>>(record: A) =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as { [K in keyof A]?: string }

export const make = (options: Options): Effect.Effect<PaymentProvider, never, HttpClient.HttpClient | Mac.Mac> =>
  Effect.gen(function*() {
    const http = yield* HttpClient.HttpClient
    const mac = yield* Effect.context<Mac.Mac>()
    const providerId = options.id
    const baseUrl = options.baseUrl.replace(/\/+$/, "")
    const timeout = Duration.millis(options.timeoutMs ?? defaultTimeoutMs)

    const secrets = [options.apiKey, options.callbackSecret].map(Redacted.value).filter((s) => s.length > 0)
    /**
     * An upstream's words, short, on one line and without our secrets (an upstream that echoes
     * the request into its error must not put the API key into our errors and logs).
     */
    const clip = (text: string) =>
      secrets.reduce((t, secret) => t.split(secret).join("[redacted]"), text).replace(/\s+/g, " ").slice(0, 200)

    const fail = (retryable: boolean, reason: string, message: string) =>
      new ProviderError({ providerId, retryable, reason, message })

    const transportError = (error: HttpClientError.HttpClientError) =>
      fail(true, "network_error", `upstream unreachable (${error.reason._tag})`)

    /** The error of a non-2xx answer, from its status and whatever error body it has. */
    const statusError = (status: number, text: string) => {
      const said = Option.getOrElse(
        Schema.decodeUnknownOption(Schema.fromJsonString(Wire.UpstreamFailure))(text),
        (): typeof Wire.UpstreamFailure.Type => ({})
      )
      const words = clip(said.message ?? said.error ?? "")
      const message = `upstream answered ${status}${words === "" ? "" : `: ${words}`}`
      if (status >= 500) return fail(true, "upstream_unavailable", message)
      if (status === 429) return fail(true, "rate_limited", message)
      if (status === 401 || status === 403) return fail(true, "invalid_credentials", message)
      if (status >= 400) return fail(false, clip(said.error ?? `http_${status}`), message)
      return fail(true, "malformed_response", message)
    }

    /** One upstream call: authenticated, bounded by the timeout, answered 2xx and decoded. */
    const call = <A>(
      operation: string,
      request: HttpClientRequest.HttpClientRequest,
      schema: Schema.Codec<A, unknown>
    ): Effect.Effect<A, ProviderError> =>
      Effect.gen(function*() {
        const response = yield* http.execute(
          request.pipe(HttpClientRequest.bearerToken(options.apiKey), HttpClientRequest.acceptJson)
        ).pipe(Effect.mapError(transportError))
        const text = yield* response.text.pipe(Effect.mapError(transportError))
        if (response.status < 200 || response.status >= 300) return yield* statusError(response.status, text)
        return yield* Schema.decodeUnknownEffect(Schema.fromJsonString(schema))(text).pipe(
          Effect.mapError(() => fail(true, "malformed_response", `upstream answered ${response.status} with an unreadable body`))
        )
      }).pipe(
        Effect.timeoutOrElse({
          duration: timeout,
          orElse: () => Effect.fail(fail(true, "timeout", `no answer from upstream in ${Duration.format(timeout)}`))
        }),
        Effect.tapError((error) =>
          Effect.logDebug("upstream call failed").pipe(
            Effect.annotateLogs({ provider: providerId, operation, reason: error.reason, retryable: error.retryable })
          )
        )
      )

    const charge = Effect.fn("ReferenceHttpProvider.charge")(function*(request: ChargeRequest) {
      const body: Wire.ChargeBody = {
        reference: request.transactionId,
        amount: Money.toText(request.amount),
        currency: request.currency,
        country: request.country,
        method: request.method.method,
        method_id: request.method.id,
        customer: defined({
          name: request.customer.name,
          email: request.customer.email,
          document: request.customer.documentId,
          phone: request.customer.phone,
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
        return yield* fail(true, "malformed_response", "upstream answered about another charge")
      }
      return {
        providerRef,
        transactionId,
        status: Wire.toUpdateStatus(state.status),
        detail: state.reason
      } satisfies ChargeUpdate
    })

    const refund = Effect.fn("ReferenceHttpProvider.refund")(function*(request: RefundRequest) {
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
      return { providerRef: created.id }
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
          detail: event.reason
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

/** Registers the provider; the host provides `HttpClient` (e.g. `FetchHttpClient.layer`) and `Mac`. */
export const layer = (options: Options) => ProviderRegistry.register(make(options))

export const ReferenceHttpProvider = { make, layer, defaultTimeoutMs, callbackToleranceSeconds }
