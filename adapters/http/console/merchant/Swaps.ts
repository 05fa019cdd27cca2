/**
 * Swapping a local currency of the pay-in balance to USD: a quote first
 * (`GET /me/balance/swap`, indicative), then the swap (`POST /me/balance/swap`) with the form's
 * idempotency key, so a double click swaps once. The rate is read again when the swap executes.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { type ApiReply, fieldErrors } from "../ApiClient.ts"
import { formFields } from "../Layout.ts"
import { type Console, type ConsoleRoute, redirect } from "../Page.ts"
import { dictionary } from "../Text.ts"
import { facts, field, money, problem } from "../View.ts"

const words = dictionary((catalog) => catalog.console.merchant.swaps)

/**
 * What a form's amount text becomes in a JSON body: a number when it is a plain decimal, else the
 * text itself, which the API refuses with its own message on the field.
 */
export const amountOf = (text: string | null): number | string => {
  const trimmed = (text ?? "").trim()
  return /^\d{1,15}(\.\d{1,8})?$/.test(trimmed) ? Number(trimmed) : trimmed
}

const swapPage = (c: Console, state: { readonly from: string; readonly amount: string; readonly reply?: ApiReply; readonly quote?: any }) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const balance = yield* c.api({ method: "GET", path: "/api/v1/me/balance" })
    const currencies: ReadonlyArray<string> = (balance.body?.balances ?? []).map((b: { currency: string }) => b.currency)
    const errors = state.reply === undefined ? new Map<string, string>() : fieldErrors(state.reply)
    const amountError = errors.get("amount") ?? (state.reply?.body?.error?.code === "balance_insufficient" ? String(state.reply.body.error.message) : undefined)
    const fromError = errors.get("fromCurrency") ?? errors.get("from")
    const back = `<p><a href="/console/balances">${escapeHtml(t.back)}</a></p>`
    if (currencies.length === 0) {
      return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(t.nothing)}</p>${back}`, { section: "balances", status: state.reply?.status ?? 200 })
    }
    const from = currencies.includes(state.from) ? state.from : currencies[0]!
    const quoteForm = `<form method="get" action="/console/balances/swap" class="stack">
${field("from", t.from, { value: from, options: currencies.map((x) => [x, x] as const), error: fromError, required: true })}
${field("amount", t.amount, { value: state.amount, hint: t.amountHint, error: amountError, required: true, attributes: 'inputmode="decimal" autocomplete="off"' })}
<div><button type="submit" class="secondary">${escapeHtml(t.quote)}</button></div></form>`
    const q = state.quote
    const confirm = q === undefined ? "" : `<section aria-labelledby="quote-heading"><h2 id="quote-heading">${escapeHtml(t.quoteHeading)}</h2>
${facts([
      [t.amount, money(q.amount, q.fromCurrency, c.language)],
      [t.rate, escapeHtml(String(q.rate))],
      [t.receive, money(q.amountUsd, "USD", c.language)],
      [t.availableNow, money(q.available, q.fromCurrency, c.language)]
    ])}
<p class="muted">${escapeHtml(t.indicative)}</p>
<form method="post" action="/console/balances/swap">${formFields(c.session, yield* c.newKey)}
<input type="hidden" name="fromCurrency" value="${escapeHtml(q.fromCurrency)}"><input type="hidden" name="amount" value="${escapeHtml(String(q.amount))}">
<button type="submit">${escapeHtml(t.swap)} (${money(q.amount, q.fromCurrency, c.language)})</button></form></section>`
    const body = `<h1>${escapeHtml(t.title)}</h1>${state.reply === undefined ? "" : problem(state.reply)}${quoteForm}${confirm}${back}`
    return c.page(t.title, body, { section: "balances", status: state.reply?.status ?? 200 })
  })

export const swapRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/balances/swap",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const from = c.query.get("from") ?? ""
        const amount = c.query.get("amount") ?? ""
        if (from === "" || amount === "") return yield* swapPage(c, { from, amount })
        const reply = yield* c.api({ method: "GET", path: `/api/v1/me/balance/swap?${new URLSearchParams({ from, amount })}` })
        return reply.status === 200 ? yield* swapPage(c, { from, amount, quote: reply.body.quote }) : yield* swapPage(c, { from, amount, reply })
      })
  },
  {
    method: "POST",
    path: "/console/balances/swap",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const fromCurrency = c.form.get("fromCurrency") ?? ""
        const amount = c.form.get("amount") ?? ""
        const reply = yield* c.api({
          method: "POST",
          path: "/api/v1/me/balance/swap",
          body: { fromCurrency, amount: amountOf(amount) },
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined
        })
        if (reply.status === 200 || reply.status === 201) return redirect("/console/balances?done=swapped")
        return yield* swapPage(c, { from: fromCurrency, amount, reply })
      })
  }
]
