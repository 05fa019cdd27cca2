/** Small helpers for the server-rendered pages (sandbox form, hosted checkout). */
import type { BigDecimal } from "effect"
import { HttpServerResponse } from "effect/http"
import { merchantUrlProblem } from "../../../../core/MerchantUrl.ts"
import * as Money from "../../../../core/Money.ts"

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

/** Escapes text for HTML element content and attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => entities[c]!)

/**
 * A paragraph with a link back to the merchant's `returnUrl`, or nothing when there is none or it
 * is not a merchant URL (the API refuses such a one; a record stored before it did is not linked).
 */
export const merchantLink = (url: string | null, text: string) =>
  url === null || merchantUrlProblem(url) !== undefined ? "" : `<p><a href="${escapeHtml(url)}">${escapeHtml(text)}</a></p>`

/** A complete, mobile-friendly page. `body` must already be escaped HTML. */
export const page = (title: string, body: string, options: { readonly status?: number; readonly head?: string; readonly lang?: string } = {}) =>
  HttpServerResponse.text(
    `<!doctype html>
<html lang="${options.lang ?? "en"}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
:root{color-scheme:light dark;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;line-height:1.45}
body{margin:0;background:Canvas;color:CanvasText}
main{max-width:34rem;margin:0 auto;padding:1.25rem}
h1{font-size:1.35rem;margin:.2rem 0 1rem}
.amount{font-size:2rem;font-weight:700;margin:.25rem 0}
.muted{opacity:.75}
button,.button{display:inline-block;font:inherit;padding:.75rem 1.1rem;border-radius:.6rem;border:1px solid #888;background:#1d4ed8;color:#fff;cursor:pointer;min-height:44px}
button.secondary{background:transparent;color:inherit}
fieldset{border:1px solid #8886;border-radius:.6rem;margin:1rem 0;padding:.75rem}
legend{font-weight:600;padding:0 .3rem}
label{display:block;margin:.5rem 0 .2rem;font-weight:500}
input,select{font:inherit;width:100%;box-sizing:border-box;padding:.6rem;border-radius:.5rem;border:1px solid #888}
input[aria-invalid=true]{border-color:#dc2626}
.error{color:#dc2626;font-size:.9rem;min-height:1.2em;margin:.2rem 0}
.methods{display:grid;gap:.5rem;grid-template-columns:repeat(auto-fill,minmax(min(100%,13rem),1fr));padding:0;margin:0;list-style:none}
.methods label{display:flex;gap:.5rem;align-items:center;border:1px solid #8886;border-radius:.6rem;padding:.5rem;margin:0;font-weight:400;cursor:pointer;min-width:0}
.methods input{width:auto;flex:none}
.methods img{width:48px;height:30px;flex:none}
.methods span{min-width:0;overflow-wrap:break-word;hyphens:auto}
</style>${options.head ?? ""}</head>
<body><main>${body}</main></body></html>`,
    { status: options.status ?? 200, contentType: "text/html; charset=utf-8" }
  )

/** `1,234.50 BRL`: grouped, with exactly the currency's minor digits. */
export const formatAmount = (amount: BigDecimal.BigDecimal, currency: string) => {
  const digits = Money.exponent(currency)
  const value = Number(Money.toText(amount)).toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })
  return `${value} ${currency}`
}

/** The first value of query parameter `name` of a request URL (path and query), if any. */
export const queryParam = (url: string, name: string): string | undefined => new URL(url, "http://request").searchParams.get(name) ?? undefined
