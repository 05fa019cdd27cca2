/**
 * `POST /v1/forward`'s work: check the host against the allowlist, open the token's card, fill the
 * placeholders, record the use, send, and answer the provider's response with card numbers
 * masked. Nothing is sent when the host is refused, the token unknown, or the security code asked
 * for is gone. The audit row is written before the request leaves, so a forward that times out is
 * on record too.
 */
import { Clock, Context, Effect, Layer, Redacted } from "effect"
import {
  ForwardOutcomeUnknown,
  ForwardRefused,
  type ForwardRequest,
  type ForwardResponse,
  ForwardUnreachable
} from "../../core/ports/CardVault.ts"
import { type CardNotFound, Cards, type CardUnreadable } from "../cards/Cards.ts"
import { SecurityCodes } from "../cards/SecurityCodes.ts"
import { CardStore, type StoreUnavailable } from "../store/CardStore.ts"
import { type AllowlistConfig, check } from "./Allowlist.ts"
import { signed } from "./BodyHmac.ts"
import { maskCardNumbers } from "./Mask.ts"
import { encodingOf, fill, usesSecurityCode } from "./Placeholders.ts"

export interface ForwarderConfig extends AllowlistConfig {
  readonly defaultTimeoutMs: number
}

/** Hop-by-hop and framing headers the vault does not pass back (it answers its own framing). */
const droppedHeaders = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "upgrade"])

/** Errors that mean the request never left: the provider's host was not reached at all. */
const beforeSending = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "CERT_HAS_EXPIRED", "DEPTH_ZERO_SELF_SIGNED_CERT", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "ERR_TLS_CERT_ALTNAME_INVALID"])

/** Framing headers the vault sets itself: the filled body has another length than the one the engine wrote. */
const framingHeaders = new Set(["content-length", "host", "connection", "transfer-encoding", "keep-alive", "upgrade", "expect"])

/**
 * Whether fetch failed before anything left: it threw before connecting (a malformed header, a
 * port fetch refuses), or the connection itself was refused or not resolved.
 */
const failedBeforeSending = (error: unknown): boolean => {
  if (!(error instanceof TypeError) || error.message !== "fetch failed") return true
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause
  if (typeof cause?.code === "string") return beforeSending.has(cause.code)
  return cause?.message === "bad port"
}

export class Forwarder extends Context.Service<Forwarder, {
  readonly forward: (request: ForwardRequest, actor: string) => Effect.Effect<
    ForwardResponse,
    ForwardRefused | ForwardOutcomeUnknown | ForwardUnreachable | CardUnreadable | StoreUnavailable
  >
}>()("vault/forward/Forwarder") {
  static readonly layer = (config: ForwarderConfig) =>
    Layer.effect(Forwarder, Effect.gen(function*() {
      const cards = yield* Cards
      const codes = yield* SecurityCodes
      const store = yield* CardStore

      const forward = Effect.fn("Forwarder.forward")(function*(request: ForwardRequest, actor: string) {
        const allowed = check(config, request.url)
        if ("refused" in allowed) return yield* new ForwardRefused({ reason: "host_not_allowed", message: allowed.refused })
        const url = allowed.ok
        const card = yield* Effect.catchTag(
          cards.reveal(request.merchantId, request.token),
          "CardNotFound",
          (e: CardNotFound) => Effect.fail(new ForwardRefused({ reason: "token_not_found", message: `no card ${e.token} for this merchant` }))
        )
        const headerValues = Object.values(request.headers)
        let securityCode: Redacted.Redacted<string> | undefined
        if (usesSecurityCode([request.body ?? "", ...headerValues])) {
          securityCode = yield* codes.use(request.token, request.purpose)
          if (securityCode === undefined) {
            return yield* new ForwardRefused({ reason: "security_code_gone", message: "the vault no longer holds this card's security code" })
          }
        }
        const secret = Redacted.value(card)
        const code = securityCode === undefined ? undefined : Redacted.value(securityCode)
        const filledHeaders = Object.fromEntries(
          Object.entries(request.headers)
            .filter(([name]) => !framingHeaders.has(name.toLowerCase()))
            .map(([name, value]) => [name, fill(value, secret, code, "raw")])
        )
        const body = request.body === undefined ? undefined : fill(request.body, secret, code, encodingOf(request.headers))
        // A provider that signs the body (`bodyHmac`) is signed over the bytes sent, which only the vault sees.
        const headers = request.bodyHmac === undefined ? filledHeaders : signed(filledHeaders, request.bodyHmac, body ?? "")
        yield* store.appendAudit({
          at: new Date(yield* Clock.currentTimeMillis),
          action: "forward",
          actor,
          merchantId: request.merchantId,
          token: request.token,
          providerId: request.providerId,
          host: url.host
        })
        const timeoutMs = request.timeoutMs ?? config.defaultTimeoutMs
        const send = Effect.tryPromise({
          try: async (signal) => {
            // `manual`: a redirect is answered to the engine as it is, never followed to a host off the allowlist.
            const response = await fetch(url, { method: request.method, headers, ...(body === undefined ? {} : { body }), redirect: "manual", signal })
            return { response, text: await response.text() }
          },
          catch: (error) =>
            failedBeforeSending(error)
              ? new ForwardUnreachable({ message: `the provider at ${url.host} could not be reached` })
              : new ForwardOutcomeUnknown({ message: `the connection to ${url.host} failed after the request may have been sent` })
        })
        const { response, text } = yield* Effect.timeoutOrElse(send, {
          duration: timeoutMs,
          orElse: () => Effect.fail(new ForwardOutcomeUnknown({ message: `the provider at ${url.host} did not answer within ${timeoutMs} ms` }))
        })
        const answered: Record<string, string> = {}
        response.headers.forEach((value, name) => {
          if (!droppedHeaders.has(name.toLowerCase())) answered[name] = maskCardNumbers(value)
        })
        return { status: response.status, headers: answered, body: maskCardNumbers(text) } satisfies ForwardResponse
      })

      return Forwarder.of({ forward })
    }))
}
