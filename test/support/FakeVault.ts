/**
 * A card vault on loopback for tests, speaking the wire of `core/ports/CardVault.ts`: it knows
 * the cards it is given (token -> description, number, security code), answers
 * `GET /v1/cards/{token}?merchantId=` with a card's description, and `POST /v1/forward` by
 * filling the placeholders from the card and sending the request on with `fetch` (to any host
 * unless `allowedHosts` is given), answering the provider's response with card numbers masked.
 * It keeps every request it was sent (path and authorization) for a test to inspect, and can be
 * told to answer late (`delayMs`) or with a fixed status (`failWith`).
 */
import { Effect } from "effect"
import { createHmac } from "node:crypto"
import { createServer, type IncomingMessage } from "node:http"
import { BodyHmacPlaceholder, CardPlaceholders, type CardDescription, securityCodeUse } from "../../core/ports/CardVault.ts"

export interface FakeCard {
  readonly description: CardDescription
  readonly number: string
  readonly securityCode?: string | undefined
}

export interface FakeVaultOptions {
  readonly engineKey?: string
  readonly cards?: ReadonlyArray<FakeCard>
  readonly allowedHosts?: ReadonlyArray<string>
}

export interface FakeVaultCall {
  readonly method: string
  readonly path: string
  readonly authorization: string | undefined
  readonly body: string
}

/** A test card of `brand`, with `token`, for `merchantId`, expiring `expYear`/`expMonth`. */
export const testCard = (
  merchantId: string,
  token: string,
  overrides: Partial<CardDescription> & { number?: string; securityCode?: string } = {}
): FakeCard => {
  const { number = "4111111111111111", securityCode = "123", ...description } = overrides
  return {
    number,
    securityCode,
    description: {
      token,
      merchantId,
      brand: "visa",
      bin: number.slice(0, 6),
      last4: number.slice(-4),
      expMonth: 12,
      expYear: 2099,
      holderName: "Ana Souza",
      fingerprint: `fp_${number.slice(-4)}_${merchantId}`,
      securityCodeHeld: true,
      ...description
    }
  }
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ""
    req.on("data", (chunk) => (text += chunk))
    req.on("end", () => resolve(text))
  })

const mask = (text: string) => text.replace(/\b(\d{6})\d{3,9}(\d{4})\b/g, "$1******$2")

const fill = (text: string, card: FakeCard) =>
  text
    .replaceAll(CardPlaceholders.number, card.number)
    .replaceAll(CardPlaceholders.securityCode, card.securityCode ?? "")
    .replaceAll(CardPlaceholders.expMonth, String(card.description.expMonth).padStart(2, "0"))
    .replaceAll(CardPlaceholders.expYear, String(card.description.expYear))
    .replaceAll(CardPlaceholders.expYear2, String(card.description.expYear).slice(-2))
    .replaceAll(CardPlaceholders.holderName, card.description.holderName)

export const fakeVault = (options: FakeVaultOptions = {}) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const engineKey = options.engineKey ?? "test-vault-engine-key"
      const cards = new Map((options.cards ?? []).map((c) => [c.description.token, c]))
      const calls: Array<FakeVaultCall> = []
      const boundTo = new Map<string, string>()
      const state = { delayMs: 0, failWith: undefined as number | undefined }
      // A refusal is the vault's envelope `{ error: { code, message } }`.
      const json = (res: import("node:http").ServerResponse, status: number, body: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(
          typeof (body as { error?: unknown }).error === "string" ? { error: { code: (body as { error: string }).error, message: (body as { error: string }).error } } : body
        ))
      const server = createServer(async (req, res) => {
        const body = await readBody(req)
        const url = new URL(req.url ?? "/", "http://vault.local")
        calls.push({ method: req.method ?? "", path: url.pathname + url.search, authorization: req.headers.authorization, body })
        if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs))
        if (state.failWith !== undefined) return json(res, state.failWith, { error: "fake_failure" })
        if (req.headers.authorization !== `Bearer ${engineKey}`) return json(res, 401, { error: "unauthorized" })
        const described = /^\/v1\/cards\/([^/]+)$/.exec(url.pathname)
        if (req.method === "GET" && described !== null) {
          const card = cards.get(decodeURIComponent(described[1]!))
          if (card === undefined || card.description.merchantId !== url.searchParams.get("merchantId")) return json(res, 404, { error: "card_not_found" })
          return json(res, 200, card.description)
        }
        if (req.method === "POST" && url.pathname === "/v1/forward") {
          const request = JSON.parse(body)
          const card = cards.get(request.token)
          if (card === undefined || card.description.merchantId !== request.merchantId) return json(res, 404, { error: "card_not_found" })
          const target = new URL(request.url)
          if (options.allowedHosts !== undefined && !options.allowedHosts.includes(target.host)) return json(res, 403, { error: "host_not_allowed" })
          const usesCode = JSON.stringify(request).includes(CardPlaceholders.securityCode)
          const use = usesCode && card.securityCode !== undefined ? securityCodeUse(boundTo.get(request.token), request.purpose) : undefined
          if (usesCode && (card.securityCode === undefined || use === "gone")) return json(res, 410, { error: "security_code_gone" })
          if (use === "bind") boundTo.set(request.token, request.purpose)
          const filled = Object.fromEntries(Object.entries(request.headers as Record<string, string>).map(([k, v]) => [k, fill(v, card)]))
          const sent = request.body === undefined ? undefined : fill(request.body, card)
          // `bodyHmac`: signed over the filled body, as the real vault does (vault/forward/BodyHmac.ts).
          const hmac = request.bodyHmac as { header: string; key: string; prefix: string; template: string } | undefined
          const headers = hmac === undefined ? filled : {
            ...Object.fromEntries(Object.entries(filled).filter(([k]) => k.toLowerCase() !== hmac.header.toLowerCase())),
            [hmac.header]: hmac.template.split(BodyHmacPlaceholder).join(createHmac("sha256", hmac.key).update(`${hmac.prefix}${sent ?? ""}`, "utf8").digest("hex"))
          }
          try {
            const upstream = await fetch(request.url, {
              method: request.method,
              headers,
              ...(sent === undefined ? {} : { body: sent }),
              signal: AbortSignal.timeout(request.timeoutMs ?? 30_000)
            })
            if (use === "take") cards.set(card.description.token, { ...card, securityCode: undefined, description: { ...card.description, securityCodeHeld: false } })
            const text = await upstream.text()
            return json(res, 200, { status: upstream.status, headers: Object.fromEntries(upstream.headers), body: mask(text) })
          } catch (error) {
            return (error as Error).name === "TimeoutError" ? json(res, 504, { error: "upstream_timeout" }) : json(res, 502, { error: "upstream_unreachable" })
          }
        }
        return json(res, 404, { error: "not_found" })
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      return {
        server,
        url: `http://127.0.0.1:${port}`,
        engineKey,
        calls,
        /** Adds (or replaces) a card the vault holds. */
        add: (card: FakeCard) => void cards.set(card.description.token, card),
        /** From now on, every answer comes `ms` late. */
        answerLate: (ms: number) => void (state.delayMs = ms),
        /** From now on, every request is answered `status` (undefined: as the wire says). */
        failWith: (status: number | undefined) => void (state.failWith = status)
      }
    }),
    ({ server }) =>
      Effect.promise(() =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        })
      )
  )
