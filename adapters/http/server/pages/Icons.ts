/**
 * Rail icons: a small self-contained SVG tile per catalog entry, generated from the method's own
 * data (so every `iconUrl` resolves, for every rail, with no image files to ship), served at
 * `GET /icons/payment-methods/{id}.svg`.
 */
import { Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { apiError } from "../../../../core/ApiError.ts"
import { iconPath } from "../../../../core/catalog/Icons.ts"
import { findMethod } from "../../../../core/catalog/methods.ts"
import { findPayoutMethod } from "../../../../core/payouts/payoutMethods.ts"
import type { PaymentMethodDef } from "../../../../core/catalog/PaymentMethod.ts"
import { EngineConfig } from "../../../../core/EngineConfig.ts"
import { renderError } from "../support/ErrorRendering.ts"
import { RequestId } from "../middleware/RequestLifecycle.ts"

/** `/icons/payment-methods/{id}.svg`, the one definition the catalog and the payments use too. */
export { iconPath }

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;")

/** Small words that do not make an initial: "Farmacias del Ahorro" is FA, "Banco do Brasil" BB. */
const minorWords = new Set(["de", "del", "do", "da", "dos", "das", "la", "el", "los", "y", "e"])

/**
 * Two or three letters for the tile: the initials of the name's words ("Mercado Pago" MP,
 * "Banco do Brasil" BB) or of a camel-case word ("PicPay" PP), a short all-capitals name as it is
 * ("PIX", "BCP"), else the first two letters of a single word ("Visa" VI). A parenthesized part
 * ("(sandbox)") is left out.
 */
export const initials = (name: string): string => {
  const words = name
    .replace(/\([^)]*\)/g, " ")
    .split(/[\s/\-+]+/)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ""))
    .filter((w) => w.length > 0 && !minorWords.has(w))
  const first = words[0]
  if (first === undefined) return "?"
  if (words.length === 1) {
    if (first.length <= 3 && first === first.toUpperCase()) return first
    const humps = first.split(/(?<=\p{Ll})(?=\p{Lu})/u)
    if (humps.length === 1) return Array.from(first).slice(0, 2).join("").toUpperCase()
    words.splice(0, 1, ...humps)
  }
  return words.slice(0, 3).map((w) => Array.from(w)[0]!).join("").toUpperCase()
}

/** FNV-1a over the UTF-16 units: stable across runs and platforms. */
const hash = (text: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** A hue from the slug and name; saturation and lightness fixed so white text stays readable. */
export const tileColor = (method: Pick<PaymentMethodDef, "method" | "name">): string =>
  `hsl(${hash(`${method.method}:${method.name}`) % 360}, 55%, 36%)`

/** A 64x40 rounded tile in the rail's color with its initials in white and a `<title>`. */
export const iconSvg = (method: Pick<PaymentMethodDef, "name" | "methodLabel" | "country" | "method">): string => {
  const text = initials(method.name)
  const letters = escapeXml(text)
  const kind = method.methodLabel === method.name ? "" : ` · ${method.methodLabel}`
  const title = escapeXml(`${method.name}${kind} · ${method.country}`)
  const fontSize = Array.from(text).length >= 3 ? 14 : 16
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="40" viewBox="0 0 64 40" role="img" aria-labelledby="t">` +
    `<title id="t">${title}</title>` +
    `<rect width="64" height="40" rx="8" ry="8" fill="${tileColor(method)}"/>` +
    `<text x="32" y="20" dy="0.35em" text-anchor="middle" fill="#ffffff" ` +
    `font-family="Helvetica, Arial, sans-serif" font-size="${fontSize}" font-weight="700">${letters}</text>` +
    `</svg>`
  )
}

/** Icons change only with a release; ids never change meaning. */
const cacheControl = "public, max-age=86400"

/**
 * `GET /icons/payment-methods/:id.svg`: the icon of any catalog or payout method id (sandbox test ids too: the
 * icon is public and says nothing a listing does not), or 404 `not_found` in the error envelope.
 * Needs `EngineConfig`; takes the request id from the request lifecycle when it runs inside it.
 */
export const IconRoutes = Layer.unwrap(Effect.gen(function*() {
  const config = yield* EngineConfig
  return HttpRouter.add(
    "GET",
    "/icons/payment-methods/:id.svg",
    Effect.gen(function*() {
      const { id = "" } = yield* HttpRouter.params
      const payout = findPayoutMethod(id)
      const method = findMethod(id) ??
        (payout === undefined ? undefined : { name: payout.name, methodLabel: payout.name, country: payout.country, method: payout.rail })
      if (method === undefined) {
        const requestId = Option.getOrElse(yield* Effect.serviceOption(RequestId), () => "")
        return renderError(
          apiError("not_found", `No such payment method: '${id}'`, { resource: "payment_method", id }),
          requestId,
          config.publicUrl
        )
      }
      return HttpServerResponse.text(iconSvg(method), {
        contentType: "image/svg+xml; charset=utf-8",
        headers: { "cache-control": cacheControl }
      })
    })
  )
}))
