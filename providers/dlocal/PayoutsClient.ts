/**
 * One authenticated call to dLocal's Payouts API v3 (https://docs.dlocal.com/reference/security-payouts-v3).
 * Payouts v3 does not take the pay-in `V2-HMAC-SHA256` signature: the merchant first gets an
 * OAuth2 token with the client-credentials flow, then sends it on every call.
 *
 * | step   | request                                                                                     | answer |
 * |--------|---------------------------------------------------------------------------------------------|--------|
 * | token  | `POST /oauth/token` JSON `{ grant_type: "client_credentials", client_id, client_secret }`    | `{ access_token, scope, expires_in, token_type: "Bearer" }` |
 * | a call | `Authorization: Bearer <access_token>`, `X-Version: 3.0`, `X-Date`, `Content-Type: application/json` | the call's answer |
 *
 * dLocal's token lives `expires_in` seconds (180 in the documentation's example, and "expires
 * automatically after 180 seconds"). The connector keeps it and gets a new one shortly before
 * it lapses ({@link renewMarginSeconds}); a call dLocal answers 401 (a token revoked or expired
 * early) gets a new token and is made again, once. The client id and secret, and every token, stay
 * `Redacted` and are scrubbed from error messages.
 */
import { Clock, Duration, Effect, Redacted, Schema, Semaphore } from "effect"
import { type HttpClient, HttpClientRequest } from "effect/http"
import type { Environment } from "../../core/ports/index.ts"
import { ProviderError } from "../../core/ports/PaymentProvider.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import { baseUrls, defaultTimeoutMs } from "./Client.ts"

export const payoutsApiVersion = "3.0"

/** A token is renewed this long before dLocal says it lapses (at most a quarter of its life). */
export const renewMarginSeconds = 30

export interface PayoutsClientOptions {
  readonly id: string
  readonly environment: Environment
  readonly baseUrl?: string | undefined
  readonly timeoutMs?: number | undefined
  /** OAuth2 client credentials for Payouts v3 (dashboard: Settings > Integrations, "Payouts v3 credentials"). */
  readonly clientId: Redacted.Redacted<string>
  readonly clientSecret: Redacted.Redacted<string>
}

export interface PayoutsClient {
  /** `GET {baseUrl}{path}`, or `POST` with `body` (the exact JSON text sent). */
  readonly call: <A>(operation: string, path: string, schema: Schema.Codec<A, unknown>, body?: string) => Effect.Effect<A, ProviderError>
}

/** `POST /oauth/token`'s answer. */
export const TokenAnswer = Schema.Struct({
  access_token: Schema.NonEmptyString,
  expires_in: Schema.Number,
  token_type: Schema.optionalKey(Schema.String),
  scope: Schema.optionalKey(Schema.String)
})

/** dLocal's answer to a refused token; read to get a new token once. */
const tokenRefused = "token_refused"

interface Held {
  readonly token: Redacted.Redacted<string>
  readonly renewAtMillis: number
}

export const makePayoutsClient = (options: PayoutsClientOptions): Effect.Effect<PayoutsClient, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const baseUrl = (options.baseUrl ?? baseUrls[options.environment]).replace(/\/+$/, "")
    const upstream = yield* UpstreamHttp.make({
      providerId: options.id,
      secrets: [options.clientId, options.clientSecret],
      timeout: Duration.millis(options.timeoutMs ?? defaultTimeoutMs),
      readError: UpstreamHttp.jsonWords("code", "message"),
      classify: (status) => (status === 401 ? { reason: "Misconfigured", code: tokenRefused } : undefined)
    })
    const lock = yield* Semaphore.make(1)
    let held: Held | undefined

    /** The error with every token we hold replaced: dLocal may echo the header it got. */
    const scrubbed = (error: ProviderError, token: Redacted.Redacted<string> | undefined) => {
      const text = token === undefined ? "" : Redacted.value(token)
      return text === "" || !error.message.includes(text)
        ? error
        : new ProviderError({ ...error, message: error.message.split(text).join("[redacted]") })
    }

    const fetchToken = Effect.gen(function*() {
      if (Redacted.value(options.clientId) === "" || Redacted.value(options.clientSecret) === "") {
        return yield* upstream.misconfigured("not_configured", "dLocal Payouts v3 needs CLIENT_ID and CLIENT_SECRET")
      }
      const body = UpstreamHttp.jsonText({
        grant_type: "client_credentials",
        client_id: Redacted.value(options.clientId),
        client_secret: Redacted.value(options.clientSecret)
      })
      const request = HttpClientRequest.post(`${baseUrl}/oauth/token`).pipe(
        HttpClientRequest.bodyText(body, "application/json"),
        HttpClientRequest.acceptJson
      )
      const answer = yield* upstream.call("payout.token", request, TokenAnswer).pipe(
        Effect.mapError((error) =>
          error.code === tokenRefused ? upstream.misconfigured("invalid_credentials", error.message) : error
        )
      )
      const now = yield* Clock.currentTimeMillis
      const lifeSeconds = Math.max(0, answer.expires_in)
      const margin = Math.min(renewMarginSeconds, lifeSeconds / 4)
      const next: Held = { token: Redacted.make(answer.access_token), renewAtMillis: now + (lifeSeconds - margin) * 1000 }
      held = next
      return next.token
    })

    /** The token in hand while it has time left, else a new one (one fetch at a time). */
    const token = lock.withPermits(1)(
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        if (held !== undefined && now < held.renewAtMillis) return held.token
        return yield* fetchToken
      })
    )

    const forget = (token: Redacted.Redacted<string>) =>
      Effect.sync(() => {
        if (held?.token === token) held = undefined
      })

    const attempt = <A>(operation: string, path: string, schema: Schema.Codec<A, unknown>, body: string | undefined, bearer: Redacted.Redacted<string>) =>
      Effect.gen(function*() {
        const date = new Date(yield* Clock.currentTimeMillis).toISOString()
        const base = body === undefined
          ? HttpClientRequest.get(`${baseUrl}${path}`)
          : HttpClientRequest.post(`${baseUrl}${path}`).pipe(HttpClientRequest.bodyText(body, "application/json"))
        const request = base.pipe(
          HttpClientRequest.setHeaders({
            authorization: `Bearer ${Redacted.value(bearer)}`,
            "x-version": payoutsApiVersion,
            "x-date": date
          }),
          HttpClientRequest.acceptJson
        )
        return yield* upstream.call(operation, request, schema).pipe(Effect.mapError((error) => scrubbed(error, bearer)))
      })

    const call = <A>(operation: string, path: string, schema: Schema.Codec<A, unknown>, body?: string): Effect.Effect<A, ProviderError> =>
      Effect.gen(function*() {
        const first = yield* token
        return yield* attempt(operation, path, schema, body, first).pipe(
          Effect.catchIf(
            (error) => error.code === tokenRefused,
            () =>
              Effect.gen(function*() {
                // Revoked or lapsed early: one new token, one more try.
                yield* forget(first)
                const second = yield* token
                return yield* attempt(operation, path, schema, body, second).pipe(
                  Effect.mapError((error) => (error.code === tokenRefused ? upstream.misconfigured("invalid_credentials", error.message) : error))
                )
              })
          )
        )
      })

    return { call } satisfies PayoutsClient
  })
