/**
 * Merchants and shops: the list with paging, creating a merchant, rotating a shop's keys. New keys
 * are shown once, in the answer to the POST that made them (never in a URL, never again).
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { type ApiReply, fieldErrors, replayed } from "../ApiClient.ts"
import { formFields } from "../Layout.ts"
import type { Console, ConsoleRoute } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { field, notice, table } from "../View.ts"
import { failedStatus, failure, offsetOf, ok, pager } from "./Common.ts"

const words = dictionary((catalog) => catalog.console.operator.merchants)

interface CreateState {
  readonly values?: URLSearchParams
  readonly errors?: ReadonlyMap<string, string>
  readonly problem?: string
  readonly status?: number
}

const listPage = (c: Console, state: CreateState = {}) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const offset = offsetOf(c)
    const reply = yield* c.api({ method: "GET", path: `/admin/v1/merchants?limit=20&offset=${offset}` })
    if (!ok(reply)) return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${failure(c, reply)}`, { section: "merchants", status: failedStatus(reply) })
    const merchants: ReadonlyArray<any> = reply.body.data
    const key = yield* c.newKey
    const rotateForms = yield* Effect.forEach(merchants.flatMap((m) => m.shops as ReadonlyArray<any>), (shop) =>
      Effect.map(c.newKey, (k) =>
        [shop.id as string, `<form method="post" action="/console/operator/merchants/rotate-keys" class="inline">${formFields(c.session, k)}<input type="hidden" name="shopId" value="${escapeHtml(shop.id)}"><button type="submit" class="secondary" aria-label="${escapeHtml(`${t.rotate}: ${shop.name}`)}">${escapeHtml(t.rotate)}</button></form>`] as const
      ))
    const rotate = new Map(rotateForms)
    const rows = merchants.map((m) => [
      `<strong>${escapeHtml(m.name)}</strong><br><span class="muted">${escapeHtml(m.id)}</span>`,
      escapeHtml(m.email),
      escapeHtml(m.tier),
      escapeHtml(formatDateTime(m.createdAt, c.language)),
      (m.shops as ReadonlyArray<any>).map((s) =>
        `<div>${escapeHtml(s.name)} <span class="muted">${escapeHtml(s.id)}</span><br><a href="/console/operator/routing?shopId=${encodeURIComponent(s.id)}">${escapeHtml(t.routing)}</a> · <a href="/console/operator/merchants/deposits?shopId=${encodeURIComponent(s.id)}">${escapeHtml(t.deposits)}</a> ${rotate.get(s.id) ?? ""}</div>`
      ).join("")
    ])
    const errors = state.errors ?? new Map<string, string>()
    const v = state.values ?? new URLSearchParams()
    const createForm = `<section class="card" style="margin-top:1.5rem" aria-labelledby="create-heading"><h2 id="create-heading">${escapeHtml(t.create)}</h2>
<form method="post" action="/console/operator/merchants" class="stack">${formFields(c.session, key)}
${field("name", t.name, { required: true, value: v.get("name") ?? "", error: errors.get("name") })}
${field("email", t.email, { type: "email", required: true, value: v.get("email") ?? "", error: errors.get("email") })}
${field("industry", t.industry, { value: v.get("industry") ?? "", error: errors.get("industry") })}
${field("shops", t.shopNames, { type: "textarea", value: v.get("shops") ?? "", error: [...errors].find(([k]) => k.startsWith("shops"))?.[1] })}
<div><button type="submit">${escapeHtml(t.createButton)}</button></div></form></section>`
    const list = table(t.title, [{ label: t.merchant }, { label: t.email }, { label: t.tier }, { label: t.created }, { label: t.shops }], rows, t.none)
    return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${state.problem ?? ""}${list}${pager(c, "/console/operator/merchants", reply.body.pagination)}${createForm}`, {
      section: "merchants",
      ...(state.status === undefined ? {} : { status: state.status })
    })
  })

const keyBlock = (label: string, publishableLabel: string, secretLabel: string, keys: { publishableKey: string; secretKey: string }) =>
  `<section class="card" aria-label="${escapeHtml(label)}"><h2>${escapeHtml(label)}</h2><p>${escapeHtml(publishableLabel)}</p><p class="secret" data-testid="publishable">${escapeHtml(keys.publishableKey)}</p><p>${escapeHtml(secretLabel)}</p><p class="secret" data-testid="secret">${escapeHtml(keys.secretKey)}</p></section>`

/** The new keys, shown once (`Console.showOnce`: a double click lands on them too). */
const shownOnce = (c: Console, reply: ApiReply, heading: string, summary: string) => {
  const t = words(c.language)
  const keys = reply.body.keys
  return c.showOnce({
    title: heading,
    section: "merchants",
    body: `<h1>${escapeHtml(heading)}</h1>${notice(summary)}<p class="problem" role="note">${escapeHtml(t.keysOnce)}</p>
<div class="grid">${keyBlock(t.sandboxKeys, t.publishable, t.secret, keys.sandbox)}${keyBlock(t.productionKeys, t.publishable, t.secret, keys.production)}</div>
<p><a href="/console/operator/merchants">${escapeHtml(t.back)}</a></p>`
  }, replayed(reply))
}

export const merchantRoutes: ReadonlyArray<ConsoleRoute> = [
  { method: "GET", path: "/console/operator/merchants", side: "operator", handler: (c) => listPage(c) },
  {
    method: "POST",
    path: "/console/operator/merchants",
    side: "operator",
    handler: (c) =>
      Effect.gen(function*() {
        const t = words(c.language)
        const industry = (c.form.get("industry") ?? "").trim()
        const shops = (c.form.get("shops") ?? "").split("\n").map((s) => s.trim()).filter((s) => s !== "")
        const reply = yield* c.api({
          method: "POST",
          path: "/admin/v1/merchants",
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined,
          body: {
            name: c.form.get("name") ?? "",
            email: (c.form.get("email") ?? "").trim(),
            ...(industry === "" ? {} : { industry }),
            ...(shops.length === 0 ? {} : { shops: shops.map((name) => ({ name })) })
          }
        })
        if (!ok(reply)) return yield* listPage(c, { values: c.form, errors: fieldErrors(reply), problem: failure(c, reply), status: failedStatus(reply) })
        return yield* shownOnce(c, reply, t.created201, `${t.created201}: ${reply.body.merchant.name} (${reply.body.merchant.id})`)
      })
  },
  {
    method: "POST",
    path: "/console/operator/merchants/rotate-keys",
    side: "operator",
    handler: (c) =>
      Effect.gen(function*() {
        const t = words(c.language)
        const shopId = c.form.get("shopId") ?? ""
        const reply = yield* c.api({ method: "POST", path: `/admin/v1/shops/${encodeURIComponent(shopId)}/rotate-keys`, idempotencyKey: c.form.get("idempotencyKey") ?? undefined })
        if (!ok(reply)) return yield* listPage(c, { problem: failure(c, reply), status: failedStatus(reply) })
        return yield* shownOnce(c, reply, t.rotated, `${t.rotated}: ${shopId} (${reply.body.revoked} ${t.revoked})`)
      })
  }
]
