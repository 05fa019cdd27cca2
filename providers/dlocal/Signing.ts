/**
 * dLocal's request and notification signature, shared by the pay-in and payout connectors
 * (https://docs.dlocal.com/docs/generate-signature, https://docs.dlocal.com/docs/payins-security,
 * https://docs.dlocal.com/reference/payouts-security).
 *
 * Every API call carries `X-Date` (ISO 8601 with zone), `X-Login`, `X-Trans-Key`, `X-Version: 2.1`
 * and `Authorization: V2-HMAC-SHA256, Signature: <hex>`, where the signature is the lowercase hex
 * HMAC-SHA256 of `X-Login + X-Date + body` (no delimiters; the body is empty for a GET) keyed by
 * the secret key. dLocal signs its notifications the same way with the merchant's own login and
 * secret and the notification's `X-Date`, so `verifyNotification` recomputes it over the exact
 * bytes received and compares in constant time.
 *
 * **Age.** dLocal retries a notification that was not answered 2xx "every 1 hour for 6 hours, then
 * every 12 hours for 4 days" (https://docs.dlocal.com/docs/receive-notifications; older pages and
 * https://docs.dlocal.com/reference/notifications-v2-platforms say "once an hour for 7 days"), and
 * a retry keeps the `X-Date` it was signed with. A notification carries no money by itself (the
 * engine applies the status it names idempotently), so a correctly signed one is accepted up to
 * {@link notificationMaxAgeSeconds} after its `X-Date` (the longer documented horizon and a day);
 * one dated further back, or more than {@link notificationMaxAheadSeconds} ahead of the Effect
 * clock, is `stale`.
 */
import { Clock, Effect, Redacted } from "effect"
import type { Mac } from "effect/crypto"
import { hmacSha256Hex, verifyHmacSha256Hex } from "../../core/ports/index.ts"

export interface Credentials {
  readonly login: Redacted.Redacted<string>
  readonly transKey: Redacted.Redacted<string>
  readonly secretKey: Redacted.Redacted<string>
}

export const apiVersion = "2.1"

/** The oldest `X-Date` accepted: dLocal's longest documented retry horizon (7 days) and a day. */
export const notificationMaxAgeSeconds = 8 * 24 * 3600

/** The furthest ahead of our clock an `X-Date` may be (clock skew). */
export const notificationMaxAheadSeconds = 300

export const authorizationOf = (signature: string) => `V2-HMAC-SHA256, Signature: ${signature}`

/** The hex signature of `login + date + body`. */
export const signatureOf = (credentials: Pick<Credentials, "login" | "secretKey">, date: string, body: string) =>
  hmacSha256Hex(Redacted.value(credentials.secretKey), `${Redacted.value(credentials.login)}${date}${body}`)

/**
 * The authentication headers of one API call with `body` (`""` for a GET), dated now. Returned
 * as plain strings: the caller sets them on the request, and HTTP tracing redacts
 * `authorization` and `x-trans-key` (see the connector's `redactedHeaders`).
 */
export const requestHeaders = (credentials: Credentials, body: string): Effect.Effect<Record<string, string>, never, Mac.Mac> =>
  Effect.gen(function*() {
    const date = new Date(yield* Clock.currentTimeMillis).toISOString()
    return {
      "x-date": date,
      "x-login": Redacted.value(credentials.login),
      "x-trans-key": Redacted.value(credentials.transKey),
      "x-version": apiVersion,
      authorization: authorizationOf(yield* signatureOf(credentials, date, body))
    }
  })

/** Header names whose values are secrets or derived from one (for `HttpClient` redaction). */
export const redactedHeaders = ["authorization", "x-trans-key", "x-login"] as const

export type NotificationVerdict = "valid" | "malformed" | "stale" | "mismatch"

const authorizationPattern = /^V2-HMAC-SHA256,\s*Signature:\s*([0-9a-fA-F]{64})$/

/** Checks a notification's `authorization` and `x-date` headers (lowercase) against its raw body. */
export const verifyNotification = (
  credentials: Pick<Credentials, "login" | "secretKey">,
  headers: Readonly<Record<string, string | undefined>>,
  rawBody: string
): Effect.Effect<NotificationVerdict, never, Mac.Mac> =>
  Effect.gen(function*() {
    const date = headers["x-date"]
    const signature = authorizationPattern.exec((headers["authorization"] ?? "").trim())?.[1]
    if (date === undefined || date.length > 64 || signature === undefined) return "malformed"
    const dated = Date.parse(date)
    if (!Number.isFinite(dated)) return "malformed"
    const now = yield* Clock.currentTimeMillis
    if (now - dated > notificationMaxAgeSeconds * 1000 || dated - now > notificationMaxAheadSeconds * 1000) return "stale"
    const data = `${Redacted.value(credentials.login)}${date}${rawBody}`
    return (yield* verifyHmacSha256Hex(Redacted.value(credentials.secretKey), data, signature)) ? "valid" : "mismatch"
  })
