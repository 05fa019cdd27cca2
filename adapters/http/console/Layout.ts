/**
 * The console's page shell: the environment band (sandbox and production look different on every
 * page), the side's navigation, the sign-out form, the language switch, and one stylesheet.
 * Nothing is loaded from another host and no script runs: every action is a form (CSRF token and
 * idempotency key inside), so the console works the same in every engine and with a keyboard.
 */
import { HttpServerResponse } from "effect/http"
import { escapeHtml } from "../server/pages/Html.ts"
import type { OpenSession } from "./Sessions.ts"
import { dictionary, type Language, languageNames } from "./Text.ts"

const words = dictionary((catalog) => catalog.console.shell.layout)

export type Section =
  | "payments" | "balances" | "payouts" | "settlements" | "webhooks" | "developers" | "team"
  | "merchants" | "connectors" | "routing" | "queues" | "fxRates" | "reconciliation"

const merchantSections: ReadonlyArray<readonly [Section, string]> = [
  ["payments", "/console/payments"],
  ["balances", "/console/balances"],
  ["payouts", "/console/payouts"],
  ["settlements", "/console/settlements"],
  ["webhooks", "/console/webhooks"],
  ["developers", "/console/developers"],
  ["team", "/console/team"]
]
const operatorSections: ReadonlyArray<readonly [Section, string]> = [
  ["merchants", "/console/operator/merchants"],
  ["connectors", "/console/operator/connectors"],
  ["routing", "/console/operator/routing"],
  ["queues", "/console/operator/queues"],
  ["fxRates", "/console/operator/fx-rates"],
  ["reconciliation", "/console/operator/reconciliation"]
]

export const style = `
:root{color-scheme:light;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;line-height:1.45;--accent:#1d4ed8;--line:#d4d4d8;--muted:#52525b;--bad:#b91c1c;--good:#166534}
body{margin:0;background:#fafafa;color:#18181b}
a{color:var(--accent)}
.skip{position:absolute;left:-999px}.skip:focus{left:.5rem;top:.5rem;background:#fff;padding:.5rem;z-index:2}
.top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;padding:.6rem 1rem;background:#fff;border-bottom:1px solid var(--line)}
.env{display:block;padding:.35rem 1rem;font-weight:600;font-size:.9rem}
.env.sandbox{background:#fef3c7;color:#78350f;border-bottom:3px dashed #b45309}
.env.production{background:#dcfce7;color:#14532d;border-bottom:3px solid #166534}
.env.operator{background:#e0e7ff;color:#1e1b4b;border-bottom:3px solid #3730a3}
.brand{font-weight:700;font-size:1.1rem}
.who{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
nav.sections ul{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;margin:0;padding:.4rem 1rem;background:#fff;border-bottom:1px solid var(--line)}
nav.sections a{display:inline-block;padding:.45rem .7rem;border-radius:.4rem;text-decoration:none;min-height:24px}
nav.sections a[aria-current=page]{background:#e0e7ff;color:#1e1b4b;font-weight:600}
main{max-width:76rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem;margin:.3rem 0 1rem}h2{font-size:1.1rem;margin:1.5rem 0 .6rem}
.muted{color:var(--muted)}
.notice{padding:.6rem .8rem;border-radius:.4rem;background:#dcfce7;color:#14532d;border:1px solid #86efac}
.problem{padding:.6rem .8rem;border-radius:.4rem;background:#fee2e2;color:#7f1d1d;border:1px solid #fca5a5}
.secret{font-family:ui-monospace,monospace;word-break:break-all;background:#fff;border:1px dashed #b45309;padding:.6rem;border-radius:.4rem}
.table-wrap{overflow-x:auto;background:#fff;border:1px solid var(--line);border-radius:.5rem}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #e4e4e7;white-space:nowrap;vertical-align:top}
td.wrap{white-space:normal;overflow-wrap:anywhere;min-width:12rem}
th{background:#f4f4f5;font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.status{display:inline-block;padding:.05rem .45rem;border-radius:999px;font-size:.82rem;font-weight:600;background:#e4e4e7;color:#27272a}
.status.good{background:#dcfce7;color:#14532d}.status.bad{background:#fee2e2;color:#7f1d1d}.status.wait{background:#fef3c7;color:#78350f}
form.filters{display:grid;gap:.6rem;grid-template-columns:repeat(auto-fill,minmax(min(100%,11rem),1fr));align-items:end;margin-bottom:1rem}
form.stack{display:grid;gap:.6rem;max-width:32rem}
label{display:block;font-weight:500;font-size:.9rem;margin-bottom:.15rem}
input,select,textarea{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;border-radius:.4rem;border:1px solid #71717a;background:#fff;color:inherit;min-height:44px}
textarea{min-height:8rem;font-family:ui-monospace,monospace;font-size:.85rem}
input[aria-invalid=true],select[aria-invalid=true],textarea[aria-invalid=true]{border-color:var(--bad);border-width:2px}
.field-error{color:var(--bad);font-size:.85rem;margin:.2rem 0 0}
button,.button{display:inline-flex;align-items:center;justify-content:center;box-sizing:border-box;font:inherit;padding:.55rem 1rem;border-radius:.45rem;border:1px solid #1e3a8a;background:var(--accent);color:#fff;cursor:pointer;min-height:44px;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:#1e3a8a}
button.danger{background:var(--bad);border-color:#7f1d1d}
.inline{display:inline}
.pager{display:flex;gap:.6rem;align-items:center;margin:.8rem 0}
.grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(min(100%,16rem),1fr))}
.card{background:#fff;border:1px solid var(--line);border-radius:.5rem;padding:.8rem}
.card dt{color:var(--muted);font-size:.85rem}.card dd{margin:0 0 .5rem;font-weight:600;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
h1,.card p,code{overflow-wrap:anywhere}
ol.timeline{list-style:none;padding:0;margin:0;border-left:3px solid var(--line)}
ol.timeline li{position:relative;margin:0 0 .8rem .9rem}
ol.timeline li::before{content:"";position:absolute;left:-1.32rem;top:.45rem;width:.6rem;height:.6rem;border-radius:50%;background:var(--accent)}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#fff;border:1px solid var(--line);padding:.6rem;border-radius:.4rem;font-size:.82rem;max-height:20rem;overflow:auto}
footer{max-width:76rem;margin:2rem auto;padding:0 1rem 2rem;color:var(--muted);font-size:.88rem}
footer form{display:flex;gap:.5rem;align-items:end;flex-wrap:wrap}footer select{width:auto}
figure{margin:0}
svg.chart{width:100%;height:auto;background:#fff;border:1px solid var(--line);border-radius:.5rem}
@media (max-width:40rem){main{padding:.6rem}th,td{padding:.4rem}}
`

