/** A shop's deposit settings: which deposit methods it offers, and whether an account needs a phone. */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { type ApiReply, fieldErrors } from "../ApiClient.ts"
import { formFields } from "../Layout.ts"
import type { Console, ConsoleRoute } from "../Page.ts"
import { redirect } from "../Page.ts"
import { dictionary } from "../Text.ts"
import { field, notice } from "../View.ts"
import { common, environmentOf, failedStatus, failure, ok } from "./Common.ts"

const words = dictionary((catalog) => catalog.console.operator.depositSettings)

const page = (c: Console, shopId: string, environment: "sandbox" | "production", failed?: { values: URLSearchParams; reply: ApiReply }) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const cw = common(c.language)
    const reply = yield* c.api({ method: "GET", path: `/admin/v1/shops/${encodeURIComponent(shopId)}/deposit-settings?environment=${environment}` })
    const heading = `<h1 style="overflow-wrap:anywhere">${escapeHtml(t.title)}: ${escapeHtml(shopId)}</h1>`
    const links = `<p><a href="/console/operator/merchants">${escapeHtml(t.back)}</a> · ${
      (["sandbox", "production"] as const).map((e) => e === environment ? `<strong>${escapeHtml(cw[e])}</strong>` : `<a href="/console/operator/merchants/deposits?shopId=${encodeURIComponent(shopId)}&amp;environment=${e}">${escapeHtml(cw[e])}</a>`).join(" · ")
    }</p>`
    if (!ok(reply)) return c.page(t.title, `${heading}${links}${failure(c, reply)}`, { section: "merchants", status: failedStatus(reply) })
    const errors = failed === undefined ? new Map<string, string>() : fieldErrors(failed.reply)
    const methodsError = [...errors].find(([k]) => k.startsWith("depositMethodIds"))
    const form = `<form method="post" action="/console/operator/merchants/deposits" class="stack">${formFields(c.session, yield* c.newKey)}<input type="hidden" name="shopId" value="${escapeHtml(shopId)}"><input type="hidden" name="environment" value="${environment}">
${field("depositMethodIds", t.methods, { value: failed?.values.get("depositMethodIds") ?? reply.body.depositMethodIds.join(", "), hint: t.methodsHint, error: methodsError === undefined ? undefined : `${methodsError[0]}: ${methodsError[1]}` })}
${field("requirePhone", t.phone, { options: [["false", t.no], ["true", t.yes]], value: failed?.values.get("requirePhone") ?? String(reply.body.requirePhone), error: errors.get("requirePhone") })}
<div><button type="submit">${escapeHtml(t.save)}</button></div></form>`
    return c.page(t.title, `${heading}${links}${c.query.get("done") === "saved" ? notice(t.done) : ""}${failed === undefined ? "" : failure(c, failed.reply)}${form}`, {
      section: "merchants",
      ...(failed === undefined ? {} : { status: failedStatus(failed.reply) })
    })
  })

export const depositSettingRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/operator/merchants/deposits",
    side: "operator",
    handler: (c) => page(c, (c.query.get("shopId") ?? "").trim(), environmentOf(c.query.get("environment")))
  },
  {
    method: "POST",
    path: "/console/operator/merchants/deposits",
    side: "operator",
    handler: (c) =>
      Effect.gen(function*() {
        const shopId = c.form.get("shopId") ?? ""
        const environment = environmentOf(c.form.get("environment"))
        const reply = yield* c.api({
          method: "PUT",
          path: `/admin/v1/shops/${encodeURIComponent(shopId)}/deposit-settings`,
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined,
          body: {
            environment,
            depositMethodIds: (c.form.get("depositMethodIds") ?? "").split(",").map((m) => m.trim()).filter((m) => m !== ""),
            requirePhone: c.form.get("requirePhone") === "true"
          }
        })
        if (ok(reply)) return redirect(`/console/operator/merchants/deposits?shopId=${encodeURIComponent(shopId)}&environment=${environment}&done=saved`)
        return yield* page(c, shopId, environment, { values: c.form, reply })
      })
  }
]
