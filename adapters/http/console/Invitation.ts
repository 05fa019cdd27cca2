/**
 * A team member's invitation (`core/team/Team.ts`), from the emailed link
 * `/console/invitations/<token>`: the member chooses a password (`POST /auth/invitations/accept`),
 * is shown the authenticator secret, and confirms it with a current code
 * (`POST /auth/invitations/confirm`); then signs in. The token is in the path, which the request
 * log and the log lines name by the route's template only. No step keeps anything in the
 * browser: each form carries the token back.
 */
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { escapeHtml } from "../server/pages/Html.ts"
import type { ApiClient } from "./ApiClient.ts"
import { render } from "./Layout.ts"
import { readForm, sameOrigin } from "./Page.ts"
import { dictionary, type Language, languageOf } from "./Text.ts"

const words = dictionary((catalog) => catalog.console.shell.invitation)

const tokenOf = (request: HttpServerRequest.HttpServerRequest) =>
  decodeURIComponent(new URL(request.url, "http://console.internal").pathname.split("/").at(-1) ?? "")

const page = (language: Language, body: string, status?: number) => render({ title: words(language).title, language, session: undefined, status, body })

const passwordForm = (language: Language, token: string, error?: string) => {
  const t = words(language)
  return `<h1>${escapeHtml(t.title)}</h1><form method="post" action="/console/invitations/${encodeURIComponent(token)}" class="stack card">
<input type="hidden" name="step" value="password"><p>${escapeHtml(t.intro)}</p>
<div><label for="password">${escapeHtml(t.password)}</label><input id="password" name="password" type="password" required minlength="12" maxlength="200" autocomplete="new-password"${
    error === undefined ? "" : ` aria-invalid="true" aria-describedby="password-error"`
  }>${error === undefined ? "" : `<p class="field-error" id="password-error">${escapeHtml(error)}</p>`}</div>
<div><button type="submit">${escapeHtml(t.next)}</button></div></form>`
}

const enrolForm = (language: Language, token: string, secret: string, uri: string, error?: string) => {
  const t = words(language)
  return `<h1>${escapeHtml(t.enrolTitle)}</h1><section class="card stack"><p>${escapeHtml(t.enrolIntro)}</p>
<p>${escapeHtml(t.secret)}: <code>${escapeHtml(secret.replace(/(.{4})/g, "$1 ").trim())}</code></p>
<p><a href="${escapeHtml(uri)}">${escapeHtml(t.uri)}</a></p>
<form method="post" action="/console/invitations/${encodeURIComponent(token)}" class="stack"><input type="hidden" name="step" value="code">
<input type="hidden" name="secret" value="${escapeHtml(secret)}"><input type="hidden" name="uri" value="${escapeHtml(uri)}">
<div><label for="code">${escapeHtml(t.code)}</label><input id="code" name="code" required inputmode="numeric" pattern="[0-9]{6}" autocomplete="one-time-code"${
    error === undefined ? "" : ` aria-invalid="true" aria-describedby="code-error"`
  }>${error === undefined ? "" : `<p class="field-error" id="code-error">${escapeHtml(error)}</p>`}</div>
<div><button type="submit">${escapeHtml(t.confirm)}</button></div></form></section>`
}

export const invitationRoutes = (api: ApiClient) => {
  const show = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    return page(languageOf(request), passwordForm(languageOf(request), tokenOf(request)))
  })

  const submit = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const language = languageOf(request)
    const t = words(language)
    if (!sameOrigin(request)) return page(language, `<p class="problem">${escapeHtml(t.invalid)}</p>`, 403)
    const token = tokenOf(request)
    const form = yield* readForm(request)
    const message = (reply: { readonly body: any }) => String(reply.body?.error?.details?.issues?.[0]?.message ?? reply.body?.error?.message ?? t.invalid)
    if (form.get("step") === "code") {
      const secret = form.get("secret") ?? ""
      const uri = form.get("uri") ?? ""
      const confirmed = yield* api({ method: "POST", path: "/api/v1/auth/invitations/confirm", body: { token, code: (form.get("code") ?? "").trim() } })
      if (confirmed.status !== 200) return page(language, enrolForm(language, token, secret, uri, message(confirmed)), confirmed.status === 429 ? 429 : 400)
      return page(language, `<h1>${escapeHtml(t.doneTitle)}</h1><p>${escapeHtml(t.done)}</p><p><a href="/console/sign-in">${escapeHtml(t.signIn)}</a></p>`)
    }
    const accepted = yield* api({ method: "POST", path: "/api/v1/auth/invitations/accept", body: { token, password: form.get("password") ?? "" } })
    if (accepted.status === 401) return page(language, `<h1>${escapeHtml(t.title)}</h1><p class="problem">${escapeHtml(t.invalid)}</p>`, 404)
    if (accepted.status !== 200) return page(language, passwordForm(language, token, message(accepted)), accepted.status === 429 ? 429 : 400)
    return page(language, enrolForm(language, token, accepted.body.totpSecret, accepted.body.otpauthUri))
  })

  return [
    { method: "GET", path: "/console/invitations/:token", handler: show },
    { method: "POST", path: "/console/invitations/:token", handler: submit }
  ] as const
}
