/**
 * The `CardVault` port over the vault's HTTP wire (`core/ports/CardVault.ts`): `describe` is
 * `GET /v1/cards/{token}`, `forward` is `POST /v1/forward`, both with the engine's key as a
 * bearer. What the vault answers is mapped to the port's errors so that a connector can tell a
 * charge that surely was not sent (`ForwardUnreachable`, `ForwardRefused`: safe to cascade) from
 * one that may have been (`ForwardOutcomeUnknown`: never cascade). Nothing of a card number
 * passes here; the key never reaches an error message.
 */
import { Effect, Layer, Redacted, Schema } from "effect"
import {
  CardDescription,
  CardTokenNotFound,
  CardVault,
  ForwardOutcomeUnknown,
  ForwardRefused,
  ForwardRequest,
  ForwardResponse,
  ForwardUnreachable
} from "../../core/ports/CardVault.ts"

export interface Options {
  /** The vault's base URL (`VAULT_URL`), without a trailing slash. */
  readonly url: string
  /** The engine's credential at the vault (`VAULT_ENGINE_KEY`). */
  readonly engineKey: Redacted.Redacted<string>
  /** How long a `describe` may take (default 5 s): a slow vault is an unreachable one. */
  readonly describeTimeoutMs?: number
  /**
   * How much longer than the forward's own `timeoutMs` the engine waits for the vault (default
   * 5 s), so that the vault's answer about the provider (504 `upstream_timeout`) normally arrives first.
   */
  readonly forwardMarginMs?: number
  /** The provider timeout a forward without `timeoutMs` is sent with (default 30 s). */
  readonly defaultForwardTimeoutMs?: number
}

/** Connection errors that mean the request never left this process: nothing reached the vault. */
const notSentCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"])

type Failure =
  | { readonly _tag: "timeout" }
  | { readonly _tag: "notSent"; readonly code: string }
  | { readonly _tag: "broken"; readonly code: string }

const errorCode = (error: unknown): string => {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause
  const code = typeof cause?.code === "string" ? cause.code : (error as { code?: unknown } | undefined)?.code
  return typeof code === "string" ? code : (error as { name?: unknown } | undefined)?.name === "TimeoutError" ? "timeout" : "unknown"
}

