/**
 * What the operator's pages share: the answer status of a failed action, paging links, the
 * environment a page shows, and the words for them.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import type { ApiReply } from "../ApiClient.ts"
import type { Console, SessionEnded } from "../Page.ts"
import { dictionary } from "../Text.ts"
import { problem } from "../View.ts"

export const common = dictionary((catalog) => catalog.console.operator.common)

/** The status a page answers for a failed API call: the API's 4xx, else 502 (never a 500 of the console's own). */
export const failedStatus = (reply: ApiReply) => reply.status >= 400 && reply.status < 500 ? reply.status : 502

export const ok = (reply: ApiReply) => reply.status >= 200 && reply.status < 300

const alreadyResolved = new Set(["payout_already_final", "claim_already_resolved", "discrepancy_resolved"])

/** The API's problem, told as a version conflict, or as already resolved, when it is one. */
export const failure = (c: Console, reply: ApiReply) => {
  const code = String(reply.body?.error?.code ?? "")
  if (reply.status === 409 && code.includes("conflict")) {
    return `<div class="problem" role="alert" data-testid="conflict"><strong>${escapeHtml(common(c.language).conflict)}</strong></div>${problem(reply)}`
  }
  if (reply.status === 409 && alreadyResolved.has(code)) {
    return `<div class="problem" role="alert" data-testid="already"><strong>${escapeHtml(common(c.language).already)}</strong></div>${problem(reply)}`
  }
  return problem(reply)
}

/** Previous/next links over an API list's `pagination`. */
export const pager = (c: Console, path: string, pagination: { total: number; limit: number; offset: number } | undefined, extra: Record<string, string> = {}) => {
  if (pagination === undefined || pagination.total <= pagination.limit) return ""
  const t = common(c.language)
  const href = (offset: number) => `${path}?${new URLSearchParams({ ...extra, offset: String(offset) }).toString()}`
  const page = Math.floor(pagination.offset / pagination.limit) + 1
  const pages = Math.max(1, Math.ceil(pagination.total / pagination.limit))
  const previous = pagination.offset > 0 ? `<a class="button secondary" rel="prev" href="${escapeHtml(href(Math.max(0, pagination.offset - pagination.limit)))}">${escapeHtml(t.previous)}</a>` : ""
  const next = pagination.offset + pagination.limit < pagination.total
    ? `<a class="button secondary" rel="next" href="${escapeHtml(href(pagination.offset + pagination.limit))}">${escapeHtml(t.next)}</a>`
    : ""
  return `<nav class="pager" aria-label="${escapeHtml(t.page)}">${previous}<span>${escapeHtml(t.page)} ${page} ${escapeHtml(t.of)} ${pages}</span>${next}</nav>`
}

/** A non-negative whole offset from the query (0 otherwise). */
export const offsetOf = (c: Console) => {
  const n = Number(c.query.get("offset") ?? "0")
  return Number.isInteger(n) && n >= 0 ? n : 0
}

export const environmentOf = (value: string | null | undefined): "sandbox" | "production" => value === "production" ? "production" : "sandbox"

/**
 * The environment a page shows: the one asked for (`?environment=`), else production when some
 * connector serves production on this host (where its data is), else sandbox, since production
 * has nothing to show. `defaulted` says the page chose it.
 */
export interface Shown {
  readonly environment: "sandbox" | "production"
  readonly defaulted: boolean
}

export const shownEnvironment = (c: Console, asked: string | null | undefined): Effect.Effect<Shown, SessionEnded> =>
  asked === "production" || asked === "sandbox"
    ? Effect.succeed({ environment: asked, defaulted: false })
    : Effect.map(c.api({ method: "GET", path: "/admin/v1/providers" }), (reply) => {
      const providers: ReadonlyArray<{ readonly environments?: ReadonlyArray<string> }> = ok(reply) ? reply.body?.providers ?? [] : []
      const production = providers.some((p) => p.environments?.includes("production") === true)
      return { environment: production ? "production" : "sandbox", defaulted: true }
    })

/** The line that says which environment the page shows (and why, when it chose sandbox itself). */
export const shownNote = (c: Console, shown: Shown) => {
  const t = common(c.language)
  const why = shown.defaulted && shown.environment === "sandbox" ? ` (${escapeHtml(t.noProduction)})` : ""
  return `<p class="muted" data-testid="environment-shown">${escapeHtml(t.shown)}: <strong>${escapeHtml(t[shown.environment])}</strong>${why}</p>`
}
