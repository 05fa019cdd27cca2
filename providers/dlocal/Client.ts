/**
 * One signed call to dLocal's Payins API: the exact JSON text is signed (`Signing.ts`) and sent,
 * bounded and classified by `providers/kit/UpstreamHttp.ts`. dLocal errors are
 * `{ code, message, param? }` (https://docs.dlocal.com/reference/http-errors-payments); the code is
 * the code. A country, currency or method this account cannot take is `Misconfigured`:
 * another provider may serve the charge. (Payouts v3 authenticates otherwise: `PayoutsClient.ts`.)
 */
import { type Context, Duration, Effect, type Schema } from "effect"
import type { Mac } from "effect/crypto"
import { type HttpClient, HttpClientRequest } from "effect/http"
import type { Environment } from "../../core/ports/index.ts"
import type { ProviderError } from "../../core/ports/PaymentProvider.ts"
import { type ProviderFailures, UpstreamHttp } from "../kit/UpstreamHttp.ts"
import { type Credentials, requestHeaders } from "./Signing.ts"
import { errorCodes } from "./Wire.ts"

export const baseUrls: Readonly<Record<Environment, string>> = {
  sandbox: "https://sandbox.dlocal.com",
  production: "https://api.dlocal.com"
}

export const defaultTimeoutMs = 10_000

const accountCannot = new Set<string>([errorCodes.countryNotSupported, errorCodes.currencyNotAllowed, errorCodes.methodNotAvailable])

export interface ClientOptions extends Credentials {
  readonly id: string
  readonly environment: Environment
  readonly baseUrl?: string | undefined
  readonly timeoutMs?: number | undefined
}

export interface DLocalClient extends ProviderFailures {
  readonly call: <A>(operation: string, path: string, schema: Schema.Codec<A, unknown>, body?: string) => Effect.Effect<A, ProviderError>
  /** Shortens an upstream's words and blanks the account's secrets in them (for messages). */
  readonly clip: (text: string) => string
  /** The crypto the notification checks run on. */
  readonly mac: Context.Context<Mac.Mac>
}

export const makeClient = (options: ClientOptions): Effect.Effect<DLocalClient, never, HttpClient.HttpClient | Mac.Mac> =>
  Effect.gen(function*() {
    const mac = yield* Effect.context<Mac.Mac>()
    const baseUrl = (options.baseUrl ?? baseUrls[options.environment]).replace(/\/+$/, "")
    const upstream = yield* UpstreamHttp.make({
      providerId: options.id,
      secrets: [options.login, options.transKey, options.secretKey],
      timeout: Duration.millis(options.timeoutMs ?? defaultTimeoutMs),
      readError: UpstreamHttp.jsonWords("code", "message"),
      classify: (_, words) =>
        words.code !== undefined && accountCannot.has(words.code) ? { reason: "Misconfigured", code: words.code } as const : undefined
    })

    /** `GET {baseUrl}{path}`, or `POST` with `body` (the exact JSON text that is signed and sent). */
    const call = <A>(operation: string, path: string, schema: Schema.Codec<A, unknown>, body?: string) =>
      Effect.gen(function*() {
        const text = body ?? ""
        const base = body === undefined
          ? HttpClientRequest.get(`${baseUrl}${path}`)
          : HttpClientRequest.post(`${baseUrl}${path}`).pipe(HttpClientRequest.bodyText(text, "application/json"))
        const request = base.pipe(HttpClientRequest.setHeaders(yield* requestHeaders(options, text)), HttpClientRequest.acceptJson)
        return yield* upstream.call(operation, request, schema)
      }).pipe(Effect.provideContext(mac))

    return { ...UpstreamHttp.failuresOf(options.id), call, clip: upstream.clip, mac }
  })
