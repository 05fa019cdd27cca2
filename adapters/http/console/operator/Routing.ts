/**
 * A shop's routing: its provider routes (the cascade by priority) and its routing configuration
 * (strategy, rules, default), versioned: the form carries the version it was opened at, and a
 * write over someone else's is told as a conflict. The rules are edited as JSON; the API's
 * issues are shown on the field they name (`rules.0.providers`).
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import type { ApiReply } from "../ApiClient.ts"
import { formFields } from "../Layout.ts"
import type { Console, ConsoleRoute } from "../Page.ts"
import { dictionary } from "../Text.ts"
import { field, notice, status, table } from "../View.ts"
import { common, environmentOf, failedStatus, failure, ok } from "./Common.ts"

export const routingWords = dictionary((catalog) => catalog.console.operator.routing)

/** What a refused form keeps: its values, and the API's answer (or the console's own JSON error). */
export interface FormState {
  readonly values: URLSearchParams
  readonly errors: ReadonlyMap<string, string>
  readonly reply?: ApiReply
  readonly status: number
}

export interface RoutingState {
  readonly route?: FormState
  readonly config?: FormState
  readonly top?: ApiReply
}

/** The API's field errors gathered on the form's fields: `rules.0.providers` goes to `rules`, told with its path. */
export const onFields = (errors: ReadonlyMap<string, string>, fields: ReadonlyArray<string>) => {
  const gathered = new Map<string, string>()
  for (const [path, message] of errors) {
    const target = fields.find((f) => path === f || path.startsWith(`${f}.`) || path.startsWith(`${f}[`)) ?? fields[fields.length - 1]!
    const text = path === target ? message : `${path}: ${message}`
    gathered.set(target, gathered.has(target) ? `${gathered.get(target)}; ${text}` : text)
  }
  return gathered
}