export interface Shell {
  readonly title: string
  readonly language: Language
  readonly session: OpenSession | undefined
  readonly section?: Section | undefined
  readonly body: string
  readonly status?: number | undefined
}

const csrfField = (session: OpenSession) => `<input type="hidden" name="csrf" value="${escapeHtml(session.csrfToken)}">`

/** The hidden fields every console form carries: the CSRF token and a fresh idempotency key. */
export const formFields = (session: OpenSession, idempotencyKey?: string) =>
  csrfField(session) + (idempotencyKey === undefined ? "" : `<input type="hidden" name="idempotencyKey" value="${escapeHtml(idempotencyKey)}">`)

const band = (session: OpenSession | undefined, t: ReturnType<typeof words>) => {
  if (session === undefined) return ""
  if (session.credential.kind === "operator") return `<div class="env operator" data-testid="environment">${escapeHtml(t.operator)}</div>`
  return session.environment === "production"
    ? `<div class="env production" data-testid="environment">${escapeHtml(t.productionNote)}</div>`
    : `<div class="env sandbox" data-testid="environment">${escapeHtml(t.sandboxNote)}</div>`
}

const header = (session: OpenSession | undefined, t: ReturnType<typeof words>) => {
  if (session === undefined) return `<div class="top"><span class="brand">${escapeHtml(t.console)}</span></div>`
  const who = session.credential.kind === "merchant" ? session.credential.merchantName : t.operator
  const other = session.environment === "production" ? "sandbox" : "production"
  const switcher = session.credential.kind === "merchant"
    ? `<a href="/console/sign-in?environment=${other}">${escapeHtml(t.switchTo)} ${escapeHtml(other === "sandbox" ? t.sandbox : t.production)}</a>`
    : ""
  return `<div class="top"><span class="brand">${escapeHtml(t.console)}</span>
<div class="who"><span>${escapeHtml(who)}</span>${switcher}
<form method="post" action="/console/sign-out" class="inline">${csrfField(session)}<button type="submit" class="secondary">${escapeHtml(t.signOut)}</button></form></div></div>`
}

const nav = (session: OpenSession | undefined, section: Section | undefined, t: ReturnType<typeof words>) => {
  if (session === undefined) return ""
  const sections = session.credential.kind === "operator" ? operatorSections : merchantSections
  return `<nav class="sections" aria-label="${escapeHtml(t.navigation)}"><ul>${
    sections.map(([key, href]) => `<li><a href="${href}"${key === section ? ' aria-current="page"' : ""}>${escapeHtml(t[key])}</a></li>`).join("")
  }</ul></nav>`
}

const footer = (language: Language, t: ReturnType<typeof words>) =>
  `<footer><form method="post" action="/console/language"><div><label for="console-language">${escapeHtml(t.language)}</label>
<select id="console-language" name="language">${
    (Object.keys(languageNames) as Array<Language>).map((l) => `<option value="${l}"${l === language ? " selected" : ""} lang="${l}">${languageNames[l]}</option>`).join("")
  }</select></div><button type="submit" class="secondary">${escapeHtml(t.apply)}</button></form></footer>`

/** Headers of every console answer: never cached, never framed, nothing from elsewhere. */
export const securityHeaders = {
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff"
}

export const render = (shell: Shell) => {
  const t = words(shell.language)
  const title = shell.session?.credential.kind === "merchant" && shell.session.environment === "sandbox" ? `[${t.sandbox}] ${shell.title}` : shell.title
  return HttpServerResponse.text(
    `<!doctype html>
<html lang="${shell.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(t.console)}</title><style>${style}</style></head>
<body><a class="skip" href="#content">${escapeHtml(t.skip)}</a><header>${band(shell.session, t)}${header(shell.session, t)}${nav(shell.session, shell.section, t)}</header>
<main id="content">${shell.body}</main>${footer(shell.language, t)}</body></html>`,
    { status: shell.status ?? 200, contentType: "text/html; charset=utf-8", headers: securityHeaders }
  )
}
