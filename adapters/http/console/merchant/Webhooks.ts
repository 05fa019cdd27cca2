/**
 * Webhooks: the endpoints list and the form that adds one. The new endpoint's signing secret is
 * shown once, in the answer to the POST (never in a URL; the page is not cached).
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { type ApiReply, fieldErrors, replayed } from "../ApiClient.ts"
import { formFields } from "../Layout.ts"
import type { Console, ConsoleRoute } from "../Page.ts"
import { dictionary, formatDateTime, type Language } from "../Text.ts"
import { field, link, notice, problem, status, table } from "../View.ts"

export const webhookWords = dictionary((catalog) => catalog.console.merchant.webhooks)


/** `a, b` or `*` as the API's list. */
export const eventList = (text: string) => text.split(",").map((e) => e.trim()).filter((e) => e !== "")

/** The API's field errors, with `events.2` told on the `events` field. */
export const formErrors = (reply: ApiReply): ReadonlyMap<string, string> => {
  const errors = new Map<string, string>()
  for (const [path, message] of fieldErrors(reply)) {
    const name = path.split(".")[0] ?? path
    if (!errors.has(name)) errors.set(name, message)
  }
  return errors
}

/** The secret the API shows once, shown once. */
export const secretCard = (language: Language, secret: string) => {
  const t = webhookWords(language)
  return `<section class="card" aria-labelledby="secret-heading"><h2 id="secret-heading">${escapeHtml(t.secretTitle)}</h2>
<p>${escapeHtml(t.secretOnce)}</p><p class="secret" data-testid="secret">${escapeHtml(secret)}</p></section>`
}

export const endpointFields = (
  language: Language,
  values: { readonly url?: string; readonly events?: string; readonly description?: string },
  errors: ReadonlyMap<string, string>
) => {
  const t = webhookWords(language)
  return field("url", t.url, { type: "url", value: values.url, error: errors.get("url"), hint: t.urlHint, required: true, attributes: 'autocomplete="off" spellcheck="false"' }) +
    field("events", t.events, { value: values.events ?? "*", error: errors.get("events"), hint: t.eventsHint, required: true, attributes: 'spellcheck="false"' }) +
    field("description", t.description, { value: values.description, error: errors.get("description") })
}

const listPage = (c: Console, options: { readonly top?: string; readonly form?: { url: string; events: string; description: string }; readonly errors?: ReadonlyMap<string, string>; readonly status?: number } = {}) =>
  Effect.gen(function*() {
    const t = webhookWords(c.language)
    const reply = yield* c.api({ method: "GET", path: "/api/v1/webhooks?limit=100" })
    const rows: ReadonlyArray<any> = reply.body?.data ?? []
    const list = reply.status === 200
      ? table(t.endpoints, [{ label: t.url }, { label: t.events }, { label: t.state }, { label: t.description }, { label: t.created }], rows.map((w) => [
        `<a href="/console/webhooks/${encodeURIComponent(w.id)}">${escapeHtml(w.url)}</a>`,
        escapeHtml(w.events.join(", ")),
        w.active ? status(t.active, "good") : status(t.disabled, "bad"),
        escapeHtml(w.description ?? "—"),
        escapeHtml(formatDateTime(w.createdAt, c.language))
      ]), t.none)
      : problem(reply)
    const done = c.query.get("done") === "deleted" ? notice(t.deleted) : ""
    const body = `<h1>${escapeHtml(t.title)}</h1>${done}${options.top ?? ""}<h2>${escapeHtml(t.endpoints)}</h2>${list}
<h2 id="add-heading">${escapeHtml(t.add)}</h2>
<form method="post" action="/console/webhooks" class="stack" aria-labelledby="add-heading">${formFields(c.session, yield* c.newKey)}
${endpointFields(c.language, options.form ?? {}, options.errors ?? new Map())}<div><button type="submit">${escapeHtml(t.create)}</button></div></form>`
    return c.page(t.title, body, { section: "webhooks", ...(options.status === undefined ? {} : { status: options.status }) })
  })

export const webhookRoutes: ReadonlyArray<ConsoleRoute> = [
  { method: "GET", path: "/console/webhooks", side: "merchant", handler: (c) => listPage(c) },
  {
    method: "POST",
    path: "/console/webhooks",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const t = webhookWords(c.language)
        const form = { url: (c.form.get("url") ?? "").trim(), events: c.form.get("events") ?? "", description: (c.form.get("description") ?? "").trim() }
        const reply = yield* c.api({
          method: "POST",
          path: "/api/v1/webhooks",
          body: { url: form.url, events: eventList(form.events), ...(form.description === "" ? {} : { description: form.description }) },
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined
        })
        if (reply.status === 201) {
          const w = reply.body
          return yield* c.showOnce({
            title: t.secretTitle,
            section: "webhooks",
            body: `<h1>${escapeHtml(t.secretTitle)}</h1>${notice(t.created1)}${secretCard(c.language, w.secret)}<p>${
              link(`/console/webhooks/${encodeURIComponent(w.id)}`, `${t.openEndpoint}: ${w.url}`)
            }</p>`
          }, replayed(reply))
        }
        return yield* listPage(c, { top: problem(reply), form, errors: formErrors(reply), status: reply.status >= 500 ? 502 : reply.status })
      })
  }
]
