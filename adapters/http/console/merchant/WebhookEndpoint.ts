/**
 * One webhook endpoint: its settings (edit, turn off, delete), its secret (rotate: the new one is
 * shown once, in the POST's answer), a test delivery, and its delivery log.
 */
import { Effect } from "effect"
import { replayed } from "../ApiClient.ts"
import { escapeHtml } from "../../server/pages/Html.ts"
import { formFields } from "../Layout.ts"
import { type Console, type ConsoleRoute, redirect } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { facts, field, link, offsetPager, notice, problem, status, table } from "../View.ts"
import { endpointFields, eventList, formErrors, secretCard, webhookWords } from "./Webhooks.ts"

const words = dictionary((catalog) => catalog.console.merchant.webhookEndpoint)

const pageSize = 20

const endpointPage = (
  c: Console,
  id: string,
  options: { readonly top?: string; readonly form?: { url: string; events: string; description: string; active: string }; readonly errors?: ReadonlyMap<string, string>; readonly status?: number } = {}
) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const w0 = webhookWords(c.language)
    const base = `/console/webhooks/${encodeURIComponent(id)}`
    const reply = yield* c.api({ method: "GET", path: `/api/v1/webhooks/${encodeURIComponent(id)}` })
    if (reply.status !== 200) {
      return c.page(t.endpoint, `<h1>${escapeHtml(t.endpoint)}</h1>${problem(reply)}<p>${link("/console/webhooks", w0.back)}</p>`, { section: "webhooks", status: reply.status })
    }
    const w = reply.body
    const offset = Math.max(0, Math.floor(Number(c.query.get("offset") ?? "0")) || 0)
    const log = yield* c.api({ method: "GET", path: `/api/v1/webhooks/${encodeURIComponent(id)}/deliveries?limit=${pageSize}&offset=${offset}` })
    const rows: ReadonlyArray<any> = log.body?.data ?? []
    const total: number = log.body?.pagination?.total ?? 0
    const deliveries = log.status !== 200 ? problem(log) : table(t.deliveries, [
      { label: t.delivery }, { label: t.event }, { label: t.status }, { label: t.attempts, numeric: true }, { label: t.answer, numeric: true }, { label: t.created }
    ], rows.map((d) => [
      `<a href="${base}/deliveries/${encodeURIComponent(d.id)}">${escapeHtml(d.id)}</a>`,
      escapeHtml(d.event),
      status(d.status),
      escapeHtml(String(d.attempts)),
      escapeHtml(d.lastStatusCode === null ? (d.lastError === null ? "—" : "✕") : String(d.lastStatusCode)),
      escapeHtml(formatDateTime(d.createdAt, c.language))
    ]), t.none)
    const pager = offsetPager({ label: t.page, at: (o) => `${base}?offset=${o}`, offset, total, pageSize, back: t.newer, forward: t.older })
    const done = { saved: t.saved, tested: t.tested }[c.query.get("done") ?? ""] as string | undefined
    const form = options.form ?? { url: w.url, events: w.events.join(", "), description: w.description ?? "", active: String(w.active) }
    const errors = options.errors ?? new Map<string, string>()
    const action = (path: string, label: string, hint: string, kind = "secondary") =>
      Effect.map(c.newKey, (key) =>
        `<form method="post" action="${base}/${path}" class="stack">${formFields(c.session, key)}<p class="muted">${escapeHtml(hint)}</p><div><button type="submit" class="${kind}">${escapeHtml(label)}</button></div></form>`)
    const body = `<h1>${escapeHtml(t.endpoint)} <span class="muted">${escapeHtml(w.id)}</span></h1>${done === undefined ? "" : notice(done)}${options.top ?? ""}
${facts([
      [w0.url, escapeHtml(w.url) + (w.managed ? ` <span class="muted">(${escapeHtml(t.managed)})</span>` : "")],
      [w0.events, escapeHtml(w.events.join(", "))],
      [t.state, w.active ? status(w0.active, "good") : status(w0.disabled, "bad")],
      ...(w.disabledReason === null ? [] : [[t.disabledReason, escapeHtml(w.disabledReason)] as const]),
      [t.created, escapeHtml(formatDateTime(w.createdAt, c.language))]
    ])}
<h2 id="deliveries-heading">${escapeHtml(t.deliveries)}</h2>${deliveries}${pager}
<div class="grid" style="margin-top:1rem">
<section class="card" aria-labelledby="test-heading"><h2 id="test-heading">${escapeHtml(t.test)}</h2>${yield* action("test", t.sendTest, t.testHint, "")}</section>
<section class="card" aria-labelledby="secret-heading2"><h2 id="secret-heading2">${escapeHtml(t.secret)}</h2>${yield* action("rotate-secret", t.rotate, t.rotateHint)}</section>
</div>
<h2 id="settings-heading">${escapeHtml(t.settings)}</h2>
<form method="post" action="${base}" class="stack" aria-labelledby="settings-heading">${formFields(c.session, yield* c.newKey)}<input type="hidden" name="currentUrl" value="${escapeHtml(w.url)}">
${endpointFields(c.language, form, errors)}
${field("active", t.state, { value: form.active, options: [["true", t.on], ["false", t.off]], error: errors.get("active") })}
<div><button type="submit">${escapeHtml(t.save)}</button></div></form>
<h2 id="delete-heading">${escapeHtml(t.danger)}</h2>${yield* action("delete", t.deleteButton, t.deleteHint, "danger")}
<p>${link("/console/webhooks", w0.back)}</p>`
    return c.page(`${t.endpoint} ${w.id}`, body, { section: "webhooks", ...(options.status === undefined ? {} : { status: options.status }) })
  })

