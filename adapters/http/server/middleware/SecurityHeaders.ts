/**
 * The browser-facing headers of every answer, set in one place (a global middleware) rather than
 * page by page: whatever route, error page or 404 answered, the final response carries
 *
 * - `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`
 *   (a hosted checkout's URL holds its token: no page sends it on to the shop or the provider);
 * - a `Content-Security-Policy`: an HTML page's allows the host's own styles and images, scripts
 *   only with the request's nonce (`cspNonce`), fetches to the host itself, and never framing;
 *   every other answer's allows nothing (`default-src 'none'`).
 *
 * An answer that set its own (the console's stricter policy, its `same-origin` referrer) keeps it.
 * A form may be sent to the host only, but its answer may redirect anywhere http(s) (the sandbox
 * provider's form returns the buyer to the merchant's `returnUrl`; browsers check form-action
 * on redirects too).
 */
import { Context, Effect, Option } from "effect"
import { HttpEffect, HttpRouter, HttpServerResponse } from "effect/http"
import { randomBytes } from "node:crypto"

/** The nonce of this request's inline scripts: drawn the first time it is read (HTML pages only). */
export class CspNonce extends Context.Service<CspNonce, { readonly value: string }>()("adapters/http/CspNonce") {}

/** The request's script nonce, for `<script nonce="...">`; empty outside the middleware. */
export const cspNonce: Effect.Effect<string> = Effect.map(Effect.serviceOption(CspNonce), Option.match({ onNone: () => "", onSome: (n) => n.value }))

/** The policy of an HTML page whose scripts carry `nonce`. */
export const pagePolicy = (nonce: string) =>
  [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self' https: http:",
    "frame-ancestors 'none'",
    "base-uri 'none'"
  ].join("; ")

/** The policy of everything that is not a page (JSON, SVG, CSV, PDF, scripts): nothing runs, nothing frames it. */
export const resourcePolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"

const isHtml = (response: HttpServerResponse.HttpServerResponse) => {
  const body = response.body as { readonly contentType?: string | undefined }
  const type = response.headers["content-type"] ?? body.contentType
  return type !== undefined && type.toLowerCase().startsWith("text/html")
}

const withDefault = (response: HttpServerResponse.HttpServerResponse, name: string, value: () => string) =>
  response.headers[name] === undefined ? HttpServerResponse.setHeader(response, name, value()) : response

export const SecurityHeaders = HttpRouter.middleware(
  (httpEffect) =>
    Effect.suspend(() => {
      let nonce: string | undefined
      const draw = () => (nonce ??= randomBytes(16).toString("base64"))
      const service = CspNonce.of({
        get value() {
          return draw()
        }
      })
      return HttpEffect.appendPreResponseHandler((_request, response) => {
        const policy = isHtml(response) ? pagePolicy(draw()) : resourcePolicy
        let answer = withDefault(response, "content-security-policy", () => policy)
        answer = withDefault(answer, "x-content-type-options", () => "nosniff")
        answer = withDefault(answer, "x-frame-options", () => "DENY")
        answer = withDefault(answer, "referrer-policy", () => "no-referrer")
        return Effect.succeed(answer)
      }).pipe(Effect.andThen(Effect.provideService(httpEffect, CspNonce, service)))
    }),
  { global: true }
)
