/**
 * A `CardVault` for conformance tests and provider teams: a map of test tokens to test cards,
 * held in memory. It answers `describe` from the map and does what the real vault does on
 * `forward`: fills the placeholders (`CardPlaceholders`) in the body and header values, sends the
 * request with the test's `HttpClient`, and answers the provider's response with every card
 * number masked (first 6, last 4). Like the real vault, it holds a card's security code for the
 * purpose (payment) of the first forward that uses it (`securityCodeUse`; `ForwardRefused`
 * `security_code_gone` for any other), refuses a host
 * off its allowlist (default: loopback only), and tells a timeout (`ForwardOutcomeUnknown`) from
 * a provider that could not be reached (`ForwardUnreachable`). A forward's `bodyHmac` is signed
 * over the filled body as the real vault signs it (with the test's `Mac`, when it has one).
 *
 * Test tooling: it holds card numbers in the test's own process, which is what a test card is
 * for. `forwards` records every request as the connector sent it (placeholders, no number), so
 * that a test can assert what left the plugin.
 */
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import { Mac } from "effect/crypto"
import { HttpClient, HttpClientRequest } from "effect/http"
import {
  BodyHmacPlaceholder,
  type CardBrand,
  type CardDescription,
  CardPlaceholders,
  CardTokenNotFound,
  CardVault,
  ForwardOutcomeUnknown,
  ForwardRefused,
  type ForwardRequest,
  type ForwardResponse,
  ForwardUnreachable,
  hmacSha256Hex,
  securityCodeUse
} from "../../core/ports/index.ts"

export interface TestCard {
  readonly number: string
  readonly expMonth: number
  readonly expYear: number
  readonly holderName: string
  readonly securityCode?: string | undefined
  readonly brand: CardBrand
  /** Default `test-merchant`. */
  readonly merchantId?: string | undefined
}

export interface TestCardVaultOptions {
  /** Hosts (`hostname`) forwards may go to; default loopback (`127.0.0.1`, `localhost`, `::1`). */
  readonly allowedHosts?: ReadonlyArray<string> | undefined
  /** Used when a forward names none; default 10 s. */
  readonly defaultTimeoutMs?: number | undefined
}

export interface TestCardVault {
  readonly vault: CardVault["Service"]
  /** Every forward asked for, as the connector wrote it (placeholders, never a number). */
  readonly forwards: ReadonlyArray<ForwardRequest>
}

const luhn = (digits: string) => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0
}

/** Every run of 13 to 19 digits that passes Luhn, and every number given, as `411111******1111`. */
export const maskCardNumbers = (text: string, known: ReadonlyArray<string> = []): string => {
  const mask = (n: string) => `${n.slice(0, 6)}${"*".repeat(Math.max(0, n.length - 10))}${n.slice(-4)}`
  const masked = known.reduce((t, n) => (n === "" ? t : t.split(n).join(mask(n))), text)
  return masked.replace(/(?<![0-9A-Za-z])\d{13,19}(?![0-9A-Za-z])/g, (run) => (luhn(run) ? mask(run) : run))
}

const loopback = ["127.0.0.1", "localhost", "::1", "[::1]"]
const neverConnected = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"])
const codeOf = (cause: unknown): string | undefined => {
  for (let at = cause, depth = 0; typeof at === "object" && at !== null && depth < 4; depth++) {
    const code = (at as { readonly code?: unknown }).code
    if (typeof code === "string") return code
    at = (at as { readonly cause?: unknown }).cause
  }
  return undefined
}

