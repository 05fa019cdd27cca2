/**
 * A reconciliation report's page: its counts, how it explains the provider clearing account per
 * currency, and the discrepancies it found, each with its own page (both sides: the provider's
 * line and the engine's record) and, while open, the queues' resolve action.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { formFields } from "../Layout.ts"
import type { Console, ConsoleRoute } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { facts, field, link, money, notice, status, table } from "../View.ts"
import { failedStatus, failure, offsetOf, ok, pager, shownEnvironment } from "./Common.ts"

export const sourceWords = dictionary((catalog) => catalog.console.operator.reconciliationSources)

const words = dictionary((catalog) => catalog.console.operator.reconciliationReport)

export const reportHref = (id: string, environment: string) =>
  `/console/operator/reconciliation/reports/${encodeURIComponent(id)}?environment=${environment}`

const discrepancyHref = (id: string, environment: string) =>
  `/console/operator/reconciliation/discrepancies/${encodeURIComponent(id)}?environment=${environment}`

/** The id in `/console/operator/reconciliation/{reports|discrepancies}/{id}`. */
const idOf = (c: Console) => c.params["id"] ?? ""

const text = (value: unknown) => value === null || value === undefined ? "—" : escapeHtml(String(value))
const code = (value: unknown) => value === null || value === undefined ? "—" : `<code>${escapeHtml(String(value))}</code>`

const reportPage = (c: Console) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const environment = (yield* shownEnvironment(c, c.query.get("environment"))).environment
    const id = idOf(c)
    const offset = offsetOf(c)
    const [report, found] = yield* Effect.all([
      c.api({ method: "GET", path: `/admin/v1/reconciliation/reports/${encodeURIComponent(id)}?environment=${environment}` }),
      c.api({ method: "GET", path: `/admin/v1/reconciliation/discrepancies?${new URLSearchParams({ environment, reportId: id, limit: "50", offset: String(offset) }).toString()}` })
    ])
    const bad = [report, found].find((r) => !ok(r))
    if (bad !== undefined) return c.page(t.report, `<h1>${escapeHtml(t.report)}</h1>${failure(c, bad)}`, { section: "reconciliation", status: failedStatus(bad) })
    const r = report.body
    const done = c.query.get("done")
    const summary = facts([
      [t.provider, escapeHtml(r.provider)],
      [t.format, escapeHtml(r.format)],
      [t.source, escapeHtml(sourceWords(c.language)[r.source as "upload" | "fetch"] ?? r.source)],
      [t.period, `${escapeHtml(formatDateTime(r.period.start, c.language))} – ${escapeHtml(formatDateTime(r.period.end, c.language))}`],
      [t.imported, escapeHtml(formatDateTime(r.createdAt, c.language))],
      [t.file, code(r.fileSha256)]
    ])
    const counts = facts([
      [t.lines, text(r.counts.lines)],
      [t.matched, text(r.counts.matched)],
      [t.unmatchable, text(r.counts.unmatchable)]
    ])
    const kinds = Object.entries(r.counts.discrepancies as Record<string, number>)
    const byKind = table(t.byKind, [{ label: t.kind }, { label: t.count, numeric: true }], kinds.map(([kind, n]) => [status(kind, "bad"), text(n)]), t.noKinds)
    const clearing = table(t.clearing, [
      { label: t.currency }, { label: t.engineExpects, numeric: true }, { label: t.providerReported, numeric: true },
      { label: t.pending, numeric: true }, { label: t.discrepancyAmount, numeric: true }
    ], (r.clearing.byCurrency as ReadonlyArray<any>).map((x) => [
      escapeHtml(x.currency), money(x.engineExpects, x.currency, c.language), money(x.providerReported, x.currency, c.language),
      money(x.pendingAtProvider, x.currency, c.language), money(x.discrepancies, x.currency, c.language)
    ]), "—")
    const rows = (found.body.data as ReadonlyArray<any>).map((d) => [
      link(discrepancyHref(d.id, environment), d.id), status(d.kind, "bad"), status(d.status), text(d.shopId),
      `<span style="display:inline-block;min-width:14rem;white-space:normal">${escapeHtml(d.detail)}</span>`, escapeHtml(formatDateTime(d.createdAt, c.language))
    ])
    const list = table(t.discrepancies, [{ label: t.id }, { label: t.kind }, { label: t.state }, { label: t.shop }, { label: t.detail }, { label: t.created }], rows, t.none)
    const body = `<p>${link(`/console/operator/reconciliation?environment=${environment}`, t.back)}</p><h1>${escapeHtml(t.report)} <code>${escapeHtml(r.id)}</code></h1>${
      done === "imported" ? notice(t.doneImported) : done === "known" ? notice(t.doneKnown) : ""
    }<div class="grid">${summary}${counts}</div>
<section><h2 id="kinds-heading">${escapeHtml(t.byKind)}</h2>${byKind}</section>
<section><h2 id="clearing-heading">${escapeHtml(t.clearing)}</h2><p class="muted">${escapeHtml(t.clearingRule)}</p>${clearing}
<p>${escapeHtml(t.clearingUsd)}: <strong data-testid="clearing-usd">${money(r.clearing.clearingUsd, "USD", c.language)}</strong></p></section>
<section aria-labelledby="discrepancies-heading"><h2 id="discrepancies-heading">${escapeHtml(t.discrepancies)} <span class="muted">(${found.body.pagination.total})</span></h2>${list}${
      pager(c, `/console/operator/reconciliation/reports/${encodeURIComponent(r.id)}`, found.body.pagination, { environment })
    }<p>${link(`/console/operator/queues?environment=${environment}`, t.toQueues)}</p></section>`
    return c.page(`${t.report} ${r.id}`, body, { section: "reconciliation" })
  })

