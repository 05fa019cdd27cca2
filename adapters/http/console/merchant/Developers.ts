/**
 * Developers: the key pair in use (publishable key, secret masked) and its rotation, the shop's
 * last API requests, and in sandbox the test clock.
 *
 * Rotating revokes the pair this session's access token was minted from, so the session cannot
 * act any more: it keeps only the new pair (`Console.handOverKeys`), and the next page shows it
 * once, ends the session on the server, clears its cookie, and asks to sign in again with the new
 * keys. A second click on the rotate button reaches that page too, so the new keys are never lost.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { formFields, render } from "../Layout.ts"
import { type Console, type ConsoleRoute, redirect } from "../Page.ts"
import { rotatedKeysPath, type SessionCredential } from "../Sessions.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { facts, field, link, notice, problem, status, table } from "../View.ts"
import { restrictedKeyRoutes, restrictedKeysSection } from "./RestrictedKeys.ts"
import { formErrors } from "./Webhooks.ts"

const words = dictionary((catalog) => catalog.console.merchant.developers)

const developersPage = (c: Console, options: { readonly top?: string; readonly clockErrors?: ReadonlyMap<string, string>; readonly status?: number } = {}) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const keys = yield* c.api({ method: "GET", path: "/api/v1/me/keys" })
    const requests = yield* c.api({ method: "GET", path: "/api/v1/me/requests" })
    const k = keys.body
    const keyCard = keys.status !== 200 ? problem(keys) : facts([
      [t.publishable, `<code data-testid="publishable-key">${escapeHtml(k.publishableKey)}</code>`],
      [t.secret, `<code data-testid="secret-key">${escapeHtml(k.secretKey)}</code>`],
      [t.version, escapeHtml(String(k.version))],
      [t.created, escapeHtml(formatDateTime(k.createdAt, c.language))]
    ])
    const log = requests.status !== 200 ? problem(requests) : table(t.requests, [
      { label: t.time }, { label: t.method }, { label: t.path }, { label: t.statusCode }, { label: t.duration, numeric: true }, { label: t.requestId }
    ], (requests.body.data as ReadonlyArray<any>).map((r) => [
      escapeHtml(new Date(r.at).toISOString().replace("T", " ").slice(0, 19)),
      escapeHtml(r.method),
      `<code>${escapeHtml(r.path)}</code>`,
      status(String(r.status), r.status < 300 ? "good" : r.status < 500 ? "wait" : "bad"),
      escapeHtml(String(r.durationMs)),
      `<code>${escapeHtml(r.requestId)}</code>`
    ]), t.noRequests)
    let clock = ""
    if (c.session.environment === "sandbox") {
      const reading = yield* c.api({ method: "GET", path: "/api/v1/sandbox/clock" })
      const errors = options.clockErrors ?? new Map<string, string>()
      clock = `<section aria-labelledby="clock-heading"><h2 id="clock-heading">${escapeHtml(t.clock)}</h2>${
        reading.status !== 200 ? problem(reading) : facts([
          [t.now, `<span data-testid="clock-now">${escapeHtml(reading.body.now)}</span>`],
          [t.offset, `<span data-testid="clock-offset">${escapeHtml(String(reading.body.offsetSeconds))}</span> s`]
        ])
      }<form method="post" action="/console/developers/clock" class="stack">${formFields(c.session, yield* c.newKey)}<p class="muted">${escapeHtml(t.clockHint)}</p>
${field("seconds", t.seconds, { options: [["3600", t.hour], ["86400", t.day], ["604800", t.week], ["2592000", t.month]], value: "86400", error: errors.get("seconds") })}
<div><button type="submit">${escapeHtml(t.advanceButton)}</button></div></form></section>`
    }
    const done = c.query.get("done")
    const body = `<h1>${escapeHtml(t.title)}</h1>${done === "advanced" ? notice(t.advanced) : done === "revoked" ? notice(t.revoked) : ""}${options.top ?? ""}
<section aria-labelledby="keys-heading"><h2 id="keys-heading">${escapeHtml(t.keys)}</h2>${keyCard}
<form method="post" action="/console/developers/rotate-keys" class="stack">${formFields(c.session, yield* c.newKey)}
<p class="muted">${escapeHtml(t.rotateHint)}</p><div><button type="submit" class="danger">${escapeHtml(t.rotateButton)}</button></div></form></section>
${yield* restrictedKeysSection(c)}
${clock}
<section id="requests"><h2 id="requests-heading">${escapeHtml(t.requests)}</h2><p class="muted">${escapeHtml(t.requestsHint)}</p>${log}</section>
<section aria-labelledby="events-heading"><h2 id="events-heading">${escapeHtml(t.events)}</h2><p>${link("/console/developers/events", t.eventsLink)}</p>
<p>${link("/console/developers/audit-log", t.auditLink)}</p></section>`
    return c.page(t.title, body, { section: "developers", ...(options.status === undefined ? {} : { status: options.status }) })
  })

export const developerRoutes: ReadonlyArray<ConsoleRoute> = [
  { method: "GET", path: "/console/developers", side: "merchant", handler: (c) => developersPage(c) },
  ...restrictedKeyRoutes((c, top, status) => developersPage(c, { top, status })),
  {
    method: "POST",
    path: "/console/developers/rotate-keys",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const reply = yield* c.api({ method: "POST", path: "/api/v1/me/keys/rotate", idempotencyKey: c.form.get("idempotencyKey") ?? undefined })
        if (reply.status !== 200) return yield* developersPage(c, { top: problem(reply), status: reply.status >= 500 ? 502 : reply.status })
        // The session's token is revoked now: it keeps only the new pair, shown once by the next page.
        return yield* c.handOverKeys({ publishableKey: reply.body.keys.publishableKey, secretKey: reply.body.keys.secretKey })
      })
  },
  {
    method: "GET",
    path: rotatedKeysPath,
    side: "rotated",
    handler: (c) => {
      const t = words(c.language)
      const keys = c.session.credential as Extract<SessionCredential, { readonly kind: "rotated" }>
      const environment = c.session.environment ?? "sandbox"
      return c.endSession(render({
        title: t.rotatedTitle,
        language: c.language,
        session: undefined,
        body: `<h1>${escapeHtml(t.rotatedTitle)}</h1><p class="notice" role="status">${escapeHtml(t.rotatedOnce)}</p>
<section class="card" aria-labelledby="new-keys-heading"><h2 id="new-keys-heading">${escapeHtml(t.newKeys)} (${escapeHtml(environment)})</h2>
<p>${escapeHtml(t.publishable)}</p><p class="secret" data-testid="new-publishable-key">${escapeHtml(keys.publishableKey)}</p>
<p>${escapeHtml(t.secret)}</p><p class="secret" data-testid="new-secret-key">${escapeHtml(keys.secretKey)}</p></section>
<p><a class="button" href="/console/sign-in?next=${encodeURIComponent("/console/developers")}">${escapeHtml(t.signInAgain)}</a></p>`
      }))
    }
  },
  {
    method: "POST",
    path: "/console/developers/clock",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const seconds = Number(c.form.get("seconds") ?? "")
        const reply = yield* c.api({ method: "POST", path: "/api/v1/sandbox/clock/advance", body: { seconds }, idempotencyKey: c.form.get("idempotencyKey") ?? undefined })
        if (reply.status === 200) return redirect("/console/developers?done=advanced")
        return yield* developersPage(c, { top: problem(reply), clockErrors: formErrors(reply), status: reply.status >= 500 ? 502 : reply.status })
      })
  }
]
