/**
 * Funding the payout balance, as production has to (no test money there): move USD from the pay-in
 * balance (`POST /me/payout/transfer`), then swap payout USD to a payout currency
 * (`POST /me/payout/swap`, after its indicative quote `GET /me/payout/swap`). Each form carries
 * its own idempotency key, so a double click moves money once.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { type ApiReply, fieldErrors } from "../ApiClient.ts"
import { formFields } from "../Layout.ts"
import { type Console, type ConsoleRoute, redirect } from "../Page.ts"
import { dictionary } from "../Text.ts"
import { facts, field, link, money, notice, problem } from "../View.ts"
import { amountOf } from "./Swaps.ts"

const words = dictionary((catalog) => catalog.console.merchant.payoutFunding)

interface State {
  readonly transfer?: { readonly amount: string; readonly reply: ApiReply }
  readonly swap?: { readonly to: string; readonly amount: string; readonly reply?: ApiReply; readonly quote?: any }
}

/** An amount refused for its size (not its form) is told on the amount field too. */
const amountProblem = (reply: ApiReply | undefined) => {
  if (reply === undefined) return undefined
  const code = reply.body?.error?.code
  return fieldErrors(reply).get("amount") ?? fieldErrors(reply).get("amountUsd") ??
    (code === "balance_insufficient" || code === "amount_invalid" ? String(reply.body?.error?.message ?? code) : undefined)
}

const fundingPage = (c: Console, state: State) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const l = c.language
    const balance = yield* c.api({ method: "GET", path: "/api/v1/me/payout/balance" })
    const currencies = yield* c.api({ method: "GET", path: "/api/v1/me/payout/currencies" })
    const payoutUsd = (balance.body?.balances ?? []).find((b: { currency: string }) => b.currency === "USD")
    const locals: ReadonlyArray<string> = (currencies.body?.currencies ?? []).map((x: { currency: string }) => x.currency).filter((x: string) => x !== "USD")
    const done = c.query.get("done")
    const transferForm = `<section aria-labelledby="transfer-heading" class="card"><h2 id="transfer-heading" style="margin-top:0">${escapeHtml(t.transfer)}</h2>
${state.transfer === undefined ? "" : problem(state.transfer.reply)}
${facts([[t.transferable, money(balance.body?.transferableFromPayin?.amount, "USD", l)]])}
<form method="post" action="/console/balances/payout-funding/transfer" class="stack">${formFields(c.session, yield* c.newKey)}
${field("transfer-amount", t.amountUsd, { value: state.transfer?.amount ?? "", error: amountProblem(state.transfer?.reply), required: true, attributes: 'inputmode="decimal" autocomplete="off"' })}
<div><button type="submit">${escapeHtml(t.doTransfer)}</button></div></form></section>`
    const q = state.swap?.quote
    const swapForm = `<section aria-labelledby="swap-heading" class="card"><h2 id="swap-heading" style="margin-top:0">${escapeHtml(t.swap)}</h2>
${state.swap?.reply === undefined ? "" : problem(state.swap.reply)}
${facts([[t.payoutUsd, money(payoutUsd?.available ?? 0, "USD", l)]])}
<form method="get" action="/console/balances/payout-funding" class="stack">
${field("to", t.to, { value: state.swap?.to ?? "", options: locals.map((x) => [x, x] as const), required: true })}
${field("amountUsd", t.amountUsd, { value: state.swap?.amount ?? "", error: amountProblem(state.swap?.reply), required: true, attributes: 'inputmode="decimal" autocomplete="off"' })}
<div><button type="submit" class="secondary">${escapeHtml(t.quote)}</button></div></form>${
      q === undefined ? "" : `<h3>${escapeHtml(t.quoteHeading)}</h3>${facts([
        [t.amountUsd, money(q.amountUsd, "USD", l)],
        [t.rate, escapeHtml(String(q.rate))],
        [t.receive, money(q.amount, q.toCurrency, l)]
      ])}<p class="muted">${escapeHtml(t.indicative)}</p>
<form method="post" action="/console/balances/payout-funding/swap">${formFields(c.session, yield* c.newKey)}
<input type="hidden" name="toCurrency" value="${escapeHtml(q.toCurrency)}"><input type="hidden" name="amountUsd" value="${escapeHtml(String(q.amountUsd))}">
<button type="submit">${escapeHtml(t.doSwap)} (${money(q.amountUsd, "USD", l)})</button></form>`
    }</section>`
    const body = `<h1>${escapeHtml(t.title)}</h1>${done === "transferred" ? notice(t.transferred) : done === "swapped" ? notice(t.swapped) : ""}
<div class="grid" style="grid-template-columns:repeat(auto-fill,minmax(min(100%,24rem),1fr));align-items:start">${transferForm}${swapForm}</div><p>${link("/console/balances", t.back)}</p>`
    return c.page(t.title, body, { section: "balances", status: state.transfer?.reply.status ?? state.swap?.reply?.status ?? 200 })
  })

export const payoutFundingRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/balances/payout-funding",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const to = c.query.get("to") ?? ""
        const amount = c.query.get("amountUsd") ?? ""
        if (to === "" || amount === "") return yield* fundingPage(c, {})
        const reply = yield* c.api({ method: "GET", path: `/api/v1/me/payout/swap?${new URLSearchParams({ to, amount })}` })
        return yield* fundingPage(c, { swap: reply.status === 200 ? { to, amount, quote: reply.body.quote } : { to, amount, reply } })
      })
  },
  {
    method: "POST",
    path: "/console/balances/payout-funding/transfer",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const amount = c.form.get("transfer-amount") ?? ""
        const reply = yield* c.api({
          method: "POST",
          path: "/api/v1/me/payout/transfer",
          body: { amount: amountOf(amount) },
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined
        })
        if (reply.status === 200 || reply.status === 201) return redirect("/console/balances/payout-funding?done=transferred")
        return yield* fundingPage(c, { transfer: { amount, reply } })
      })
  },
  {
    method: "POST",
    path: "/console/balances/payout-funding/swap",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const to = c.form.get("toCurrency") ?? ""
        const amount = c.form.get("amountUsd") ?? ""
        const reply = yield* c.api({
          method: "POST",
          path: "/api/v1/me/payout/swap",
          body: { toCurrency: to, amountUsd: amountOf(amount) },
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined
        })
        if (reply.status === 200 || reply.status === 201) return redirect("/console/balances/payout-funding?done=swapped")
        return yield* fundingPage(c, { swap: { to, amount, reply } })
      })
  }
]
