/**
 * One webhook delivery: the request sent (headers, the exact body) and the endpoint's last answer
 * (status, error, the start of its body), and replay. A replay form carries its own idempotency
 * key: submitted twice, it queues the delivery once.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { formFields } from "../Layout.ts"
import { type Console, type ConsoleRoute, redirect } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { facts, link, notice, problem, status, table } from "../View.ts"

const words = dictionary((catalog) => catalog.console.merchant.deliveries)

/** A JSON text indented for reading; anything else as it is. */
const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

const deliveryPage = (c: Console, webhookId: string, deliveryId: string, options: { readonly top?: string; readonly status?: number } = {}) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const endpoint = `/console/webhooks/${encodeURIComponent(webhookId)}`
    const back = `<p>${link(endpoint, t.back)}</p>`
    const reply = yield* c.api({ method: "GET", path: `/api/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}` })
    if (reply.status !== 200) {
      return c.page(t.delivery, `<h1>${escapeHtml(t.delivery)}</h1>${problem(reply)}${back}`, { section: "webhooks", status: reply.status })
    }
    const d = reply.body
    const headers: ReadonlyArray<readonly [string, string]> = Object.entries(d.request.headers as Record<string, string>)
    const response = d.response === null
      ? `<p class="muted">${escapeHtml(t.noAnswer)}</p>`
      : `${facts([
        [t.statusCode, escapeHtml(d.response.statusCode === null ? "—" : String(d.response.statusCode))],
        ...(d.response.error === null ? [] : [[t.error, escapeHtml(d.response.error)] as const])
      ])}<h3>${escapeHtml(t.excerpt)}</h3><pre data-testid="response-body" tabindex="0" role="region" aria-label="${escapeHtml(t.excerpt)}">${escapeHtml(d.response.bodyExcerpt === null || d.response.bodyExcerpt === "" ? t.empty : pretty(d.response.bodyExcerpt))}</pre>`
    const body = `<h1>${escapeHtml(t.delivery)} <span class="muted">${escapeHtml(d.id)}</span></h1>${options.top ?? ""}${
      c.query.get("done") === "replayed" ? notice(t.replayed) : ""
    }
${facts([
      [t.event, escapeHtml(d.event)],
      [t.status, status(d.status)],
      [t.attempts, escapeHtml(String(d.attempts))],
      [t.created, escapeHtml(formatDateTime(d.createdAt, c.language))],
      ...(d.nextAttemptAt === null ? [] : [[t.next, escapeHtml(formatDateTime(d.nextAttemptAt, c.language))] as const]),
      ...(d.succeededAt === null ? [] : [[t.succeeded, escapeHtml(formatDateTime(d.succeededAt, c.language))] as const]),
      ...(d.relatedTxId === null ? [] : [[t.payment, link(`/console/payments/${encodeURIComponent(d.relatedTxId)}`, d.relatedTxId)] as const])
    ])}
<section aria-labelledby="request-heading"><h2 id="request-heading">${escapeHtml(t.request)}</h2>
<p><strong>POST</strong> <code>${escapeHtml(d.request.url)}</code></p>
${table(t.headers, [{ label: t.header }, { label: t.value }], headers.map(([name, value]) => [`<code>${escapeHtml(name)}</code>`, `<code>${escapeHtml(value)}</code>`]), "")}
<h3>${escapeHtml(t.body)}</h3><pre data-testid="request-body" tabindex="0" role="region" aria-label="${escapeHtml(t.body)}">${escapeHtml(pretty(d.request.body))}</pre></section>
<section aria-labelledby="response-heading"><h2 id="response-heading">${escapeHtml(t.response)}</h2>${response}</section>
<section aria-labelledby="replay-heading"><h2 id="replay-heading">${escapeHtml(t.replay)}</h2>
<form method="post" action="${endpoint}/deliveries/${encodeURIComponent(d.id)}/replay" class="stack">${formFields(c.session, yield* c.newKey)}
<p class="muted">${escapeHtml(t.replayHint)}</p><div><button type="submit">${escapeHtml(t.replayButton)}</button></div></form></section>${back}`
    return c.page(`${t.delivery} ${d.id}`, body, { section: "webhooks", ...(options.status === undefined ? {} : { status: options.status }) })
  })

export const deliveryRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/webhooks/:id/deliveries/:deliveryId",
    side: "merchant",
    handler: (c) => deliveryPage(c, c.params["id"] ?? "", c.params["deliveryId"] ?? "")
  },
  {
    method: "POST",
    path: "/console/webhooks/:id/deliveries/:deliveryId/replay",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const webhookId = c.params["id"] ?? ""
        const deliveryId = c.params["deliveryId"] ?? ""
        const reply = yield* c.api({
          method: "POST",
          path: `/api/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/replay`,
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined
        })
        if (reply.status === 200) {
          return redirect(`/console/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}?done=replayed`)
        }
        return yield* deliveryPage(c, webhookId, deliveryId, { top: problem(reply), status: reply.status >= 500 ? 502 : reply.status })
      })
  }
]
