/**
 * One upstream API call as every HTTP connector makes it: bounded by a timeout, answered 2xx and
 * decoded with Schema, or a `ProviderError` whose reason answers the cascade's questions "may the
 * next provider try this charge?" and "may this one hold it?". A connector builds the request (URL, authentication,
 * signature, body) and hands it over; this module owns transport errors, timeouts, error
 * classification and keeping the connector's secrets out of error messages and logs.
 *
 * | upstream answer                                   | code                                    | reason           |
 * |---------------------------------------------------|-----------------------------------------|------------------|
 * | no answer within the timeout                      | `timeout`                               | `OutcomeUnknown` |
 * | connection refused, host not found, unusable URL  | `network_error`                         | `Failed`         |
 * | connection lost after it was made (reset...)      | `network_error`                         | `OutcomeUnknown` |
 * | 500, 502, 504                                     | `upstream_unavailable`                  | `OutcomeUnknown` |
 * | 503                                               | `upstream_unavailable`                  | `Failed`         |
 * | 429                                               | `rate_limited`                          | `Failed`         |
 * | 401 / 403                                         | `invalid_credentials`                   | `Misconfigured`  |
 * | other 4xx                                         | the upstream's code, or `http_<status>` | `Declined`       |
 * | 2xx that does not decode, or 1xx/3xx              | `malformed_response`                    | `OutcomeUnknown` |
 *
 * Refused credentials are this provider's misconfiguration, not a verdict on the charge: the
 * next provider may well accept it. The code tells operators what to fix. A connector whose
 * upstream says more (a documented error code that means "declined", say) passes `classify`.
 *
 * `OutcomeUnknown`: the call may have taken effect upstream, so
 * only the same call with the same idempotency key may follow it, never a call to another
 * provider. A 503 is a server that did not take the request (RFC 9110 15.6.4); a 500, a gateway's
 * 502 or 504, a lost connection or an unreadable 2xx may each hide a charge made. Every
 * `malformed_response` a connector raises itself (a 2xx about another order) is unknown too.
 */
import { type BigDecimal, Duration, Effect, Option, Redacted, Schema } from "effect"
import { HttpClient, type HttpClientError, type HttpClientRequest } from "effect/http"
import { Money } from "../../core/ports/index.ts"
import { ProviderError, type ProviderFailure } from "../../core/ports/PaymentProvider.ts"

/** What an error body said, as far as the connector could read it. */
export interface UpstreamWords {
  readonly code?: string | undefined
  readonly message?: string | undefined
}

export interface UpstreamHttpOptions {
  readonly providerId: string
  /** Never to appear in an error message or a log line, even when the upstream echoes them. */
  readonly secrets: ReadonlyArray<Redacted.Redacted<string>>
  /** Budget of one call, body included. */
  readonly timeout: Duration.Input
  /** Reads the upstream's error body (any text, maybe not JSON). */
  readonly readError: (text: string) => UpstreamWords
  /**
   * Overrides the table above for an answer the upstream documents otherwise; `undefined` keeps
   * the table's verdict.
   */
  readonly classify?: ((status: number, words: UpstreamWords) => Verdict | undefined) | undefined
}

/** A connector's reading of an upstream answer: the reason, and the code to record. */
export interface Verdict {
  readonly reason: ProviderFailure["_tag"]
  readonly code: string
}

/**
 * The `ProviderError`s of one provider, one constructor per reason; `code` is the provider's own
 * code or a word of ours (`method_not_served`), `message` is safe to log.
 */
export interface ProviderFailures {
  readonly declined: (code: string, message: string) => ProviderError
  readonly failed: (code: string, message: string) => ProviderError
  readonly outcomeUnknown: (code: string, message: string) => ProviderError
  readonly misconfigured: (code: string, message: string) => ProviderError
  /**
   * A 2xx the connector cannot use (about another order, without the buyer's page): code
   * `malformed_response`, outcome unknown, since the call may have made something upstream.
   */
  readonly malformed: (message: string) => ProviderError
  /** The error of a {@link Verdict}. */
  readonly of: (verdict: Verdict, message: string) => ProviderError
}

/** The constructors of {@link ProviderFailures} for `providerId`. */
export const failuresOf = (providerId: string): ProviderFailures => {
  const declined = (code: string, message: string) => ProviderError.declined({ providerId, code, message })
  const failed = (code: string, message: string) => ProviderError.failed({ providerId, code, message })
  const outcomeUnknown = (code: string, message: string) => ProviderError.outcomeUnknown({ providerId, code, message })
  const misconfigured = (code: string, message: string) => ProviderError.misconfigured({ providerId, code, message })
  const byReason = { Declined: declined, Failed: failed, OutcomeUnknown: outcomeUnknown, Misconfigured: misconfigured } satisfies {
    readonly [K in ProviderFailure["_tag"]]: (code: string, message: string) => ProviderError
  }
  return {
    declined,
    failed,
    outcomeUnknown,
    misconfigured,
    malformed: (message) => outcomeUnknown("malformed_response", message),
    of: (verdict, message) => byReason[verdict.reason](verdict.code, message)
  }
}

export interface UpstreamHttp extends ProviderFailures {
  /** One call: `operation` names it in logs. */
  readonly call: <A>(
    operation: string,
    request: HttpClientRequest.HttpClientRequest,
    schema: Schema.Codec<A, unknown>
  ) => Effect.Effect<A, ProviderError>
  /** Upstream text made safe for our errors: short, one line, secrets replaced. */
  readonly clip: (text: string) => string
}

