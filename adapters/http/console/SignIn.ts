/**
 * Signing in and out. A merchant signs in with a key pair of one environment: the console
 * exchanges it at `POST /auth/token` (the same operation a script calls, with the same per-address
 * limit) and keeps only the access token, sealed in the session; the keys themselves are not kept.
 * A team member (`core/team/`) signs in with email, password and a one-time code at
 * `POST /auth/sign-in`, and the session keeps the member's access token the same way: every page
 * then acts with the member's role. An operator signs in with the admin token, checked by an admin API call. The session cookie is
 * `HttpOnly; Secure; SameSite=Strict` on `/console`, and lives as long as the session.
 */
import { Effect, Option } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { safeEqual } from "../../../core/Secrets.ts"
import { escapeHtml } from "../server/pages/Html.ts"
import type { ApiClient } from "./ApiClient.ts"
import { render } from "./Layout.ts"
import { readForm, redirect, sameOrigin, sessionCookie } from "./Page.ts"
import { operatorSessionSeconds, rotatedKeysPath, type SessionCredential, type Sessions } from "./Sessions.ts"
import { dictionary, type Language, languageCookie, languageOf } from "./Text.ts"

const words = dictionary((catalog) => catalog.console.shell.signIn)

/** Only a console path of this host: never another host (`//evil`), never a scheme. */
const safeNext = (next: string | null): string | undefined =>
  next !== null && next.startsWith("/console/") && !next.startsWith("//") && !next.includes("\\") && !next.startsWith("/console/sign-") &&
    // A control character (CR, LF...) could never be a Location: it would fail the answer, not redirect.
    !/[\u0000-\u001f\u007f]/.test(next)
    ? next
    : undefined

const field = (id: string, label: string, options: { type?: string; autocomplete?: string; error?: string } = {}) =>
  `<div><label for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${id}" type="${options.type ?? "text"}" required autocomplete="${options.autocomplete ?? "off"}" spellcheck="false"${
    options.error === undefined ? "" : ` aria-invalid="true" aria-describedby="${id}-error"`
  }>${options.error === undefined ? "" : `<p class="field-error" id="${id}-error">${escapeHtml(options.error)}</p>`}</div>`

const environmentSelect = (id: string, t: ReturnType<typeof words>, environment: string | null | undefined) =>
  `<div><label for="${id}">${escapeHtml(t.environment)}</label><select id="${id}" name="environment"><option value="sandbox"${environment === "production" ? "" : " selected"}>${escapeHtml(t.sandbox)}</option><option value="production"${environment === "production" ? " selected" : ""}>${escapeHtml(t.production)}</option></select></div>`

const signInPage = (language: Language, next: string | undefined, options: { environment?: string | null; merchantError?: string; memberError?: string; ssoError?: string; operatorError?: string; status?: number } = {}) => {
  const t = words(language)
  const nextField = next === undefined ? "" : `<input type="hidden" name="next" value="${escapeHtml(next)}">`
  const switching = options.environment === "sandbox" || options.environment === "production"
    ? `<p class="notice">${escapeHtml(t.switching)} (${escapeHtml(options.environment === "sandbox" ? t.sandbox : t.production)})</p>`
    : ""
  return render({
    title: t.title,
    language,
    session: undefined,
    status: options.status,
    body: `<h1>${escapeHtml(t.title)}</h1>${switching}
<div class="grid">
<section class="card" aria-labelledby="member-heading"><h2 id="member-heading">${escapeHtml(t.member)}</h2>
<p class="muted">${escapeHtml(t.memberHint)}</p>
<form method="post" action="/console/sign-in" class="stack"><input type="hidden" name="kind" value="member">${nextField}
${field("email", t.email, { type: "email", autocomplete: "username" })}
${field("password", t.password, { type: "password", autocomplete: "current-password" })}
${field("code", t.code, { autocomplete: "one-time-code", ...(options.memberError === undefined ? {} : { error: options.memberError }) })}
${environmentSelect("environment", t, options.environment)}
<div><button type="submit">${escapeHtml(t.signIn)}</button></div></form>
<h3 id="sso-heading">${escapeHtml(t.sso)}</h3><p class="muted">${escapeHtml(t.ssoHint)}</p>
<form method="post" action="/console/sign-in" class="stack" aria-labelledby="sso-heading"><input type="hidden" name="kind" value="sso">
${field("sso-email", t.email, { type: "email", autocomplete: "username", ...(options.ssoError === undefined ? {} : { error: options.ssoError }) })}
${environmentSelect("sso-environment", t, options.environment)}
<div><button type="submit" class="secondary">${escapeHtml(t.sso)}</button></div></form></section>
<section class="card" aria-labelledby="merchant-heading"><h2 id="merchant-heading">${escapeHtml(t.merchant)}</h2>
<p class="muted">${escapeHtml(t.merchantHint)}</p>
<form method="post" action="/console/sign-in" class="stack"><input type="hidden" name="kind" value="merchant">${nextField}
${field("apiKey", t.publishableKey, { autocomplete: "username" })}
${field("secretKey", t.secretKey, { type: "password", autocomplete: "current-password", ...(options.merchantError === undefined ? {} : { error: options.merchantError }) })}
<div><button type="submit">${escapeHtml(t.signIn)}</button></div></form></section>
<section class="card" aria-labelledby="operator-heading"><h2 id="operator-heading">${escapeHtml(t.operator)}</h2>
<p class="muted">${escapeHtml(t.operatorHint)}</p>
<form method="post" action="/console/sign-in" class="stack"><input type="hidden" name="kind" value="operator">${nextField}
${field("adminToken", t.adminToken, { type: "password", autocomplete: "current-password", ...(options.operatorError === undefined ? {} : { error: options.operatorError }) })}
<div><button type="submit">${escapeHtml(t.signIn)}</button></div></form></section>
</div>`
  })
}

