/**
 * Payouts: the list with statuses (`GET /me/payout/send`) and one payout
 * (`GET /me/payout/send/{id}`). Sending one is in `PayoutSend.ts`.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import type { ApiReply } from "../ApiClient.ts"
import { formFields } from "../Layout.ts"
import { type Console, type ConsoleRoute, redirect } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { facts, field, link, offsetPager, money, notice, problem, status, table } from "../View.ts"

export const payoutWords = dictionary((catalog) => catalog.console.merchant.payouts)


const pageSize = 25

/** One payout; in sandbox, while processing, the simulate form (the sandbox's completion signal). */
const detail = (c: Console, id: string, failed?: ApiReply) =>
  Effect.gen(function*() {
    const t = payoutWords(c.language)
    const reply = yield* c.api({ method: "GET", path: `/api/v1/me/payout/send/${encodeURIComponent(id)}` })
    const back = `<p>${link("/console/payouts", t.back)}</p>`
    if (reply.status !== 200) return c.page(t.id, `<h1 style="overflow-wrap:anywhere">${escapeHtml(t.id)} ${escapeHtml(id)}</h1>${problem(reply)}${back}`, { section: "payouts", status: reply.status })
    const p = reply.body.payout
    const done = c.query.get("done")
    const simulate = c.session.environment !== "sandbox" || p.status !== "processing" ? "" : `<section aria-labelledby="simulate-heading" class="card">
<h2 id="simulate-heading" style="margin-top:0">${escapeHtml(t.simulate)}</h2><p class="muted">${escapeHtml(t.simulateHint)}</p>
<form method="post" action="/console/payouts/${encodeURIComponent(p.id)}/simulate" class="filters">${formFields(c.session)}
${field("action", t.outcome, { value: "completed", options: [["completed", "completed"], ["failed", "failed"], ["rejected", "rejected"], ["returned", "returned"]] })}
<div><button type="submit" class="secondary">${escapeHtml(t.apply)}</button></div></form></section>`
    const body = `<h1 style="overflow-wrap:anywhere">${escapeHtml(t.id)} ${escapeHtml(p.id)}</h1>${done === "sent" ? notice(t.sent) : done === "simulated" ? notice(t.simulated) : ""}
${failed === undefined ? "" : problem(failed)}${facts([
      [t.status, status(p.status)],
      [t.amount, money(p.amount, p.currency, c.language)],
      [t.method, `${escapeHtml(p.methodName)} <span class="muted">(${escapeHtml(p.methodId)})</span>`],
      [t.provider, escapeHtml(p.provider)],
      [t.providerRef, escapeHtml(p.providerRef ?? "—")],
      [t.created, escapeHtml(formatDateTime(p.createdAt, c.language))],
      [t.completed, escapeHtml(formatDateTime(p.completedAt, c.language))],
      ...(p.failureReason ? [[t.failure, escapeHtml(p.failureReason)] as const] : [])
    ])}${simulate}${back}`
    return c.page(`${t.id} ${p.id}`, body, { section: "payouts", status: failed?.status ?? 200 })
  })
const statuses = ["processing", "completed", "failed"] as const

export const payoutRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/payouts",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const t = payoutWords(c.language)
        const offset = Math.max(0, Math.trunc(Number(c.query.get("offset") ?? 0)) || 0)
        const chosen = statuses.find((s) => s === c.query.get("status"))
        const filter = chosen === undefined ? "" : `&status=${chosen}`
        const reply = yield* c.api({ method: "GET", path: `/api/v1/me/payout/send?limit=${pageSize}&offset=${offset}${filter}` })
        if (reply.status !== 200) return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${problem(reply)}`, { section: "payouts", status: reply.status })
        const rows: ReadonlyArray<any> = reply.body.data
        const total: number = reply.body.pagination.total
        const list = table(
          t.title,
          [{ label: t.id }, { label: t.status }, { label: t.amount, numeric: true }, { label: t.method }, { label: t.created }],
          rows.map((p) => [
            link(`/console/payouts/${encodeURIComponent(p.id)}`, p.id),
            status(p.status),
            money(p.amount, p.currency, c.language),
            escapeHtml(p.methodName),
            escapeHtml(formatDateTime(p.createdAt, c.language))
          ]),
          t.none
        )
        const pager = offsetPager({ label: t.page, at: (o) => `/console/payouts?offset=${o}${filter}`, offset, total, pageSize, back: t.previous, forward: t.next })
        const body = `<h1>${escapeHtml(t.title)}</h1>${c.query.get("done") === "sent" ? notice(t.sent) : ""}
<p><a class="button" href="/console/payouts/send">${escapeHtml(t.send)}</a></p>
<form method="get" action="/console/payouts" class="filters">${
          field("status", t.status, { value: chosen ?? "", options: [["", t.all], ...statuses.map((s) => [s, s] as const)] })
        }<div><button type="submit" class="secondary">${escapeHtml(t.filter)}</button></div></form>${list}${pager}`
        return c.page(t.title, body, { section: "payouts" })
      })
  },
  {
    method: "GET",
    path: "/console/payouts/:id",
    side: "merchant",
    handler: (c) => detail(c, c.params["id"] ?? "")
  },
  {
    method: "POST",
    path: "/console/payouts/:id/simulate",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const payoutId = c.params["id"] ?? ""
        const reply = yield* c.api({
          method: "POST",
          path: `/api/v1/me/payout/send/${encodeURIComponent(payoutId)}/simulate`,
          body: { action: c.form.get("action") ?? "" }
        })
        if (reply.status === 200) return redirect(`/console/payouts/${encodeURIComponent(payoutId)}?done=simulated`)
        return yield* detail(c, payoutId, reply)
      })
  }
]
