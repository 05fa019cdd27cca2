/**
 * The team page: the members (email, name, role, status) with a role form and a remove button
 * each, and a form to invite someone. Every action is the API's (`/api/v1/team/members`) with this
 * session's token: a role without the team (everyone but the owner and admins) sees the API's
 * refusal. An invitation the host could not email shows its link once (`Console.showOnce`).
 */
import { Effect } from "effect"
import { roles } from "../../../../core/team/Roles.ts"
import { escapeHtml } from "../../server/pages/Html.ts"
import { formFields } from "../Layout.ts"
import { type Console, type ConsoleRoute, redirect } from "../Page.ts"
import { dictionary } from "../Text.ts"
import { field, notice, problem, table } from "../View.ts"

const words = dictionary((catalog) => catalog.console.merchant.team)

const roleOptions = roles.map((r) => [r, r] as const)

const teamPage = (c: Console, options: { readonly top?: string; readonly status?: number } = {}) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const listed = yield* c.api({ method: "GET", path: "/api/v1/team/members" })
    const done = c.query.get("done")
    const top = options.top ?? (done === "saved" ? notice(t.saved) : done === "removed" ? notice(t.removedDone) : done?.startsWith("sent:") ? notice(`${t.sent} ${done.slice(5)}`) : "")
    const members = listed.status !== 200 ? problem(listed) : table(t.members, [
      { label: t.email }, { label: t.name }, { label: t.role }, { label: t.status }, { label: t.actions }
    ], (listed.body.data as ReadonlyArray<any>).map((m) => {
      const id = encodeURIComponent(m.id)
      return [
        escapeHtml(m.email),
        escapeHtml(m.name),
        `<form method="post" action="/console/team/${id}/role" class="inline">${formFields(c.session)}${
          field(`role-${m.id}`, `${t.role}: ${m.email}`, { options: roleOptions, value: m.role })
        }<button type="submit" class="secondary">${escapeHtml(t.save)}</button></form>`,
        escapeHtml(m.status === "active" ? t.active : t.invited),
        `<form method="post" action="/console/team/${id}/remove">${formFields(c.session)}<button type="submit" class="danger" aria-label="${escapeHtml(`${t.remove}: ${m.email}`)}">${escapeHtml(t.remove)}</button></form>`
      ]
    }), t.none)
    const invite = listed.status !== 200 ? "" : `<h2 id="invite-heading">${escapeHtml(t.invite)}</h2>
<form method="post" action="/console/team" class="stack" aria-labelledby="invite-heading">${formFields(c.session)}
${field("email", t.email, { required: true, type: "email", attributes: 'maxlength="320" autocomplete="off"' })}
${field("name", t.name, { attributes: 'maxlength="200"' })}
${field("role", t.role, { options: roleOptions, value: "viewer" })}
<div><button type="submit">${escapeHtml(t.invite)}</button></div></form>`
    const body = `<h1>${escapeHtml(t.title)}</h1>${top}<p class="muted">${escapeHtml(t.hint)}</p>${members}${invite}`
    return c.page(t.title, body, { section: "team", ...(options.status === undefined ? {} : { status: options.status }) })
  })

export const teamRoutes: ReadonlyArray<ConsoleRoute> = [
  { method: "GET", path: "/console/team", side: "merchant", handler: (c) => teamPage(c) },
  {
    method: "POST",
    path: "/console/team",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const t = words(c.language)
        const name = (c.form.get("name") ?? "").trim()
        const reply = yield* c.api({
          method: "POST",
          path: "/api/v1/team/members",
          body: { email: (c.form.get("email") ?? "").trim(), role: c.form.get("role") ?? "", ...(name === "" ? {} : { name }) }
        })
        if (reply.status !== 201) return yield* teamPage(c, { top: problem(reply), status: reply.status >= 500 ? 502 : reply.status })
        const invitation = reply.body.invitation
        if (invitation.url === null) return redirect(`/console/team?done=sent:${encodeURIComponent(invitation.emailedTo)}`)
        return yield* c.showOnce({
          title: t.linkTitle,
          section: "team",
          body: `<h1>${escapeHtml(t.linkTitle)}</h1><p class="problem" role="note">${escapeHtml(t.linkOnce)}</p>
<section class="card" aria-label="${escapeHtml(t.linkTitle)}"><p class="secret" data-testid="invitation-link">${escapeHtml(invitation.url)}</p></section>
<p><a href="/console/team">${escapeHtml(t.back)}</a></p>`
        }, false)
      })
  },
  {
    method: "POST",
    path: "/console/team/:id/role",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const id = c.params["id"] ?? ""
        const reply = yield* c.api({ method: "PATCH", path: `/api/v1/team/members/${encodeURIComponent(id)}`, body: { role: c.form.get(`role-${id}`) ?? "" } })
        if (reply.status === 200) return redirect("/console/team?done=saved")
        return yield* teamPage(c, { top: problem(reply), status: reply.status >= 500 ? 502 : reply.status })
      })
  },
  {
    method: "POST",
    path: "/console/team/:id/remove",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const reply = yield* c.api({ method: "DELETE", path: `/api/v1/team/members/${encodeURIComponent(c.params["id"] ?? "")}` })
        if (reply.status === 200) return redirect("/console/team?done=removed")
        return yield* teamPage(c, { top: problem(reply), status: reply.status >= 500 ? 502 : reply.status })
      })
  }
]