/** `/console/webhooks/{id}[/...]`: the endpoint's id. */
const idOf = (c: Console) => c.params["id"] ?? ""
const pathOf = (id: string) => `/api/v1/webhooks/${encodeURIComponent(id)}`
const key = (c: Console) => c.form.get("idempotencyKey") ?? undefined

export const webhookEndpointRoutes: ReadonlyArray<ConsoleRoute> = [
  { method: "GET", path: "/console/webhooks/:id", side: "merchant", handler: (c) => endpointPage(c, idOf(c)) },
  {
    method: "POST",
    path: "/console/webhooks/:id",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const id = idOf(c)
        const form = {
          url: (c.form.get("url") ?? "").trim(),
          events: c.form.get("events") ?? "",
          description: (c.form.get("description") ?? "").trim(),
          active: c.form.get("active") === "false" ? "false" : "true"
        }
        const reply = yield* c.api({
          method: "PATCH",
          path: pathOf(id),
          // The URL only when it changed: a managed inbox's own URL sent back would unmanage it.
          body: { ...(form.url === c.form.get("currentUrl") ? {} : { url: form.url }), events: eventList(form.events), description: form.description === "" ? null : form.description, active: form.active === "true" },
          idempotencyKey: key(c)
        })
        if (reply.status === 200) return redirect(`/console/webhooks/${encodeURIComponent(id)}?done=saved`)
        return yield* endpointPage(c, id, { top: problem(reply), form, errors: formErrors(reply), status: reply.status >= 500 ? 502 : reply.status })
      })
  },
  {
    method: "POST",
    path: "/console/webhooks/:id/delete",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const id = idOf(c)
        const reply = yield* c.api({ method: "DELETE", path: pathOf(id), idempotencyKey: key(c) })
        // Deleted now, or by the first of two clicks: either way it is gone.
        if (reply.status === 200 || reply.status === 404) return redirect("/console/webhooks?done=deleted")
        return yield* endpointPage(c, id, { top: problem(reply), status: reply.status >= 500 ? 502 : reply.status })
      })
  },
  {
    method: "POST",
    path: "/console/webhooks/:id/rotate-secret",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const id = idOf(c)
        const t = words(c.language)
        const reply = yield* c.api({ method: "POST", path: `${pathOf(id)}/rotate-secret`, idempotencyKey: key(c) })
        if (reply.status === 200) {
          return yield* c.showOnce({
            title: t.secret,
            section: "webhooks",
            body: `<h1>${escapeHtml(t.secret)}</h1>${notice(t.rotated)}${secretCard(c.language, reply.body.secret)}<p>${
              link(`/console/webhooks/${encodeURIComponent(id)}`, `${t.endpoint} ${id}`)
            }</p>`
          }, replayed(reply))
        }
        return yield* endpointPage(c, id, { top: problem(reply), status: reply.status >= 500 ? 502 : reply.status })
      })
  },
  {
    method: "POST",
    path: "/console/webhooks/:id/test",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const id = idOf(c)
        const reply = yield* c.api({ method: "POST", path: `${pathOf(id)}/test`, idempotencyKey: key(c) })
        if (reply.status === 202) return redirect(`/console/webhooks/${encodeURIComponent(id)}?done=tested`)
        return yield* endpointPage(c, id, { top: problem(reply), status: reply.status >= 500 ? 502 : reply.status })
      })
  }
]
