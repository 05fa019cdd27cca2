/** FX rates: the mid rates per USD and the markup, and setting or withdrawing one. */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { type ApiReply, fieldErrors } from "../ApiClient.ts"
import { formFields } from "../Layout.ts"
import type { Console, ConsoleRoute } from "../Page.ts"
import { redirect } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { field, notice, status, table } from "../View.ts"
import { failedStatus, failure, ok } from "./Common.ts"

const words = dictionary((catalog) => catalog.console.operator.fxRates)

const fxPage = (c: Console, state?: { values: URLSearchParams; errors: ReadonlyMap<string, string>; reply: ApiReply }) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const reply = yield* c.api({ method: "GET", path: "/admin/v1/fx-rates" })
    if (!ok(reply)) return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${failure(c, reply)}`, { section: "fxRates", status: failedStatus(reply) })
    const rows = (reply.body.rates as ReadonlyArray<any>).map((r) => [
      escapeHtml(r.currency), escapeHtml(String(r.perUsd)), r.enabled ? status("active") : `<span class="status bad">${escapeHtml(t.withdrawn)}</span>`, escapeHtml(formatDateTime(r.updatedAt, c.language))
    ])
    const v = state?.values ?? new URLSearchParams()
    const e = state?.errors ?? new Map<string, string>()
    const form = `<section class="card" aria-labelledby="set-heading"><h2 id="set-heading">${escapeHtml(t.set)}</h2>${state === undefined ? "" : failure(c, state.reply)}
<form method="post" action="/console/operator/fx-rates" class="stack">${formFields(c.session, yield* c.newKey)}
${field("currency", t.currency, { required: true, value: v.get("currency") ?? "", hint: t.currencyHint, error: e.get("currency"), attributes: 'maxlength="3" autocapitalize="characters"' })}
${field("perUsd", t.perUsd, { required: true, value: v.get("perUsd") ?? "", error: e.get("perUsd"), attributes: 'inputmode="decimal"' })}
${field("enabled", t.enabled, { options: [["true", t.yes], ["false", t.no]], value: v.get("enabled") ?? "true", error: e.get("enabled") })}
<div><button type="submit">${escapeHtml(t.save)}</button></div></form></section>`
    return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${c.query.get("done") === "saved" ? notice(t.done) : ""}<p>${escapeHtml(t.markup)}: <strong>${escapeHtml(String(reply.body.markupPct))} %</strong></p>
${table(t.title, [{ label: t.currency }, { label: t.perUsd, numeric: true }, { label: t.enabled }, { label: t.updated }], rows, t.none)}${form}`, {
      section: "fxRates",
      ...(state === undefined ? {} : { status: failedStatus(state.reply) })
    })
  })

export const fxRateRoutes: ReadonlyArray<ConsoleRoute> = [
  { method: "GET", path: "/console/operator/fx-rates", side: "operator", handler: (c) => fxPage(c) },
  {
    method: "POST",
    path: "/console/operator/fx-rates",
    side: "operator",
    handler: (c) =>
      Effect.gen(function*() {
        const currency = (c.form.get("currency") ?? "").trim()
        const text = (c.form.get("perUsd") ?? "").trim()
        const perUsd = Number(text)
        const reply = yield* c.api({
          method: "PUT",
          path: `/admin/v1/fx-rates/${encodeURIComponent(currency === "" ? "-" : currency)}`,
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined,
          // Not a number: sent as typed, so that the API names the field.
          body: { perUsd: text !== "" && Number.isFinite(perUsd) ? perUsd : text, enabled: c.form.get("enabled") !== "false" }
        })
        if (ok(reply)) return redirect("/console/operator/fx-rates?done=saved")
        return yield* fxPage(c, { values: c.form, errors: fieldErrors(reply), reply })
      })
  }
]