const discrepancyPage = (c: Console) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const environment = (yield* shownEnvironment(c, c.query.get("environment"))).environment
    const reply = yield* c.api({ method: "GET", path: `/admin/v1/reconciliation/discrepancies/${encodeURIComponent(idOf(c))}?environment=${environment}` })
    if (!ok(reply)) return c.page(t.discrepancy, `<h1>${escapeHtml(t.discrepancy)}</h1>${failure(c, reply)}`, { section: "reconciliation", status: failedStatus(reply) })
    const d = reply.body
    const line = d.providerSide
    const record = d.engineSide
    const providerSide = line === null ? `<p class="muted">${escapeHtml(t.noLine)}</p>` : facts([
      [t.line, text(line.line)], [t.kind, text(line.kind)], [t.providerRef, code(line.providerRef)], [t.reference, code(line.reference)],
      [t.providerStatus, `${text(line.status)} → ${text(line.normalized)}`], [t.amount, money(line.amount, line.currency, c.language)],
      [t.fee, line.fee === null ? "—" : money(line.fee, line.feeCurrency ?? line.currency, c.language)], [t.occurred, escapeHtml(formatDateTime(line.occurredAt, c.language))]
    ])
    const engineSide = record === null ? `<p class="muted">${escapeHtml(t.noRecord)}</p>` : facts([
      [t.record, `${text(record.kind)} ${code(record.id)}`], [t.shop, code(record.shopId)], [t.providerRef, code(record.providerRef)], [t.state, status(record.status)],
      [t.moved, escapeHtml(record.moved ? t.yes : t.no)], [t.amount, money(record.amount, record.currency, c.language)],
      [t.feeUsd, record.feeUsd === null ? "—" : money(record.feeUsd, "USD", c.language)], [t.clearingUsd, money(record.clearingUsd, "USD", c.language)],
      [t.movedAt, escapeHtml(formatDateTime(record.movedAt, c.language))]
    ])
    const resolution = d.resolution === null
      // The queues' own resolve action (QueueActions.ts): on success it lands on the queues with a notice.
      ? `<section class="card" style="margin-top:1rem" aria-labelledby="resolve-heading"><h2 id="resolve-heading">${escapeHtml(t.resolve)}</h2>
<form method="post" action="/console/operator/queues/discrepancies" class="stack">${formFields(c.session, yield* c.newKey)}<input type="hidden" name="id" value="${escapeHtml(d.id)}"><input type="hidden" name="environment" value="${environment}"><input type="hidden" name="olderThanMinutes" value="60">
${field("note", t.note, { type: "textarea", required: true, attributes: 'maxlength="2000"' })}
${field("resolvedBy", t.resolvedBy, { required: true, value: "operator", attributes: 'maxlength="200"' })}
${field("writeOffUsd", t.writeOff, { hint: t.writeOffHint, attributes: 'inputmode="decimal"' })}
<div><button type="submit">${escapeHtml(t.resolveButton)}</button></div></form></section>`
      : `<section aria-labelledby="resolution-heading"><h2 id="resolution-heading">${escapeHtml(t.resolution)}</h2>${
        facts([
          [t.note, escapeHtml(d.resolution.note)], [t.resolvedBy, escapeHtml(d.resolution.by)], [t.resolvedAt, escapeHtml(formatDateTime(d.resolution.at, c.language))],
          [t.adjustment, code(d.resolution.adjustmentEntryId)]
        ])
      }</section>`
    const body = `<p>${link(reportHref(d.reportId, environment), `${t.report} ${d.reportId}`)}</p><h1>${escapeHtml(t.discrepancy)} <code>${escapeHtml(d.id)}</code></h1>
${facts([[t.kind, status(d.kind, "bad")], [t.state, status(d.status)], [t.provider, escapeHtml(d.provider)], [t.shop, code(d.shopId)], [t.detail, escapeHtml(d.detail)], [t.created, escapeHtml(formatDateTime(d.createdAt, c.language))]])}
<div class="grid" style="margin-top:1rem"><section aria-labelledby="provider-side"><h2 id="provider-side">${escapeHtml(t.providerSide)}</h2>${providerSide}</section>
<section aria-labelledby="engine-side"><h2 id="engine-side">${escapeHtml(t.engineSide)}</h2>${engineSide}</section></div>${resolution}`
    return c.page(`${t.discrepancy} ${d.id}`, body, { section: "reconciliation" })
  })

export const reportRoutes: ReadonlyArray<ConsoleRoute> = [
  { method: "GET", path: "/console/operator/reconciliation/reports/:id", side: "operator", handler: reportPage },
  { method: "GET", path: "/console/operator/reconciliation/discrepancies/:id", side: "operator", handler: discrepancyPage }
]
