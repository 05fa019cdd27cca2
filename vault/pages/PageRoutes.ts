/**
 * The card page: `GET /fields?session=<jwt>` shows the form, `POST /fields` tokenizes what it
 * sends and answers 303 to the session's `returnUrl` with `?card_token=...`, or shows the form
 * again with each field's message. Every answer carries a strict policy: nothing from elsewhere,
 * no framing, forms only to the vault (and the redirect to the session's return origin).
 */
import { Effect, Layer, Option, type Redacted } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { randomBytes } from "node:crypto"
import type { CardRejected } from "../cards/CardInput.ts"
import { Cards } from "../cards/Cards.ts"
import { verifySession } from "../http/Auth.ts"
import type { VaultError } from "../http/Envelope.ts"
import { catalogs, type Language, languageOf } from "./Catalog.ts"
import { cardPage, type FieldName, messagePage } from "./CardPage.ts"

export interface PageConfig {
  readonly sessionSecret: Redacted.Redacted<string>
}

const originOf = (url: string | undefined): string | undefined => {
  if (url === undefined) return undefined
  try {
    const parsed = new URL(url)
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : undefined
  } catch {
    return undefined
  }
}

const headersFor = (nonce: string, returnOrigin: string | undefined) => ({
  "content-security-policy": [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    // Chromium checks form-action on the redirect after the post too: the session's return origin must be named.
    `form-action 'self'${returnOrigin === undefined ? "" : ` ${returnOrigin}`}`,
    "frame-ancestors 'none'",
    "base-uri 'none'"
  ].join("; "),
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "cross-origin-opener-policy": "same-origin"
})

const page = (status: number, html: string, nonce: string, returnOrigin: string | undefined) =>
  HttpServerResponse.text(html, { status, contentType: "text/html; charset=utf-8", headers: headersFor(nonce, returnOrigin) })

const fieldOf: Record<CardRejected["field"], FieldName> = { number: "number", expiry: "expiry", securityCode: "securityCode", holderName: "holderName" }

const langOf = (request: HttpServerRequest.HttpServerRequest): Language =>
  languageOf(new URL(request.url, "http://vault").searchParams.get("lang"), request.headers["accept-language"])

export const pageRoutes = (config: PageConfig) => Layer.unwrap(Effect.gen(function*() {
  const cards = yield* Cards

  const invalidSession = (lang: Language, nonce: string) => page(401, messagePage(lang, nonce, catalogs[lang], catalogs[lang].sessionInvalid), nonce, undefined)

  return Layer.mergeAll(
    HttpRouter.add("GET", "/fields", (request) =>
      Effect.gen(function*() {
        const nonce = randomBytes(16).toString("base64")
        const lang = langOf(request)
        const jwt = new URL(request.url, "http://vault").searchParams.get("session") ?? undefined
        const session = yield* Effect.option(verifySession(config.sessionSecret, jwt))
        if (session._tag === "None") return invalidSession(lang, nonce)
        return page(200, cardPage({ lang, catalog: catalogs[lang], nonce, session: jwt!, values: {}, errors: {} }), nonce, originOf(session.value.returnUrl))
      })),
    HttpRouter.add("POST", "/fields", (request) =>
      Effect.gen(function*() {
        const nonce = randomBytes(16).toString("base64")
        const lang = langOf(request)
        const catalog = catalogs[lang]
        const form = yield* Effect.orElseSucceed(request.urlParamsBody, () => UrlParams.empty)
        const get = (name: string) => Option.getOrElse(UrlParams.getFirst(form, name), () => "")
        const jwt = get("session")
        const session = yield* Effect.option(verifySession(config.sessionSecret, jwt))
        if (session._tag === "None") return invalidSession(lang, nonce)
        const returnOrigin = originOf(session.value.returnUrl)
        const values = { holderName: get("holderName"), expMonth: get("expMonth"), expYear: get("expYear") }
        const again = (errors: Partial<Record<FieldName, string>>) =>
          page(422, cardPage({ lang, catalog, nonce, session: jwt, values, errors }), nonce, returnOrigin)
        const month = /^\d{1,2}$/.test(values.expMonth.trim()) ? Number(values.expMonth) : Number.NaN
        const year = /^\d{2}(\d{2})?$/.test(values.expYear.trim()) ? Number(values.expYear) : Number.NaN
        if (Number.isNaN(month) || Number.isNaN(year)) return again({ expiry: catalog.errors.expiry_invalid })
        const code = get("securityCode")
        const result = yield* Effect.result(cards.tokenize({
          merchantId: session.value.merchantId,
          number: get("number"),
          expMonth: month,
          expYear: year,
          holderName: values.holderName,
          ...(code === "" ? {} : { securityCode: code })
        }, `merchant:${session.value.merchantId}`))
        if (result._tag === "Failure") {
          const error: VaultError = result.failure
          if (error._tag === "CardRejected") return again({ [fieldOf[error.field]]: catalog.errors[error.code] })
          return page(503, messagePage(lang, nonce, catalog, catalog.unavailable), nonce, returnOrigin)
        }
        const token = result.success.token
        if (session.value.returnUrl === undefined || returnOrigin === undefined) {
          return page(201, messagePage(lang, nonce, catalog, catalog.saved), nonce, undefined)
        }
        const target = new URL(session.value.returnUrl)
        target.searchParams.set("card_token", token)
        return HttpServerResponse.empty({ status: 303, headers: { ...headersFor(nonce, returnOrigin), location: target.toString() } })
      }))
  )
}))
