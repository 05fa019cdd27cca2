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

export const sourceWords = dictionary({
  en: { upload: "Uploaded", fetch: "Fetched (run)" },
  pt: { upload: "Enviado", fetch: "Buscado (execução)" },
  es: { upload: "Subido", fetch: "Obtenido (ejecución)" }
})

const words = dictionary({
  en: {
    report: "Report", back: "All reports", provider: "Provider", format: "Format", source: "Source", period: "Period", file: "File SHA-256",
    lines: "Lines", matched: "Matched", unmatchable: "Lines about neither a payment nor a refund", imported: "Imported", byKind: "Discrepancies by kind",
    kind: "Kind", count: "Count", clearing: "The provider clearing account explained", clearingRule: "Per currency, for the records this report is about: what the engine expects = what the provider reported + what is still pending at the provider + the discrepancies.",
    currency: "Currency", engineExpects: "Engine expects", providerReported: "Provider reported", pending: "Pending at provider", discrepancyAmount: "In discrepancies",
    clearingUsd: "Booked in provider clearing (USD)", discrepancies: "Discrepancies found", id: "Id", state: "Status", shop: "Shop", detail: "Detail", created: "Found",
    none: "No discrepancy: the provider's report agrees with the engine.", noKinds: "None.", doneImported: "Report imported and matched.",
    doneKnown: "This very file had been imported before: nothing changed.", toQueues: "Resolve open discrepancies in the queues",
    discrepancy: "Discrepancy", providerSide: "The provider's line", engineSide: "The engine's record", line: "Line", providerRef: "Provider reference",
    reference: "Reference", providerStatus: "Provider's status", normalized: "Read as", amount: "Amount", fee: "Fee", occurred: "When",
    record: "Record", moved: "Money moved", feeUsd: "Fee (USD)", movedAt: "Moved at", yes: "Yes", no: "No", noLine: "No line of the report (missing from it).",
    noRecord: "No record of the engine answers this line.", resolution: "Resolution", note: "Note", resolvedBy: "Resolved by", resolvedAt: "Resolved at",
    adjustment: "Adjustment entry", resolve: "Resolve", writeOff: "Write-off USD (optional)", writeOffHint: "Reduces the provider clearing receivable by this amount (negative: the provider owes more); a new journal entry, history is never edited.",
    resolveButton: "Resolve discrepancy"
  },
  pt: {
    report: "Relatório", back: "Todos os relatórios", provider: "Provedor", format: "Formato", source: "Origem", period: "Período", file: "SHA-256 do arquivo",
    lines: "Linhas", matched: "Conciliadas", unmatchable: "Linhas que não são de pagamento nem de reembolso", imported: "Importado", byKind: "Divergências por tipo",
    kind: "Tipo", count: "Quantidade", clearing: "A conta de compensação do provedor explicada", clearingRule: "Por moeda, para os registros deste relatório: o que o motor espera = o que o provedor informou + o que ainda está pendente no provedor + as divergências.",
    currency: "Moeda", engineExpects: "Motor espera", providerReported: "Provedor informou", pending: "Pendente no provedor", discrepancyAmount: "Em divergências",
    clearingUsd: "Lançado na compensação do provedor (USD)", discrepancies: "Divergências encontradas", id: "Id", state: "Situação", shop: "Loja", detail: "Detalhe", created: "Encontrada",
    none: "Nenhuma divergência: o relatório do provedor concorda com o motor.", noKinds: "Nenhuma.", doneImported: "Relatório importado e conciliado.",
    doneKnown: "Este mesmo arquivo já tinha sido importado: nada mudou.", toQueues: "Resolver divergências abertas nas filas",
    discrepancy: "Divergência", providerSide: "A linha do provedor", engineSide: "O registro do motor", line: "Linha", providerRef: "Referência do provedor",
    reference: "Referência", providerStatus: "Situação no provedor", normalized: "Lida como", amount: "Valor", fee: "Tarifa", occurred: "Quando",
    record: "Registro", moved: "Dinheiro movimentado", feeUsd: "Tarifa (USD)", movedAt: "Movimentado em", yes: "Sim", no: "Não", noLine: "Nenhuma linha do relatório (ausente dele).",
    noRecord: "Nenhum registro do motor corresponde a esta linha.", resolution: "Resolução", note: "Nota", resolvedBy: "Resolvido por", resolvedAt: "Resolvido em",
    adjustment: "Lançamento de ajuste", resolve: "Resolver", writeOff: "Baixa em USD (opcional)", writeOffHint: "Reduz o valor a receber do provedor neste montante (negativo: o provedor deve mais); um novo lançamento, o histórico nunca é editado.",
    resolveButton: "Resolver divergência"
  },
  es: {
    report: "Reporte", back: "Todos los reportes", provider: "Proveedor", format: "Formato", source: "Origen", period: "Periodo", file: "SHA-256 del archivo",
    lines: "Líneas", matched: "Conciliadas", unmatchable: "Líneas que no son de pago ni de reembolso", imported: "Importado", byKind: "Discrepancias por tipo",
    kind: "Tipo", count: "Cantidad", clearing: "La cuenta de compensación del proveedor explicada", clearingRule: "Por moneda, para los registros de este reporte: lo que el motor espera = lo que el proveedor reportó + lo que sigue pendiente en el proveedor + las discrepancias.",
    currency: "Moneda", engineExpects: "El motor espera", providerReported: "El proveedor reportó", pending: "Pendiente en el proveedor", discrepancyAmount: "En discrepancias",
    clearingUsd: "Registrado en la compensación del proveedor (USD)", discrepancies: "Discrepancias encontradas", id: "Id", state: "Estado", shop: "Tienda", detail: "Detalle", created: "Encontrada",
    none: "Ninguna discrepancia: el reporte del proveedor coincide con el motor.", noKinds: "Ninguna.", doneImported: "Reporte importado y conciliado.",
    doneKnown: "Este mismo archivo ya se había importado: nada cambió.", toQueues: "Resolver discrepancias abiertas en las colas",
    discrepancy: "Discrepancia", providerSide: "La línea del proveedor", engineSide: "El registro del motor", line: "Línea", providerRef: "Referencia del proveedor",
    reference: "Referencia", providerStatus: "Estado en el proveedor", normalized: "Leída como", amount: "Monto", fee: "Comisión", occurred: "Cuándo",
    record: "Registro", moved: "Dinero movido", feeUsd: "Comisión (USD)", movedAt: "Movido el", yes: "Sí", no: "No", noLine: "Ninguna línea del reporte (falta en él).",
    noRecord: "Ningún registro del motor corresponde a esta línea.", resolution: "Resolución", note: "Nota", resolvedBy: "Resuelto por", resolvedAt: "Resuelto el",
    adjustment: "Asiento de ajuste", resolve: "Resolver", writeOff: "Castigo en USD (opcional)", writeOffHint: "Reduce la cuenta por cobrar al proveedor en este monto (negativo: el proveedor debe más); un asiento nuevo, el historial nunca se edita.",
    resolveButton: "Resolver discrepancia"
  }
})

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
