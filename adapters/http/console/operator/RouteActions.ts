/**
 * The routing page's actions: put or remove a provider route, and write the routing configuration
 * at the version the form was opened at (a write since then: 409, told as a conflict).
 */
import { Effect } from "effect"
import { fieldErrors } from "../ApiClient.ts"
import type { ConsoleRoute } from "../Page.ts"
import { redirect } from "../Page.ts"
import { environmentOf, failedStatus, ok } from "./Common.ts"
import { onFields, routingPage, routingWords } from "./Routing.ts"

const back = (shopId: string, environment: string, done: string) =>
  `/console/operator/routing?shopId=${encodeURIComponent(shopId)}&environment=${environment}&done=${done}`

type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false }
const parse = (text: string): Parsed => {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

export const routeActionRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "POST",
    path: "/console/operator/routing/routes",
    side: "operator",
    handler: (c) =>
      Effect.gen(function*() {
        const shopId = c.form.get("shopId") ?? ""
        const environment = environmentOf(c.form.get("environment"))
        const providerId = c.form.get("providerId") ?? ""
        const methods = (c.form.get("methodIds") ?? "").split(",").map((m) => m.trim()).filter((m) => m !== "")
        const priority = Number(c.form.get("priority") ?? "")
        const reply = yield* c.api({
          method: "PUT",
          path: `/admin/v1/shops/${encodeURIComponent(shopId)}/routes/${encodeURIComponent(providerId)}`,
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined,
          body: {
            environment,
            // Not a number: sent as typed, so that the API names the field.
            priority: (c.form.get("priority") ?? "").trim() !== "" && Number.isFinite(priority) ? priority : c.form.get("priority") ?? "",
            methodIds: methods.length === 0 ? null : methods,
            enabled: c.form.get("enabled") !== "false"
          }
        })
        if (ok(reply)) return redirect(back(shopId, environment, "route"))
        return yield* routingPage(c, shopId, environment, {
          route: { values: c.form, errors: onFields(fieldErrors(reply), ["providerId", "priority", "methodIds", "enabled", "environment"]), reply, status: failedStatus(reply) }
        })
      })
  },
  {
    method: "POST",
    path: "/console/operator/routing/routes/delete",
    side: "operator",
    handler: (c) =>
      Effect.gen(function*() {
        const shopId = c.form.get("shopId") ?? ""
        const environment = environmentOf(c.form.get("environment"))
        const providerId = c.form.get("providerId") ?? ""
        const reply = yield* c.api({
          method: "DELETE",
          path: `/admin/v1/shops/${encodeURIComponent(shopId)}/routes/${encodeURIComponent(providerId)}?environment=${environment}`,
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined
        })
        if (ok(reply)) return redirect(back(shopId, environment, "removed"))
        return yield* routingPage(c, shopId, environment, { top: reply })
      })
  },
  {
    method: "POST",
    path: "/console/operator/routing/config",
    side: "operator",
    handler: (c) =>
      Effect.gen(function*() {
        const t = routingWords(c.language)
        const shopId = c.form.get("shopId") ?? ""
        const environment = environmentOf(c.form.get("environment"))
        const rules = parse(c.form.get("rules") ?? "")
        const defaultText = (c.form.get("default") ?? "").trim()
        const selection = defaultText === "" ? { ok: true as const, value: undefined } : parse(defaultText)
        const local = new Map<string, string>()
        if (!rules.ok) local.set("rules", t.notJson)
        else if (!Array.isArray(rules.value)) local.set("rules", t.notArray)
        if (!selection.ok) local.set("default", t.notJson)
        else if (selection.value !== undefined && (typeof selection.value !== "object" || selection.value === null || Array.isArray(selection.value))) local.set("default", t.notObject)
        if (local.size > 0) {
          // Nothing was sent: the console's own check, told on the fields like the API's.
          return yield* routingPage(c, shopId, environment, { config: { values: c.form, errors: local, status: 400 } })
        }
        const version = Number(c.form.get("version") ?? "0")
        const reply = yield* c.api({
          method: "PUT",
          path: `/admin/v1/shops/${encodeURIComponent(shopId)}/routing`,
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined,
          body: {
            environment,
            version: Number.isInteger(version) ? version : 0,
            strategy: c.form.get("strategy") ?? "",
            rules: rules.ok ? rules.value : [],
            ...(selection.ok && selection.value !== undefined ? { default: selection.value } : {})
          }
        })
        if (ok(reply)) return redirect(back(shopId, environment, "config"))
        return yield* routingPage(c, shopId, environment, {
          config: { values: c.form, errors: onFields(fieldErrors(reply), ["strategy", "rules", "default"]), reply, status: failedStatus(reply) }
        })
      })
  }
]

