/**
 * The card page's HTML: a top-level page on the vault's origin (not an iframe), a plain form that
 * posts to the vault and works with no script. The one inline script (behind the response's
 * nonce) only groups the number's digits and names the brand as it is typed. Nothing is loaded
 * from anywhere: the style is inline too, behind the same nonce.
 */
import type { Catalog, Language } from "./Catalog.ts"

export type FieldName = "holderName" | "number" | "expiry" | "securityCode"

export interface PageState {
  readonly lang: Language
  readonly catalog: Catalog
  readonly nonce: string
  readonly session: string
  /** What the buyer typed that the page may show again (never the number or the code). */
  readonly values: { readonly holderName?: string; readonly expMonth?: string; readonly expYear?: string }
  readonly errors: Partial<Record<FieldName, string>>
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

const style = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:30rem;margin:0 auto;padding:1.5rem 1rem}h1{font-size:1.5rem;margin:0 0 .5rem}
form{background:#fff;border:1px solid #c9ccd1;border-radius:.5rem;padding:1rem}
.field{margin:0 0 1rem}label{display:block;font-weight:600;margin:0 0 .25rem}
input{width:100%;font:inherit;padding:.6rem;border:1px solid #5f6368;border-radius:.25rem}
input[aria-invalid=true]{border-color:#b00020;border-width:2px}
.row{display:flex;gap:.75rem}.row .field{flex:1}
.hint{color:#4a4f55;font-size:.875rem;margin:.25rem 0 0}.error{color:#b00020;font-size:.875rem;margin:.25rem 0 0}
.summary{border:2px solid #b00020;border-radius:.25rem;padding:.5rem .75rem;margin:0 0 1rem;color:#b00020}
button{width:100%;font:inherit;font-weight:600;padding:.75rem;border:0;border-radius:.25rem;background:#0b57d0;color:#fff;cursor:pointer}
button:focus-visible,input:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
#brand{min-height:1.5rem}`

// Brand hints only: the vault decides the brand when the form arrives.
const script = `
(function(){var n=document.getElementById("number"),b=document.getElementById("brand");if(!n||!b)return;
var brands=[[/^(4011(78|79)|43(1274|8935)|45(1416|7393|763(1|2))|50(4175|6699|67[0-6]\\d|6770|9\\d{3})|627780|636(297|368)|65(00(3[1-35-9]|4\\d|5[01])|04(0[5-9]|[1-3]\\d)|05([0-2]\\d|3[0-8]))|6516(5[2-9]|6\\d|7\\d)|6550([0-4]\\d|5[0-8]))/,"Elo"],
[/^(606282|3841[046]0|637(095|5[6-9]\\d|609|612))/,"Hipercard"],[/^4/,"Visa"],[/^(5[1-5]|2(2[2-9]|[3-6]\\d|7[01]|720))/,"Mastercard"],
[/^3[47]/,"American Express"],[/^3(0[0-5]|[689])/,"Diners Club"],[/^(6011|64[4-9]|65)/,"Discover"]];
n.addEventListener("input",function(){var d=n.value.replace(/\\D/g,"").slice(0,19),g=d.replace(/(\\d{4})(?=\\d)/g,"$1 ");
if(g!==n.value)n.value=g;var name="";for(var i=0;i<brands.length;i++){if(brands[i][0].test(d)){name=brands[i][1];break}}b.textContent=name});})();`

const field = (
  state: PageState,
  name: "holderName" | "number" | "expMonth" | "expYear" | "securityCode",
  errorKey: FieldName,
  attributes: string,
  hint?: string
) => {
  const label = state.catalog[name]
  const error = state.errors[errorKey]
  const value = name === "holderName" || name === "expMonth" || name === "expYear" ? state.values[name] ?? "" : ""
  const described = [hint === undefined ? undefined : `${name}-hint`, error === undefined ? undefined : `${name}-error`].filter((id) => id !== undefined)
  // The expiry's two inputs share one error: only the month's input carries it, both are marked invalid.
  const showError = error !== undefined && name !== "expYear"
  return `<div class="field"><label for="${name}">${escapeHtml(label)}</label>` +
    `<input id="${name}" name="${name}" ${attributes} value="${escapeHtml(value)}"` +
    `${error === undefined ? "" : " aria-invalid=\"true\""}` +
    `${described.length === 0 ? "" : ` aria-describedby="${described.filter((id) => showError || !id.endsWith("-error")).join(" ")}"`}>` +
    `${hint === undefined ? "" : `<p class="hint" id="${name}-hint">${escapeHtml(hint)}</p>`}` +
    `${showError ? `<p class="error" id="${name}-error">${escapeHtml(error)}</p>` : ""}</div>`
}

const shell = (lang: Language, nonce: string, title: string, body: string, withScript: boolean) =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style nonce="${nonce}">${style}</style></head>` +
  `<body><main>${body}</main>${withScript ? `<script nonce="${nonce}">${script}</script>` : ""}</body></html>`

export const cardPage = (state: PageState): string => {
  const c = state.catalog
  const hasErrors = Object.keys(state.errors).length > 0
  const body = `<h1>${escapeHtml(c.title)}</h1><p>${escapeHtml(c.intro)}</p>` +
    `<form method="post" action="/fields?lang=${state.lang}" autocomplete="on" novalidate>` +
    (hasErrors ? `<div class="summary" role="alert"><p>${escapeHtml(c.errorSummary)}</p></div>` : "") +
    `<input type="hidden" name="session" value="${escapeHtml(state.session)}">` +
    field(state, "holderName", "holderName", `type="text" autocomplete="cc-name" required maxlength="100"`) +
    field(state, "number", "number", `type="text" inputmode="numeric" autocomplete="cc-number" required maxlength="23"`) +
    `<p id="brand" aria-live="polite"></p>` +
    `<div class="row">` +
    field(state, "expMonth", "expiry", `type="text" inputmode="numeric" autocomplete="cc-exp-month" required maxlength="2"`) +
    field(state, "expYear", "expiry", `type="text" inputmode="numeric" autocomplete="cc-exp-year" required maxlength="4"`) +
    `</div>` +
    field(state, "securityCode", "securityCode", `type="password" inputmode="numeric" autocomplete="cc-csc" maxlength="4"`, c.securityCodeHint) +
    `<button type="submit">${escapeHtml(c.submit)}</button></form>`
  return shell(state.lang, state.nonce, c.title, body, true)
}

export const messagePage = (lang: Language, nonce: string, catalog: Catalog, message: string): string =>
  shell(lang, nonce, catalog.title, `<h1>${escapeHtml(catalog.title)}</h1><p role="status">${escapeHtml(message)}</p>`, false)