/** Reads `{ <codeKey>, <messageKey> }` from a JSON error body; anything else says nothing. */
export const jsonWords = (codeKey: string, messageKey: string) => (text: string): UpstreamWords => {
  const parsed = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Record(Schema.String, Schema.Unknown)))(text)
  if (Option.isNone(parsed)) return {}
  const asText = (value: unknown) =>
    typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined
  return { code: asText(parsed.value[codeKey]), message: asText(parsed.value[messageKey]) }
}

/**
 * The system error codes (Node's, undici's) of a connection that was never made: nothing was
 * sent, so nothing can have happened upstream.
 */
const neverConnected = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"])

/** The first system error code in an error's chain of causes (fetch wraps Node's in a TypeError). */
const codeOf = (cause: unknown): string | undefined => {
  for (let at = cause, depth = 0; typeof at === "object" && at !== null && depth < 4; depth++) {
    const code = (at as { readonly code?: unknown }).code
    if (typeof code === "string") return code
    at = (at as { readonly cause?: unknown }).cause
  }
  return undefined
}

/** Whether a transport failure happened before anything reached the upstream. */
const sentNothing = (error: HttpClientError.HttpClientError) =>
  error.reason._tag === "InvalidUrlError" || error.reason._tag === "EncodeError" ||
  (error.reason._tag === "TransportError" && neverConnected.has(codeOf(error.reason.cause) ?? ""))

export const make = (options: UpstreamHttpOptions): Effect.Effect<UpstreamHttp, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const http = yield* HttpClient.HttpClient
    const { providerId } = options
    const timeout = Duration.fromInputUnsafe(options.timeout)
    const secrets = options.secrets.map(Redacted.value).filter((s) => s.length > 0)

    const clip = (text: string) =>
      secrets.reduce((t, secret) => t.split(secret).join("[redacted]"), text).replace(/\s+/g, " ").slice(0, 200)

    const failures = failuresOf(providerId)

    const transportError = (error: HttpClientError.HttpClientError) => {
      const message = `upstream unreachable (${error.reason._tag}${codeOf(error.reason.cause) === undefined ? "" : ` ${codeOf(error.reason.cause)}`})`
      return sentNothing(error) ? failures.failed("network_error", message) : failures.outcomeUnknown("network_error", message)
    }

    const statusError = (status: number, text: string) => {
      const said = options.readError(text)
      const words = clip(said.message ?? said.code ?? "")
      const message = `upstream answered ${status}${words === "" ? "" : `: ${words}`}`
      const verdict = options.classify?.(status, said)
      if (verdict !== undefined) return failures.of({ reason: verdict.reason, code: clip(verdict.code) }, message)
      if (status === 503) return failures.failed("upstream_unavailable", message)
      if (status >= 500) return failures.outcomeUnknown("upstream_unavailable", message)
      if (status === 429) return failures.failed("rate_limited", message)
      if (status === 401 || status === 403) return failures.misconfigured("invalid_credentials", message)
      if (status >= 400) return failures.declined(clip(said.code ?? `http_${status}`), message)
      return failures.malformed(message)
    }

    const call = <A>(
      operation: string,
      request: HttpClientRequest.HttpClientRequest,
      schema: Schema.Codec<A, unknown>
    ): Effect.Effect<A, ProviderError> =>
      Effect.gen(function*() {
        const response = yield* http.execute(request).pipe(Effect.mapError(transportError))
        const text = yield* response.text.pipe(Effect.mapError(transportError))
        if (response.status < 200 || response.status >= 300) return yield* statusError(response.status, text)
        return yield* Schema.decodeUnknownEffect(Schema.fromJsonString(schema))(text).pipe(
          Effect.mapError(() => failures.malformed(`upstream answered ${response.status} with an unreadable body`))
        )
      }).pipe(
        Effect.timeoutOrElse({
          duration: timeout,
          orElse: () => Effect.fail(failures.outcomeUnknown("timeout", `no answer from upstream in ${Duration.format(timeout)}`))
        }),
        Effect.tapError((error) =>
          Effect.logDebug("upstream call failed").pipe(
            Effect.annotateLogs({ provider: providerId, operation, reason: error.code, failure: error.reason._tag })
          )
        )
      )

    return { ...failures, call, clip } satisfies UpstreamHttp
  })

/** Drops `undefined` values, so a JSON body carries only what the buyer gave. */
export const defined = <A extends Record<string, unknown>>(record: A) =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as { [K in keyof A]?: Exclude<A[K], undefined> }

const decimalMark = "\u0000decimal:"
const decimalPattern = /^-?\d+(\.\d+)?$/

/**
 * A decimal amount an upstream wants as a JSON number (`"amount": 150.50`): written into the body
 * from its decimal text by {@link jsonText}, so no float ever holds money on our side.
 */
export class JsonDecimal {
  readonly text: string
  constructor(amount: BigDecimal.BigDecimal) {
    this.text = Money.toText(amount)
  }
  toJSON() {
    return `${decimalMark}${this.text}`
  }
}

/** `JSON.stringify`, with every {@link JsonDecimal} written as a number literal of its exact text. */
export const jsonText = (value: unknown): string =>
  JSON.stringify(value).replace(/"\\u0000decimal:([^"]*)"/g, (_, text: string) => {
    if (!decimalPattern.test(text)) throw new Error(`not a decimal: ${text}`)
    return text
  })

export const UpstreamHttp = { make, failuresOf, jsonWords, defined, jsonText, JsonDecimal }
