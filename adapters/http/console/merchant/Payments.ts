/**
 * Payments: the list with its filters (all of them `GET /api/v1/payments` parameters, so the
 * API checks them and names a bad one; the search box is `userEmail` when it holds an `@`, else
 * `transactionId`), paged by keyset (`startingAfter`): "Next" shows the
 * payments strictly older than the last one shown, so none is skipped or repeated while new ones
 * arrive.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { fieldErrors } from "../ApiClient.ts"
import type { ConsoleRoute } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { field, link, money, problem, status, table } from "../View.ts"
import { paymentDetailRoutes } from "./PaymentDetail.ts"
import { refundRoutes } from "./Refund.ts"

const words = dictionary((catalog) => catalog.console.merchant.payments)

const statuses = ["pending", "completed", "failed", "refunded", "expired", "chargeback"] as const

/** The console's filter fields, each the API parameter of the same name. */
const filterNames = ["status", "method", "country", "merchantOrderId", "createdFrom", "createdTo", "amountMin", "amountMax"] as const

const pageSize = 25

const listRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/payments",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const t = words(c.language)
        const filters = new URLSearchParams()
        for (const name of filterNames) {
          const value = (c.query.get(name) ?? "").trim()
          if (value !== "") filters.set(name, value)
        }
        const api = new URLSearchParams(filters)
        const search = (c.query.get("search") ?? "").trim()
        if (search !== "") {
          filters.set("search", search)
          api.set(search.includes("@") ? "userEmail" : "transactionId", search)
        }
        // One more than shown: whether there is a next page, without a count.
        api.set("limit", String(pageSize + 1))
        const after = c.query.get("startingAfter")
        if (after !== null && after !== "") api.set("startingAfter", after)
        const [reply, methods] = yield* Effect.all([
          c.api({ method: "GET", path: `/api/v1/payments?${api}` }),
          c.api({ method: "GET", path: "/api/v1/payment-methods" })
        ], { concurrency: 2 })
        const failed = reply.status >= 400
        const errors = failed ? fieldErrors(reply) : new Map<string, string>()
        // Each method once; a label two methods share ("Cash voucher") says which one it is.
        const catalog = (methods.body?.methods ?? []) as ReadonlyArray<{ method: string; methodLabel: string; name: string }>
        const byMethod = new Map<string, { readonly label: string; readonly names: Set<string> }>()
        for (const m of catalog) {
          const known = byMethod.get(m.method) ?? { label: m.methodLabel, names: new Set<string>() }
          known.names.add(m.name)
          byMethod.set(m.method, known)
        }
        const labelCount = new Map<string, number>()
        for (const { label } of byMethod.values()) labelCount.set(label, (labelCount.get(label) ?? 0) + 1)
        const methodOptions: Array<readonly [string, string]> = [["", t.any]]
        for (const [method, { label, names }] of byMethod) {
          const which = names.size === 1 ? [...names][0]! : method
          methodOptions.push([method, (labelCount.get(label) ?? 0) > 1 && which !== label ? `${label} (${which})` : label])
        }
        const value = (name: string) => filters.get(name) ?? ""
        const error = (name: string) => errors.get(name)
        const form = `<form method="get" action="/console/payments" class="filters" aria-label="${escapeHtml(t.filters)}">
${field("search", t.search, { type: "search", value: value("search"), error: error("userEmail") ?? error("transactionId"), attributes: 'autocomplete="off"' })}
${field("status", t.status, { value: value("status"), error: error("status"), options: [["", t.any], ...statuses.map((s) => [s, t[s]] as const)] })}
${field("method", t.method, { value: value("method"), error: error("method"), options: methodOptions })}
${field("country", t.country, { value: value("country"), error: error("country"), attributes: 'maxlength="3" autocomplete="off"' })}
${field("merchantOrderId", t.order, { value: value("merchantOrderId"), error: error("merchantOrderId"), attributes: 'autocomplete="off"' })}
${field("createdFrom", t.from, { type: "date", value: value("createdFrom"), error: error("createdFrom") })}
${field("createdTo", t.to, { type: "date", value: value("createdTo"), error: error("createdTo") })}
${field("amountMin", t.amountMin, { value: value("amountMin"), error: error("amountMin"), attributes: 'inputmode="decimal" autocomplete="off"' })}
${field("amountMax", t.amountMax, { value: value("amountMax"), error: error("amountMax"), attributes: 'inputmode="decimal" autocomplete="off"' })}
<div style="grid-column:1/-1;display:flex;gap:.5rem;flex-wrap:wrap"><button type="submit">${escapeHtml(t.apply)}</button><a class="button secondary" style="box-sizing:border-box" href="/console/payments">${escapeHtml(t.clear)}</a></div>
</form>`
        if (failed) {
          return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${form}${problem(reply)}`, { section: "payments", status: reply.status })
        }
        const all: ReadonlyArray<any> = reply.body?.data ?? []
        const rows = all.slice(0, pageSize)
        const hasNext = all.length > pageSize
        const list = table(t.title, [
          { label: t.id },
          { label: t.status },
          { label: t.amount, numeric: true },
          { label: t.local, numeric: true },
          { label: t.buyer },
          { label: t.method },
          { label: t.order },
          { label: t.created }
        ], rows.map((p) => [
          link(`/console/payments/${encodeURIComponent(p.id)}`, p.id),
          status(p.status),
          money(p.amount, "USD", c.language),
          money(p.amountLocal, p.currencyLocal, c.language),
          p.buyer?.name == null && p.buyer?.email == null
            ? "—"
            : `${escapeHtml(p.buyer?.name ?? "")}${p.buyer?.email == null ? "" : `<br><span class="muted">${escapeHtml(p.buyer.email)}</span>`}`,
          escapeHtml(p.paymentMethodName),
          escapeHtml(p.merchantOrderId ?? "—"),
          escapeHtml(formatDateTime(p.timestamps?.created, c.language))
        ]), t.none)
        const nextQuery = new URLSearchParams(filters)
        const last = rows[rows.length - 1]
        if (last !== undefined) nextQuery.set("startingAfter", last.id)
        const pager = `<nav class="pager" aria-label="${escapeHtml(t.paging)}"><span class="muted">${escapeHtml(String(reply.body?.pagination?.total ?? 0))} ${escapeHtml(t.total)}</span>${
          after === null || after === "" ? "" : link(`/console/payments${filters.size === 0 ? "" : `?${filters}`}`, t.first)
        }${hasNext ? `<a href="/console/payments?${escapeHtml(nextQuery.toString())}" rel="next">${escapeHtml(t.next)}</a>` : ""}</nav>`
        return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${form}${list}${pager}`, { section: "payments" })
      })
  }
]

/** The payments area: list, detail, refund. */
export const paymentRoutes: ReadonlyArray<ConsoleRoute> = [...listRoutes, ...paymentDetailRoutes, ...refundRoutes]