export const make = (
  cards: Readonly<Record<string, TestCard>>,
  options: TestCardVaultOptions = {}
): Effect.Effect<TestCardVault, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const http = yield* HttpClient.HttpClient
    const mac = yield* Effect.serviceOption(Mac.Mac)
    const allowed = new Set(options.allowedHosts ?? loopback)
    const codes = new Map(Object.entries(cards).flatMap(([token, card]) => card.securityCode === undefined ? [] : [[token, card.securityCode] as const]))
    const boundTo = new Map<string, string>()
    const forwards: Array<ForwardRequest> = []
    const merchantOf = (card: TestCard) => card.merchantId ?? "test-merchant"

    const describe = (merchantId: string, token: string) =>
      Effect.suspend(() => {
        const card = Object.hasOwn(cards, token) ? cards[token] : undefined
        if (card === undefined || (merchantId !== "" && merchantId !== merchantOf(card))) return Effect.fail(new CardTokenNotFound({ token }))
        return Effect.succeed({
          token,
          merchantId: merchantOf(card),
          brand: card.brand,
          bin: card.number.slice(0, card.number.length === 16 ? 8 : 6),
          last4: card.number.slice(-4),
          expMonth: card.expMonth,
          expYear: card.expYear,
          holderName: card.holderName,
          fingerprint: `fp_${luhn(card.number) ? "" : "x"}${card.number.slice(-4)}${card.number.length}`,
          securityCodeHeld: codes.has(token) && !boundTo.has(token)
        } satisfies CardDescription)
      })

    const forward = (request: ForwardRequest) =>
      Effect.gen(function*() {
        forwards.push(request)
        const card = Object.hasOwn(cards, request.token) ? cards[request.token] : undefined
        if (card === undefined || (request.merchantId !== "" && request.merchantId !== merchantOf(card))) {
          return yield* new ForwardRefused({ reason: "token_not_found", message: "unknown card token" })
        }
        const host = URL.canParse(request.url) ? new URL(request.url).hostname : ""
        if (!allowed.has(host)) return yield* new ForwardRefused({ reason: "host_not_allowed", message: `host ${host} is not allowed` })
        const texts = [request.body ?? "", ...Object.values(request.headers)]
        const wantsCode = texts.some((t) => t.includes(CardPlaceholders.securityCode))
        const code = codes.get(request.token)
        const use = wantsCode && code !== undefined ? securityCodeUse(boundTo.get(request.token), request.purpose) : undefined
        if (wantsCode && (code === undefined || use === "gone")) {
          return yield* new ForwardRefused({ reason: "security_code_gone", message: "the security code is no longer held" })
        }
        if (use === "take") codes.delete(request.token)
        if (use === "bind" && request.purpose !== undefined) boundTo.set(request.token, request.purpose)
        const fill = (text: string) =>
          text
            .split(CardPlaceholders.number).join(card.number)
            .split(CardPlaceholders.securityCode).join(code ?? "")
            .split(CardPlaceholders.expMonth).join(String(card.expMonth).padStart(2, "0"))
            .split(CardPlaceholders.expYear).join(String(card.expYear))
            .split(CardPlaceholders.expYear2).join(String(card.expYear).slice(-2))
            .split(CardPlaceholders.holderName).join(card.holderName)
        const filled = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, fill(v)]))
        const spec = request.bodyHmac
        if (spec !== undefined && Option.isNone(mac)) return yield* new ForwardUnreachable({ message: "this test vault has no Mac to sign the body with" })
        const headers = spec === undefined || Option.isNone(mac) ? filled : {
          ...Object.fromEntries(Object.entries(filled).filter(([k]) => k.toLowerCase() !== spec.header.toLowerCase())),
          [spec.header]: spec.template.split(BodyHmacPlaceholder).join(
            yield* hmacSha256Hex(Redacted.value(spec.key), `${spec.prefix}${fill(request.body ?? "")}`).pipe(Effect.provideService(Mac.Mac, mac.value))
          )
        }
        const contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? "application/json"
        let outgoing = HttpClientRequest.make(request.method)(request.url).pipe(HttpClientRequest.setHeaders(headers))
        if (request.body !== undefined) outgoing = HttpClientRequest.bodyText(outgoing, fill(request.body), contentType)
        const timeout = Duration.millis(request.timeoutMs ?? options.defaultTimeoutMs ?? 10_000)
        const lost = (cause: unknown) =>
          neverConnected.has(codeOf(cause) ?? "")
            ? new ForwardUnreachable({ message: "the provider could not be reached" })
            : new ForwardOutcomeUnknown({ message: "the connection to the provider was lost" })
        return yield* Effect.gen(function*() {
          const response = yield* http.execute(outgoing).pipe(Effect.mapError((e) => lost(e.reason)))
          const body = yield* response.text.pipe(Effect.mapError((e) => lost(e.reason)))
          return {
            status: response.status,
            headers: Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k, maskCardNumbers(String(v), [card.number])])),
            body: maskCardNumbers(body, [card.number])
          } satisfies ForwardResponse
        }).pipe(
          Effect.timeoutOrElse({
            duration: timeout,
            orElse: () => Effect.fail(new ForwardOutcomeUnknown({ message: `no answer from the provider in ${Duration.format(timeout)}` }))
          })
        )
      })

    return { vault: { describe, forward }, forwards }
  })

/** The vault as a layer (for a host or a harness); `make` when the test reads `forwards`. */
export const layer = (cards: Readonly<Record<string, TestCard>>, options?: TestCardVaultOptions): Layer.Layer<CardVault, never, HttpClient.HttpClient> =>
  Layer.effect(CardVault, Effect.map(make(cards, options), (test) => test.vault))

export const TestCardVault = { make, layer, maskCardNumbers }