const cookie = (value: string, maxAgeSeconds: number) =>
  `${sessionCookie}=${value}; Path=/console; HttpOnly; Secure; SameSite=Strict; Max-Age=${maxAgeSeconds}`

const loopback = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/

/**
 * Browsers keep a `Secure` cookie only from HTTPS or from a loopback host: a console served over
 * plain HTTP elsewhere could never keep its session, so it says so instead of looping to sign-in.
 */
const cookieCanStick = (publicUrl: string, host: string | undefined) => publicUrl.startsWith("https://") || loopback.test(host ?? "")

export const signInRoutes = (sessions: Sessions["Service"], api: ApiClient, publicUrl: string) => {
  const home = (kind: SessionCredential["kind"]) =>
    kind === "operator" ? "/console/operator/merchants" : kind === "rotated" ? rotatedKeysPath : "/console/payments"

  const showSignIn = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const url = new URL(request.url, "http://console.internal")
    return signInPage(languageOf(request), safeNext(url.searchParams.get("next")), { environment: url.searchParams.get("environment") })
  })

  /**
   * A new sign-in ends the session the browser held before (another environment, another
   * merchant, the operator): its cookie is replaced, so nothing could use that session any more,
   * and it must not stay live on the server until it expires.
   */
  const endPrevious = (request: HttpServerRequest.HttpServerRequest) => {
    const previous = request.cookies[sessionCookie]
    return previous === undefined || previous === "" ? Effect.void : sessions.end(previous)
  }

  const signIn = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const language = languageOf(request)
    const t = words(language)
    if (!sameOrigin(request)) return render({ title: t.title, language, session: undefined, status: 403, body: `<p class="problem">${escapeHtml(t.foreign)}</p>` })
    if (!cookieCanStick(publicUrl, request.headers["host"])) {
      return render({ title: t.title, language, session: undefined, status: 400, body: `<p class="problem">${escapeHtml(t.needsHttps)}</p>` })
    }
    const form = yield* readForm(request)
    const next = safeNext(form.get("next"))
    if (form.get("kind") === "operator") {
      const adminToken = form.get("adminToken") ?? ""
      const check = yield* api({ method: "GET", path: "/admin/v1/providers", bearer: adminToken })
      if (check.status !== 200) {
        // Too many wrong tokens from this address: the API's message says when to try again.
        const limited = check.status === 429
        return signInPage(language, next, { operatorError: limited ? String(check.body?.error?.message ?? t.rejectedAdmin) : t.rejectedAdmin, status: limited ? 429 : 401 })
      }
      yield* endPrevious(request)
      const started = yield* sessions.start({ kind: "operator", adminToken }, null, operatorSessionSeconds)
      return HttpServerResponse.empty({
        status: 303,
        headers: { location: next ?? home("operator"), "set-cookie": cookie(started.cookie, operatorSessionSeconds), "cache-control": "no-store" }
      })
    }
    // Single sign-on: the identity provider's page, reached by a link (a form's redirect to
    // another origin would break the page's form-action policy).
    if (form.get("kind") === "sso") {
      const started = yield* api({
        method: "POST",
        path: "/api/v1/auth/sso/start",
        body: { email: (form.get("sso-email") ?? "").trim(), environment: form.get("environment") === "production" ? "production" : "sandbox", redirectUri: `${publicUrl}/console/sso/callback` }
      })
      if (started.status !== 200) {
        const message = started.status === 429 ? String(started.body?.error?.message ?? t.rejectedSso) : t.rejectedSso
        return signInPage(language, next, { ssoError: message, status: started.status === 429 ? 429 : 401 })
      }
      return render({
        title: t.ssoTitle,
        language,
        session: undefined,
        body: `<h1>${escapeHtml(t.ssoTitle)}</h1><p><a href="${escapeHtml(String(started.body.url))}" data-testid="sso-continue">${escapeHtml(t.ssoContinue)}</a></p>`
      })
    }
    // A team member signs in as themselves (`POST /auth/sign-in`); a merchant with a key pair (`POST /auth/token`).
    const member = form.get("kind") === "member"
    const exchanged = member
      ? yield* api({
        method: "POST",
        path: "/api/v1/auth/sign-in",
        body: {
          email: (form.get("email") ?? "").trim(),
          password: form.get("password") ?? "",
          code: (form.get("code") ?? "").trim(),
          environment: form.get("environment") === "production" ? "production" : "sandbox"
        }
      })
      : yield* api({
        method: "POST",
        path: "/api/v1/auth/token",
        body: { apiKey: (form.get("apiKey") ?? "").trim(), secretKey: (form.get("secretKey") ?? "").trim() }
      })
    if (exchanged.status !== 200) {
      const rejected = member ? t.rejectedMember : t.rejected
      const message = exchanged.status === 429 ? String(exchanged.body?.error?.message ?? rejected) : rejected
      const status = exchanged.status === 429 ? 429 : 401
      return signInPage(language, next, member ? { memberError: message, status } : { merchantError: message, status })
    }
    return yield* merchantSession(request, exchanged.body, next)
  })

  /** A merchant session holding the token pair's access token (a key pair's or a team member's). */
  const merchantSession = (request: HttpServerRequest.HttpServerRequest, body: unknown, next: string | undefined) =>
    Effect.gen(function*() {
      yield* endPrevious(request)
      const token = body as { accessToken: string; expiresIn: number; environment: "sandbox" | "production"; merchant: { id: string; name: string } }
      const started = yield* sessions.start(
        { kind: "merchant", accessToken: token.accessToken, merchantId: token.merchant.id, merchantName: token.merchant.name },
        token.environment,
        token.expiresIn
      )
      return HttpServerResponse.empty({
        status: 303,
        headers: { location: next ?? home("merchant"), "set-cookie": cookie(started.cookie, token.expiresIn), "cache-control": "no-store" }
      })
    })

  /** The identity provider's answer: the member's session, or the sign-in page saying why not. */
  const ssoCallback = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const language = languageOf(request)
    const t = words(language)
    if (!cookieCanStick(publicUrl, request.headers["host"])) {
      return render({ title: t.title, language, session: undefined, status: 400, body: `<p class="problem">${escapeHtml(t.needsHttps)}</p>` })
    }
    const finished = yield* api({ method: "POST", path: "/api/v1/auth/sso/callback", body: { callbackUrl: `${publicUrl}${request.url}` } })
    if (finished.status !== 200) {
      const message = finished.status === 429 ? String(finished.body?.error?.message ?? t.rejectedSso) : String(finished.body?.error?.message ?? t.rejectedSso)
      return signInPage(language, undefined, { ssoError: message, status: finished.status === 429 ? 429 : 401 })
    }
    return yield* merchantSession(request, finished.body, undefined)
  })

  const signOut = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const value = request.cookies[sessionCookie]
    if (value !== undefined && sameOrigin(request)) {
      const session = yield* sessions.open(value)
      const form = yield* readForm(request)
      // Only the session's own form ends it: a cross-site POST cannot sign someone out.
      if (Option.isSome(session) && safeEqual(form.get("csrf") ?? "", session.value.csrfToken)) yield* sessions.end(value)
    }
    return HttpServerResponse.empty({ status: 303, headers: { location: "/console/sign-in", "set-cookie": cookie("", 0), "cache-control": "no-store" } })
  })

  const entry = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const value = request.cookies[sessionCookie]
    const session = value === undefined ? Option.none() : yield* sessions.open(value)
    return redirect(Option.match(session, { onNone: () => "/console/sign-in", onSome: (s) => home(s.credential.kind) }))
  })

  const chooseLanguage = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const form = yield* readForm(request)
    const language = form.get("language")
    const back = (() => {
      try {
        const referer = new URL(request.headers["referer"] ?? "")
        return referer.host === request.headers["host"] && referer.pathname.startsWith("/console") ? referer.pathname + referer.search : "/console"
      } catch {
        return "/console"
      }
    })()
    if (!sameOrigin(request) || (language !== "en" && language !== "pt" && language !== "es")) return redirect(back)
    return HttpServerResponse.empty({
      status: 303,
      headers: { location: back, "set-cookie": `${languageCookie}=${language}; Path=/console; SameSite=Lax; Max-Age=31536000`, "cache-control": "no-store" }
    })
  })

  return [
    { method: "GET", path: "/console", handler: entry },
    { method: "GET", path: "/console/sign-in", handler: showSignIn },
    { method: "POST", path: "/console/sign-in", handler: signIn },
    { method: "POST", path: "/console/sign-out", handler: signOut },
    { method: "GET", path: "/console/sso/callback", handler: ssoCallback },
    { method: "POST", path: "/console/language", handler: chooseLanguage }
  ] as const
}
