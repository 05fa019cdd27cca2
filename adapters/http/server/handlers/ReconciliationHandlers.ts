/** Handlers of the operator's reconciliation endpoints: upload and run reports, read and resolve discrepancies. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { invalidRequest } from "../../../../core/ApiError.ts"
import * as Money from "../../../../core/Money.ts"
import { Reconciliation } from "../../../../core/reconciliation/Reconciliation.ts"
import { discrepancyView, reportView } from "../../../../core/reconciliation/ReconciliationView.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"
import { clampPage, pagination } from "../support/Paging.ts"

export const ReconciliationAdminHandlers = HttpApiBuilder.group(Api, "reconciliationAdmin", (handlers) =>
  Effect.gen(function*() {
    const reconciliation = yield* Reconciliation
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers
      // Raw: the file is read as sent, whatever its Content-Type (text/csv, application/json, octet-stream).
      .handleRaw("upload", ({ query, request }) =>
        documented("reconciliationAdmin.upload", Effect.gen(function*() {
          const content = yield* request.text.pipe(Effect.mapError(() => invalidRequest("The report body could not be read", [])))
          if ((query.periodStart === undefined) !== (query.periodEnd === undefined)) {
            return yield* invalidRequest("Name both ends of the period, or neither", [
              { path: query.periodStart === undefined ? "periodStart" : "periodEnd", message: "required with the other end of the period" }
            ])
          }
          const imported = yield* reconciliation.importReport({
            environment: query.environment ?? "production",
            provider: query.provider,
            format: query.format,
            content,
            period: query.periodStart === undefined || query.periodEnd === undefined ? undefined : { start: query.periodStart, end: query.periodEnd },
            source: "upload"
          })
          return reportView(imported.report, imported.created)
        })))
      .handle("run", ({ payload, query }) =>
        documented("reconciliationAdmin.run", Effect.map(
          reconciliation.run(query.environment ?? "production", payload.provider, { start: payload.periodStart, end: payload.periodEnd }),
          (imported) => reportView(imported.report, imported.created)
        )))
      .handle("listReports", ({ query }) =>
        documented("reconciliationAdmin.listReports", Effect.gen(function*() {
          const page = clampPage(query)
          const { rows, total } = yield* reconciliation.listReports(query.environment ?? "production", query.provider, page)
          return { data: rows.map((r) => reportView(r, true)), pagination: pagination(total, page) }
        })))
      .handle("getReport", ({ params, query }) =>
        documented("reconciliationAdmin.getReport", Effect.map(reconciliation.getReport(query.environment ?? "production", params.id), (r) => reportView(r, true))))
      .handle("listDiscrepancies", ({ query }) =>
        documented("reconciliationAdmin.listDiscrepancies", Effect.gen(function*() {
          const page = clampPage(query)
          const { rows, total } = yield* reconciliation.listDiscrepancies(query.environment ?? "production", {
            provider: query.provider,
            kind: query.kind,
            status: query.status,
            reportId: query.reportId,
            shopId: query.shopId
          }, page)
          return { data: rows.map(discrepancyView), pagination: pagination(total, page) }
        })))
      .handle("getDiscrepancy", ({ params, query }) =>
        documented("reconciliationAdmin.getDiscrepancy", Effect.map(reconciliation.getDiscrepancy(query.environment ?? "production", params.id), discrepancyView)))
      .handle("resolve", ({ params, payload, query }) =>
        documented("reconciliationAdmin.resolve", Effect.map(
          reconciliation.resolve(query.environment ?? "production", params.id, {
            note: payload.note,
            by: payload.resolvedBy,
            writeOffUsd: payload.writeOffUsd === undefined ? undefined : Money.round(Money.decimal(String(payload.writeOffUsd)), "USD")
          }),
          discrepancyView
        )))
  }))
