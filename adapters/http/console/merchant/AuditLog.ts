/** Developers → audit log: the merchant's record of changes in this environment, newest first (`GET /api/v1/me/audit-log`). */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import type { ConsoleRoute } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { link, offsetPager, problem, table } from "../View.ts"

const words = dictionary((catalog) => catalog.console.merchant.auditLog)

const pageSize = 25

export const auditLogRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/developers/audit-log",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const t = words(c.language)
        const offset = Math.max(0, Math.floor(Number(c.query.get("offset") ?? "0")) || 0)
        const reply = yield* c.api({ method: "GET", path: `/api/v1/me/audit-log?limit=${pageSize}&offset=${offset}` })
        const rows: ReadonlyArray<any> = reply.body?.data ?? []
        const total: number = reply.body?.pagination?.total ?? 0
        const list = reply.status !== 200 ? problem(reply) : table(t.title, [{ label: t.when }, { label: t.who }, { label: t.operation }, { label: t.object }, { label: t.changes }], rows.map((e) => [
          escapeHtml(formatDateTime(e.at, c.language)),
          `${escapeHtml(e.actor.id)}${e.ip === null ? "" : `<br><span class="muted">${escapeHtml(e.ip)}</span>`}`,
          `<code>${escapeHtml(e.operation)}</code>`,
          `${escapeHtml(e.object.type)} <code>${escapeHtml(e.object.id)}</code>`,
          `<details><summary>${escapeHtml(t.show)}</summary><pre tabindex="0" role="region" style="min-width:min(28rem,80vw);white-space:pre" aria-label="${escapeHtml(`${t.changes} ${e.id}`)}">${escapeHtml(JSON.stringify(e.changes, null, 2))}</pre></details>`
        ]), t.none)
        const pager = offsetPager({ label: t.page, at: (o) => `/console/developers/audit-log?offset=${o}`, offset, total, pageSize, back: t.newer, forward: t.older })
        const body = `<h1>${escapeHtml(t.title)}</h1><p>${link("/console/developers", t.back)}</p><p class="muted">${escapeHtml(t.hint)}</p>${list}${pager}`
        return c.page(t.title, body, { section: "developers" })
      })
  }
]