const classify = (error: unknown): Failure => {
  const code = errorCode(error)
  if (code === "timeout" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") return { _tag: "timeout" }
  return notSentCodes.has(code) || code === "UND_ERR_CONNECT_TIMEOUT" ? { _tag: "notSent", code } : { _tag: "broken", code }
}

interface Answer {
  readonly status: number
  readonly text: string
}

/** One request to the vault, its answer read whole within `timeoutMs`. */
const call = (options: Options, path: string, init: { method: string; body?: string }, timeoutMs: number) =>
  Effect.tryPromise({
    try: async (signal): Promise<Answer> => {
      const response = await fetch(`${options.url}${path}`, {
        method: init.method,
        headers: {
          authorization: `Bearer ${Redacted.value(options.engineKey)}`,
          accept: "application/json",
          ...(init.body === undefined ? {} : { "content-type": "application/json" })
        },
        ...(init.body === undefined ? {} : { body: init.body }),
        redirect: "manual",
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
      })
      return { status: response.status, text: await response.text() }
    },
    catch: classify
  })

/** The code of the vault's refusal envelope `{ "error": { "code", "message" } }` (or a bare `{ "error": "code" }`). */
const errorOf = (text: string): string | undefined => {
  try {
    const error = (JSON.parse(text) as { error?: unknown })?.error
    if (typeof error === "string") return error
    const code = (error as { code?: unknown } | undefined)?.code
    return typeof code === "string" ? code : undefined
  } catch {
    return undefined
  }
}

const decodeDescription = Schema.decodeUnknownEffect(Schema.fromJsonString(CardDescription))
const encodeForwardRequest = Schema.encodeSync(ForwardRequest)
const decodeForwardResponse = Schema.decodeUnknownEffect(Schema.fromJsonString(ForwardResponse))

export const make = (options: Options): CardVault["Service"] => {
  const describeTimeoutMs = options.describeTimeoutMs ?? 5_000
  const margin = options.forwardMarginMs ?? 5_000
  const defaultTimeout = options.defaultForwardTimeoutMs ?? 30_000
  const unreachable = (what: string) => new ForwardUnreachable({ message: `the card vault ${what}` })
  return {
    describe: (merchantId, token) =>
      call(options, `/v1/cards/${encodeURIComponent(token)}?merchantId=${encodeURIComponent(merchantId)}`, { method: "GET" }, describeTimeoutMs).pipe(
        Effect.mapError((failure) =>
          unreachable(failure._tag === "timeout" ? `did not answer within ${describeTimeoutMs} ms` : `could not be reached (${failure.code})`)
        ),
        Effect.flatMap((answer): Effect.Effect<CardDescription, CardTokenNotFound | ForwardUnreachable> => {
          if (answer.status === 404) return Effect.fail(new CardTokenNotFound({ token }))
          if (answer.status !== 200) return Effect.fail(unreachable(`answered ${answer.status} to a card's description`))
          return decodeDescription(answer.text).pipe(
            Effect.mapError(() => unreachable("answered a card description the engine cannot read")),
            // A vault answering another merchant's card is a vault to distrust: the card is not found.
            Effect.flatMap((card) => card.merchantId === merchantId && card.token === token ? Effect.succeed(card) : Effect.fail(new CardTokenNotFound({ token })))
          )
        })
      ),
    forward: (request: ForwardRequest) => {
      const timeoutMs = request.timeoutMs ?? defaultTimeout
      // Encoded by its schema: `bodyHmac.key` is `Redacted` in the engine and text on the wire.
      const body = JSON.stringify(encodeForwardRequest({ ...request, timeoutMs }))
      return call(options, "/v1/forward", { method: "POST", body }, timeoutMs + margin).pipe(
        Effect.mapError((failure) =>
          failure._tag === "notSent"
            ? unreachable(`could not be reached (${failure.code})`)
            : new ForwardOutcomeUnknown({
              message: failure._tag === "timeout"
                ? `the card vault did not answer within ${timeoutMs + margin} ms: the request may have reached the provider`
                : `the connection to the card vault broke (${failure.code}): the request may have reached the provider`
            })
        ),
        Effect.flatMap((answer): Effect.Effect<ForwardResponse, ForwardRefused | ForwardOutcomeUnknown | ForwardUnreachable> => {
          const error = errorOf(answer.text)
          switch (answer.status) {
            case 200:
              return decodeForwardResponse(answer.text).pipe(
                Effect.mapError(() => new ForwardOutcomeUnknown({ message: "the card vault answered a forward the engine cannot read: the request may have reached the provider" }))
              )
            case 502:
              return Effect.fail(new ForwardUnreachable({ message: `the provider could not be reached through the card vault (${error ?? "502"})` }))
            case 504:
              return Effect.fail(new ForwardOutcomeUnknown({ message: "the provider did not answer the card vault in time: the request may have reached it" }))
            case 403:
              return Effect.fail(new ForwardRefused({ reason: "host_not_allowed", message: "the card vault does not allow this provider host" }))
            case 404:
              return Effect.fail(new ForwardRefused({ reason: "token_not_found", message: "the card vault holds no card for this token" }))
            case 410:
              return Effect.fail(new ForwardRefused({ reason: "security_code_gone", message: "the card vault no longer holds this card's security code" }))
            default:
              // 4xx: the vault refused before forwarding (a wrong key, a malformed request): nothing was sent.
              // Anything else (5xx) may have come after the provider was called.
              return Effect.fail(
                answer.status >= 400 && answer.status < 500
                  ? unreachable(`refused the forward (${answer.status}${error === undefined ? "" : ` ${error}`})`)
                  : new ForwardOutcomeUnknown({ message: `the card vault answered ${answer.status}: the request may have reached the provider` })
              )
          }
        })
      )
    }
  }
}

/** The engine's card vault at `options.url`. */
export const layer = (options: Options): Layer.Layer<CardVault> => Layer.succeed(CardVault, make(options))
