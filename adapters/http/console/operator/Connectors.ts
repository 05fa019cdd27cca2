/**
 * Connectors: the provider instances this host runs and their health per rail, from what routing
 * learns (GET /admin/v1/providers/health): the circuit now, the conversion (on a card rail, the
 * acquirer's approval on that brand) and the card declines by normalized word, and per hour the
 * conversion and the answer latency, as charts with their numbers in a table.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { lineChart } from "../Chart.ts"
import type { ConsoleRoute } from "../Page.ts"
import { dictionary } from "../Text.ts"
import { table } from "../View.ts"
import { common, failedStatus, failure, ok, shownEnvironment, shownNote } from "./Common.ts"

const words = dictionary((catalog) => catalog.console.operator.connectors)

const percent = (value: number | null) => value === null ? "—" : `${(value * 100).toFixed(1)} %`

export const connectorRoutes: ReadonlyArray<ConsoleRoute> = [{
  method: "GET",
  path: "/console/operator/connectors",
  side: "operator",
  handler: (c) =>
    Effect.gen(function*() {
      const t = words(c.language)
      const cw = common(c.language)
      const shown = yield* shownEnvironment(c, c.query.get("environment"))
      const environment = shown.environment
      const asked = Number(c.query.get("hours") ?? "24")
      const hours = Number.isInteger(asked) && asked >= 1 && asked <= 168 ? asked : 24
      const [providers, health] = yield* Effect.all([
        c.api({ method: "GET", path: "/admin/v1/providers" }),
        c.api({ method: "GET", path: `/admin/v1/providers/health?environment=${environment}&hours=${hours}` })
      ])
      const bad = [providers, health].find((r) => !ok(r))
      if (bad !== undefined) return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${failure(c, bad)}`, { section: "connectors", status: failedStatus(bad) })
      const filters = `<form method="get" action="/console/operator/connectors" class="filters"><div><label for="environment">${escapeHtml(cw.environment)}</label><select id="environment" name="environment">${
        (["production", "sandbox"] as const).map((e) => `<option value="${e}"${e === environment ? " selected" : ""}>${escapeHtml(cw[e])}</option>`).join("")
      }</select></div><div><label for="hours">${escapeHtml(t.window)}</label><input id="hours" name="hours" type="number" min="1" max="168" value="${hours}"></div><div><button type="submit" class="secondary">${escapeHtml(t.show)}</button></div></form>`
      const instances = table(t.instances, [{ label: t.id }, { label: t.name }, { label: t.environments }], (providers.body.providers as ReadonlyArray<any>).map((p) => [
        escapeHtml(p.id), escapeHtml(p.name), escapeHtml(p.environments.join(", "))
      ]), t.none)
      const rails: ReadonlyArray<any> = health.body.rails
      const circuit = (state: "closed" | "open" | "half_open") =>
        `<span class="status ${state === "closed" ? "good" : state === "open" ? "bad" : "wait"}">${escapeHtml(t[state])}</span>`
      const summary = table(t.health, [{ label: t.provider }, { label: t.rail }, { label: t.circuit }, { label: t.attempts, numeric: true }, { label: t.failures, numeric: true }, { label: t.conversion, numeric: true }, { label: t.declines }], rails.map((r) => [
        escapeHtml(r.providerId), escapeHtml(r.methodId), circuit(r.circuit.state), escapeHtml(String(r.attempts)), escapeHtml(String(r.bad)), escapeHtml(percent(r.conversion)),
        escapeHtml((r.declines as ReadonlyArray<{ decline: string; count: number }>).map((d) => `${d.decline} ${d.count}`).join(", ") || "—")
      ]), t.noHealth)
      const charts = rails.map((r, i) => {
        const labels = (r.hours as ReadonlyArray<any>).map((h) => `${String(h.hour).slice(11, 16)}`)
        return `<section aria-labelledby="rail-${i}"><h3 id="rail-${i}">${escapeHtml(`${r.providerId} · ${r.methodId}`)}</h3><div class="grid" style="grid-template-columns:repeat(auto-fill,minmax(min(100%,26rem),1fr))">${
          lineChart({
            title: `${t.conversionChart}: ${r.providerId} ${r.methodId}`,
            labels,
            labelHeader: t.hour,
            series: [{ name: t.conversionSeries, values: r.hours.map((h: any) => h.conversion === null ? null : Math.round(h.conversion * 1000) / 10) }]
          })
        }${
          lineChart({
            title: `${t.latencyChart}: ${r.providerId} ${r.methodId}`,
            labels,
            labelHeader: t.hour,
            series: [{ name: t.p50, values: r.hours.map((h: any) => h.p50LatencyMs) }, { name: t.p95, values: r.hours.map((h: any) => h.p95LatencyMs) }]
          })
        }</div></section>`
      })
      return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${shownNote(c, shown)}${filters}<h2>${escapeHtml(t.instances)}</h2>${instances}<h2>${escapeHtml(t.health)}</h2>${summary}${charts.join("")}`, { section: "connectors" })
    })
}]
