/** Developers → events: the shop's events, newest first, filtered by type, each with its JSON. */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { eventTypes } from "../../../../core/webhooks/Webhook.ts"
import type { ConsoleRoute } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { field, link, offsetPager, problem, table } from "../View.ts"

const words = dictionary((catalog) => catalog.console.merchant.developerEvents)

const pageSize = 20

export const developerEventRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/developers/events",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const t = words(c.language)
        const type = (eventTypes as ReadonlyArray<string>).includes(c.query.get("type") ?? "") ? c.query.get("type")! : ""
        const offset = Math.max(0, Math.floor(Number(c.query.get("offset") ?? "0")) || 0)
        const reply = yield* c.api({ method: "GET", path: `/api/v1/events?limit=${pageSize}&offset=${offset}${type === "" ? "" : `&type=${encodeURIComponent(type)}`}` })
        const rows: ReadonlyArray<any> = reply.body?.data ?? []
        const total: number = reply.body?.pagination?.total ?? 0
        const list = reply.status !== 200 ? problem(reply) : table(t.title, [{ label: t.id }, { label: t.type }, { label: t.related }, { label: t.created }, { label: t.json }], rows.map((e) => [
          `<code>${escapeHtml(e.id)}</code>`,
          escapeHtml(e.type),
          escapeHtml(String(e.data?.id ?? e.data?.transactionId ?? e.merchantOrderId ?? "—")),
          escapeHtml(formatDateTime(e.created, c.language)),
          `<details><summary>${escapeHtml(t.show)}</summary><pre tabindex="0" role="region" style="min-width:min(32rem,80vw);white-space:pre" aria-label="${escapeHtml(`${t.json} ${e.id}`)}">${escapeHtml(JSON.stringify(e, null, 2))}</pre></details>`
        ]), t.none)
        const at = (o: number) => `/console/developers/events?offset=${o}${type === "" ? "" : `&type=${encodeURIComponent(type)}`}`
        const pager = offsetPager({ label: t.page, at, offset, total, pageSize, back: t.newer, forward: t.older })
        const body = `<h1>${escapeHtml(t.title)}</h1><p>${link("/console/developers", t.back)}</p>
<form method="get" action="/console/developers/events" class="filters">${
          field("type", t.type, { value: type, options: [["", t.any], ...eventTypes.map((e) => [e, e] as const)] })
        }<div><button type="submit" class="secondary">${escapeHtml(t.filter)}</button></div></form>${list}${pager}`
        return c.page(t.title, body, { section: "developers" })
      })
  }
]