export const routingPage = (c: Console, shopId: string, environment: "sandbox" | "production", state: RoutingState = {}) =>
  Effect.gen(function*() {
    const t = routingWords(c.language)
    const cw = common(c.language)
    const chooser = `<form method="get" action="/console/operator/routing" class="filters"><div><label for="shopId">${escapeHtml(t.shop)}</label><input id="shopId" name="shopId" value="${escapeHtml(shopId)}" required></div><div><label for="environment">${
      escapeHtml(cw.environment)
    }</label><select id="environment" name="environment">${(["sandbox", "production"] as const).map((e) => `<option value="${e}"${e === environment ? " selected" : ""}>${escapeHtml(cw[e])}</option>`).join("")}</select></div><div><button type="submit" class="secondary">${escapeHtml(t.open)}</button></div></form>`
    if (shopId === "") return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(t.pick)}</p>${chooser}`, { section: "routing" })
    const shop = encodeURIComponent(shopId)
    const [routes, config, providers] = yield* Effect.all([
      c.api({ method: "GET", path: `/admin/v1/shops/${shop}/routes?environment=${environment}` }),
      c.api({ method: "GET", path: `/admin/v1/shops/${shop}/routing?environment=${environment}` }),
      c.api({ method: "GET", path: "/admin/v1/providers" })
    ])
    const bad = [routes, config, providers].find((r) => !ok(r))
    if (bad !== undefined) return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${chooser}${failure(c, bad)}`, { section: "routing", status: failedStatus(bad) })
    const hidden = `<input type="hidden" name="shopId" value="${escapeHtml(shopId)}"><input type="hidden" name="environment" value="${environment}">`
    const routeRows = yield* Effect.forEach(routes.body.routes as ReadonlyArray<any>, (r) =>
      Effect.map(c.newKey, (k) => [
        escapeHtml(r.providerId), escapeHtml(String(r.priority)), escapeHtml(r.methodIds === null ? "—" : r.methodIds.join(", ")), status(r.enabled ? "active" : "disabled"),
        `<form method="post" action="/console/operator/routing/routes/delete" class="inline">${formFields(c.session, k)}${hidden}<input type="hidden" name="providerId" value="${escapeHtml(r.providerId)}"><button type="submit" class="danger" aria-label="${
          escapeHtml(`${t.remove} ${r.providerId}`)
        }">${escapeHtml(t.remove)}</button></form>`
      ]))
    const rv = state.route?.values ?? new URLSearchParams()
    const re = state.route?.errors ?? new Map<string, string>()
    const providerOptions = (providers.body.providers as ReadonlyArray<any>)
      .filter((p) => p.environments.includes(environment))
      .map((p) => [p.id as string, `${p.name} (${p.id})`] as const)
    const routeForm = `<section class="card" aria-labelledby="route-heading"><h3 id="route-heading">${escapeHtml(t.addRoute)}</h3>${state.route?.reply === undefined ? "" : failure(c, state.route.reply)}
<form method="post" action="/console/operator/routing/routes" class="stack">${formFields(c.session, yield* c.newKey)}${hidden}
${field("providerId", t.provider, { options: providerOptions, value: rv.get("providerId") ?? "", error: re.get("providerId") })}
${field("priority", t.priority, { type: "number", required: true, value: rv.get("priority") ?? "1", error: re.get("priority") })}
${field("methodIds", t.methods, { value: rv.get("methodIds") ?? "", hint: t.methodsHint, error: re.get("methodIds") })}
${field("enabled", t.enabled, { options: [["true", t.yes], ["false", t.no]], value: rv.get("enabled") ?? "true", error: re.get("enabled") })}
<div><button type="submit">${escapeHtml(t.save)}</button></div></form></section>`
    const current = config.body
    const cv = state.config?.values
    const ce = state.config?.errors ?? new Map<string, string>()
    const rulesText = cv?.get("rules") ?? JSON.stringify(current.config?.rules ?? [], null, 2)
    const defaultText = cv?.get("default") ?? (current.config?.default === undefined ? "" : JSON.stringify(current.config.default, null, 2))
    const configForm = `<section aria-labelledby="config-heading"><h2 id="config-heading">${escapeHtml(t.config)}</h2>
<p>${escapeHtml(t.version)}: <strong data-testid="routing-version">${escapeHtml(String(current.version))}</strong>${current.version === 0 ? ` <span class="muted">(${escapeHtml(t.never)})</span>` : ""}</p>
${state.config?.reply === undefined ? "" : failure(c, state.config.reply)}
<form method="post" action="/console/operator/routing/config" class="stack" style="max-width:48rem">${formFields(c.session, yield* c.newKey)}${hidden}<input type="hidden" name="version" value="${escapeHtml(cv?.get("version") ?? String(current.version))}">
${field("strategy", t.strategy, { options: (["health", "static", "success_rate"] as const).map((s) => [s, t[s]] as const), value: cv?.get("strategy") ?? current.config?.strategy ?? "health", error: ce.get("strategy") })}
${field("rules", t.rules, { type: "textarea", value: rulesText, hint: t.rulesHint, error: ce.get("rules"), attributes: 'rows="12" spellcheck="false"' })}
${field("default", t.defaultSel, { type: "textarea", value: defaultText, hint: t.defaultHint, error: ce.get("default"), attributes: 'rows="4" spellcheck="false"' })}
<div><button type="submit">${escapeHtml(t.saveConfig)}</button></div></form></section>`
    const done = c.query.get("done")
    const doneText = done === "route" ? t.doneRoute : done === "removed" ? t.doneRemoved : done === "config" ? t.doneConfig : undefined
    const status_ = state.route?.status ?? state.config?.status ?? (state.top === undefined ? undefined : failedStatus(state.top))
    return c.page(t.title, `<h1 style="overflow-wrap:anywhere">${escapeHtml(t.title)}: ${escapeHtml(shopId)}</h1>${doneText === undefined ? "" : notice(doneText)}${state.top === undefined ? "" : failure(c, state.top)}${chooser}
<section aria-labelledby="routes-heading"><h2 id="routes-heading">${escapeHtml(t.routes)}</h2>
${table(t.routes, [{ label: t.provider }, { label: t.priority, numeric: true }, { label: t.methods }, { label: t.enabled }, { label: t.remove }], routeRows, t.none)}
${routeForm}</section>${configForm}`, { section: "routing", ...(status_ === undefined ? {} : { status: status_ }) })
  })

export const routingRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/operator/routing",
    side: "operator",
    handler: (c) => routingPage(c, (c.query.get("shopId") ?? "").trim(), environmentOf(c.query.get("environment")))
  }
]
