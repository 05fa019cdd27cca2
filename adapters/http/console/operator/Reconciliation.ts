/**
 * Reconciliation: the providers' reports imported (filtered by environment and provider), a
 * provider's file uploaded through a form (multipart: the file's bytes go to the API as they are,
 * the API's own refusal shown on the form), and a run that fetches a provider's report now. A
 * report's page and its discrepancies are in ReconciliationReport.ts.
 */
import { DateTime, Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { type ApiReply, fieldErrors } from "../ApiClient.ts"
import { formFields } from "../Layout.ts"
import type { Console, ConsoleRoute } from "../Page.ts"
import { redirect } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { field, link, status, table } from "../View.ts"
import { common, environmentOf, failedStatus, failure, offsetOf, ok, pager, shownEnvironment, shownNote } from "./Common.ts"
import { reportHref, reportRoutes, sourceWords } from "./ReconciliationReport.ts"

const words = dictionary((catalog) => catalog.console.operator.reconciliation)

/** The report formats the connectors read (each documented in its connector's README). */
const formats: ReadonlyArray<readonly [string, string]> = [
  ["settlement-cross-border-csv", "settlement-cross-border-csv (dLocal)"],
  ["release-report-csv", "release-report-csv (Mercado Pago)"],
  ["all-transactions-csv", "all-transactions-csv (EBANX)"],
  ["payables-json", "payables-json (Pagar.me)"],
  ["transactions-json", "transactions-json (Conekta)"]
]

/** A refused upload or run: the form's values, the API's answer (or the console's own word), and its fields' errors. */
interface FormState {
  readonly which: "upload" | "run"
  readonly values: URLSearchParams
  readonly reply?: ApiReply | undefined
  readonly message?: string | undefined
  readonly errors: ReadonlyMap<string, string>
  readonly status: number
}

/** The browser's media type of the file, without parameters, when it is one (else octet-stream: the API reads any). */
const mediaType = (type: string) => {
  const bare = type.split(";")[0]?.trim() ?? ""
  return /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+$/.test(bare) ? bare : "application/octet-stream"
}

const sum = (counts: Record<string, number> | undefined) => Object.values(counts ?? {}).reduce((a, b) => a + b, 0)

const day = (d: DateTime.Utc) => DateTime.formatIso(d).slice(0, 10)

const reportsPage = (c: Console, state?: FormState) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const cw = common(c.language)
    const sw = sourceWords(c.language)
    const shown = yield* shownEnvironment(c, c.query.get("environment") ?? state?.values.get(`${state.which}-environment`))
    const environment = shown.environment
    const provider = (c.query.get("provider") ?? "").trim()
    const offset = offsetOf(c)
    const query = new URLSearchParams({ environment, limit: "20", offset: String(offset), ...(provider === "" ? {} : { provider }) })
    const [reports, providers] = yield* Effect.all([
      c.api({ method: "GET", path: `/admin/v1/reconciliation/reports?${query.toString()}` }),
      c.api({ method: "GET", path: "/admin/v1/providers" })
    ])
    const bad = [reports, providers].find((r) => !ok(r))
    if (bad !== undefined) return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${failure(c, bad)}`, { section: "reconciliation", status: failedStatus(bad) })
    const providerIds = (providers.body.providers as ReadonlyArray<any>).map((p) => String(p.id))
    const environments = (["production", "sandbox"] as const).map((e) => [e, cw[e]] as const)
    const filters = `<form method="get" action="/console/operator/reconciliation" class="filters"><div><label for="environment">${escapeHtml(cw.environment)}</label><select id="environment" name="environment">${
      environments.map(([e, text]) => `<option value="${e}"${e === environment ? " selected" : ""}>${escapeHtml(text)}</option>`).join("")
    }</select></div><div><label for="provider">${escapeHtml(t.provider)}</label><select id="provider" name="provider"><option value="">${escapeHtml(t.allProviders)}</option>${
      providerIds.map((p) => `<option value="${escapeHtml(p)}"${p === provider ? " selected" : ""}>${escapeHtml(p)}</option>`).join("")
    }</select></div><div><button type="submit" class="secondary">${escapeHtml(t.show)}</button></div></form>`
    const rows = (reports.body.data as ReadonlyArray<any>).map((r) => {
      const found = sum(r.counts.discrepancies)
      return [
        link(reportHref(r.id, environment), r.id),
        escapeHtml(r.provider),
        escapeHtml(r.format),
        `${escapeHtml(formatDateTime(r.period.start, c.language))}<br>${escapeHtml(formatDateTime(r.period.end, c.language))}`,
        escapeHtml(String(r.counts.lines)),
        escapeHtml(String(r.counts.matched)),
        found === 0 ? status("0", "good") : status(String(found), "bad"),
        escapeHtml(r.source === "fetch" ? sw.fetch : sw.upload),
        escapeHtml(formatDateTime(r.createdAt, c.language))
      ]
    })
    const list = table(t.reports, [
      { label: t.report }, { label: t.provider }, { label: t.format }, { label: t.period }, { label: t.lines, numeric: true },
      { label: t.matched, numeric: true }, { label: t.discrepancies, numeric: true }, { label: t.source }, { label: t.imported }
    ], rows, t.none)

    const values = (which: FormState["which"]) => state?.which === which ? state.values : new URLSearchParams()
    const errors = (which: FormState["which"]) => state?.which === which ? state.errors : new Map<string, string>()
    const told = (which: FormState["which"]) =>
      state?.which !== which ? "" : state.reply !== undefined ? failure(c, state.reply) : `<div class="problem" role="alert">${escapeHtml(state.message ?? "")}</div>`
    const providerOptions = providerIds.map((p) => [p, p] as const)
    const formatsHint = (() => {
      const known: unknown = state?.which === "upload" ? state.reply?.body?.error?.details?.formats : undefined
      return Array.isArray(known) && known.length > 0 ? `${t.formats}: ${known.join(", ")}` : undefined
    })()
    const u = values("upload")
    const ue = errors("upload")
    const upload = `<section class="card" aria-labelledby="upload-heading"><h2 id="upload-heading">${escapeHtml(t.upload)}</h2>${told("upload")}
<form method="post" action="/console/operator/reconciliation/reports" enctype="multipart/form-data" class="stack">${formFields(c.session)}
${field("upload-provider", t.provider, { options: providerOptions, value: u.get("upload-provider") ?? provider, error: ue.get("provider") })}
${field("upload-format", t.format, { options: formats, value: u.get("upload-format") ?? "", error: ue.get("format") ?? formatsHint })}
${field("upload-environment", cw.environment, { options: environments, value: u.get("upload-environment") ?? environment })}
${field("file", t.file, { type: "file", required: true, hint: t.fileHint, error: ue.get("file"), attributes: 'accept=".csv,.json,.txt,text/csv,application/json,text/plain"' })}
<div><button type="submit">${escapeHtml(t.uploadButton)}</button></div></form></section>`
    const today = yield* DateTime.now
    const r = values("run")
    const re = errors("run")
    const run = `<section class="card" aria-labelledby="run-heading"><h2 id="run-heading">${escapeHtml(t.run)}</h2><p class="muted">${escapeHtml(t.runHint)}</p>${told("run")}
<form method="post" action="/console/operator/reconciliation/runs" class="stack">${formFields(c.session, yield* c.newKey)}
${field("run-provider", t.provider, { options: providerOptions, value: r.get("run-provider") ?? provider, error: re.get("provider") })}
${field("run-environment", cw.environment, { options: environments, value: r.get("run-environment") ?? environment })}
${field("periodStart", t.periodStart, { type: "date", required: true, value: r.get("periodStart") ?? day(DateTime.subtract(today, { days: 1 })), error: re.get("periodStart") })}
${field("periodEnd", t.periodEnd, { type: "date", required: true, value: r.get("periodEnd") ?? day(today), error: re.get("periodEnd") })}
<div><button type="submit">${escapeHtml(t.runButton)}</button></div></form></section>`
    const body = `<h1>${escapeHtml(t.title)}</h1>${shownNote(c, shown)}${filters}
<section aria-labelledby="reports-heading"><h2 id="reports-heading">${escapeHtml(t.reports)} <span class="muted">(${reports.body.pagination.total})</span></h2>${list}${
      pager(c, "/console/operator/reconciliation", reports.body.pagination, { environment, ...(provider === "" ? {} : { provider }) })
    }</section>
<div class="grid" style="margin-top:1.5rem">${upload}${run}</div>`
    return c.page(t.title, body, { section: "reconciliation", ...(state === undefined ? {} : { status: state.status }) })
  })

export const reconciliationRoutes: ReadonlyArray<ConsoleRoute> = [
  ...reportRoutes,
  { method: "GET", path: "/console/operator/reconciliation", side: "operator", handler: (c) => reportsPage(c) },
  {
    method: "POST",
    path: "/console/operator/reconciliation/reports",
    side: "operator",
    form: "multipart",
    handler: (c) =>
      Effect.gen(function*() {
        const t = words(c.language)
        const environment = environmentOf(c.form.get("upload-environment"))
        const refuse = (message: string, status: number, errors: ReadonlyMap<string, string> = new Map()) =>
          reportsPage(c, { which: "upload", values: c.form, message, errors, status })
        if (c.formProblem !== undefined) {
          return yield* c.formProblem === "BodyTooLarge" || c.formProblem === "FileTooLarge" ? refuse(t.tooLarge, 413) : refuse(t.unreadable, 400)
        }
        const file = c.files.get("file")
        if (file === undefined || file.bytes.length === 0) return yield* refuse(t.chooseFile, 400, new Map([["file", t.chooseFile]]))
        const query = new URLSearchParams({ environment, provider: c.form.get("upload-provider") ?? "", format: c.form.get("upload-format") ?? "" })
        const reply = yield* c.api({
          method: "POST",
          path: `/admin/v1/reconciliation/reports?${query.toString()}`,
          raw: { bytes: file.bytes, contentType: mediaType(file.contentType) }
        })
        if (ok(reply)) return redirect(`${reportHref(reply.body.id, environment)}&done=${reply.body.imported === true ? "imported" : "known"}`)
        const errors = new Map(fieldErrors(reply))
        const code = String(reply.body?.error?.code ?? "")
        if (code === "report_malformed" || code === "payload_too_large") errors.set("file", String(reply.body?.error?.message ?? code))
        return yield* reportsPage(c, { which: "upload", values: c.form, reply, errors, status: failedStatus(reply) })
      })
  },
  {
    method: "POST",
    path: "/console/operator/reconciliation/runs",
    side: "operator",
    handler: (c) =>
      Effect.gen(function*() {
        const environment = environmentOf(c.form.get("run-environment"))
        // A day as the date input sends it is a UTC midnight; anything else is sent as typed, for the API to name the field.
        const instant = (name: string) => {
          const value = (c.form.get(name) ?? "").trim()
          return /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value
        }
        const reply = yield* c.api({
          method: "POST",
          path: `/admin/v1/reconciliation/runs?environment=${environment}`,
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined,
          body: { provider: c.form.get("run-provider") ?? "", periodStart: instant("periodStart"), periodEnd: instant("periodEnd") }
        })
        if (ok(reply)) return redirect(`${reportHref(reply.body.id, environment)}&done=${reply.body.imported === true ? "imported" : "known"}`)
        return yield* reportsPage(c, { which: "run", values: c.form, reply, errors: fieldErrors(reply), status: failedStatus(reply) })
      })
  }
]
