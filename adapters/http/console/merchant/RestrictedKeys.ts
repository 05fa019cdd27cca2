/**
 * Restricted keys on the Developers page: the active ones (name, permissions, secret masked,
 * issued, a revoke button), a form to create one (a name and the permissions, by resource, none,
 * read or write), and the new key shown once (`Console.showOnce`). Every action is the API's
 * (`/api/v1/me/restricted-keys`), with this session's token, which is a full key pair's.
 */
import { Effect } from "effect"
import type { HttpServerResponse } from "effect/http"
import { resources } from "../../../../core/auth/Permissions.ts"
import { escapeHtml } from "../../server/pages/Html.ts"
import { formFields } from "../Layout.ts"
import { type Console, type ConsoleRoute, redirect, type SessionEnded } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { field, notice, problem, table } from "../View.ts"

const words = dictionary((catalog) => catalog.console.merchant.restrictedKeys)

/** The permissions a create form asked for: per resource, `read` or `write` (anything else is none). */
const permissionsOf = (form: URLSearchParams) =>
  resources.flatMap((r) => {
    const access = form.get(`access-${r}`)
    return access === "read" || access === "write" ? [`${r}:${access}`] : []
  })

/** The section of the Developers page. */
export const restrictedKeysSection = (c: Console) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const listed = yield* c.api({ method: "GET", path: "/api/v1/me/restricted-keys" })
    const rows = listed.status !== 200 ? problem(listed) : table(t.active, [
      { label: t.name }, { label: t.permissions }, { label: t.secret }, { label: t.created }, { label: t.actions }
    ], (listed.body.data as ReadonlyArray<any>).map((k) => [
      escapeHtml(k.name),
      escapeHtml((k.permissions as ReadonlyArray<string>).join(", ")),
      `<code>${escapeHtml(k.secretKey)}</code>`,
      escapeHtml(formatDateTime(k.createdAt, c.language)),
      `<form method="post" action="/console/developers/restricted-keys/${encodeURIComponent(k.id)}/revoke">${formFields(c.session)}<button type="submit" class="danger" aria-label="${escapeHtml(`${t.revoke}: ${k.name}`)}">${escapeHtml(t.revoke)}</button></form>`
    ]), t.none)
    const choices = resources.map((r) =>
      field(`access-${r}`, r, { options: [["", t.noAccess], ["read", t.read], ["write", t.write]], value: "" })
    ).join("")
    return `<section aria-labelledby="restricted-heading"><h2 id="restricted-heading">${escapeHtml(t.title)}</h2><p class="muted">${escapeHtml(t.hint)}</p>${rows}
<h3 id="new-restricted-heading">${escapeHtml(t.create)}</h3>
<form method="post" action="/console/developers/restricted-keys" class="stack" aria-labelledby="new-restricted-heading">${formFields(c.session)}
${field("name", t.name, { required: true, attributes: 'maxlength="100"' })}
<fieldset><legend>${escapeHtml(t.permissions)}</legend><div class="grid" style="grid-template-columns:repeat(auto-fill,minmax(min(100%,11rem),1fr))">${choices}</div></fieldset>
<div><button type="submit">${escapeHtml(t.create)}</button></div></form></section>`
  })

/** The routes: create (the new key shown once) and revoke; the page itself is `Developers.ts`'. */
export const restrictedKeyRoutes = (
  page: (c: Console, top: string, status: number) => Effect.Effect<HttpServerResponse.HttpServerResponse, SessionEnded>
): ReadonlyArray<ConsoleRoute> => [
  {
    method: "POST",
    path: "/console/developers/restricted-keys",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const t = words(c.language)
        const reply = yield* c.api({ method: "POST", path: "/api/v1/me/restricted-keys", body: { name: (c.form.get("name") ?? "").trim(), permissions: permissionsOf(c.form) } })
        if (reply.status !== 201) return yield* page(c, problem(reply), reply.status >= 500 ? 502 : reply.status)
        const k = reply.body
        return yield* c.showOnce({
          title: t.createdTitle,
          section: "developers",
          body: `<h1>${escapeHtml(t.createdTitle)}</h1>${notice(`${k.name}: ${(k.permissions as ReadonlyArray<string>).join(", ")}`)}
<p class="problem" role="note">${escapeHtml(t.once)}</p><section class="card" aria-label="${escapeHtml(t.secret)}"><p>${escapeHtml(t.secret)}</p><p class="secret" data-testid="restricted-secret">${escapeHtml(k.secretKey)}</p></section>
<p><a href="/console/developers">${escapeHtml(t.back)}</a></p>`
        }, false)
      })
  },
  {
    method: "POST",
    path: "/console/developers/restricted-keys/:id/revoke",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const reply = yield* c.api({ method: "DELETE", path: `/api/v1/me/restricted-keys/${encodeURIComponent(c.params["id"] ?? "")}` })
        if (reply.status === 200) return redirect("/console/developers?done=revoked")
        return yield* page(c, problem(reply), reply.status >= 500 ? 502 : reply.status)
      })
  }
]
