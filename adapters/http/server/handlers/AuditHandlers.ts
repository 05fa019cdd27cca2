/** Handlers of the audit log: the merchant's own (JSON and CSV) and the operator's, with the chains' check. */
import { DateTime, Effect } from "effect"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { stringify } from "csv-stringify/sync"
import { Audit, chainOf } from "../../../../core/audit/Audit.ts"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import type { AuditEntry } from "../../../../core/ports/AuditStore.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"
import { clampPage, pagination } from "../support/Paging.ts"

const view = (e: AuditEntry) => ({ ...e, at: DateTime.formatIso(e.at) })

const csvColumns = ["id", "seq", "at", "environment", "merchant_id", "actor_kind", "actor_id", "ip", "operation", "object_type", "object_id", "changes", "prev_hash", "hash", "signature"]

const csvOf = (rows: ReadonlyArray<AuditEntry>) =>
  stringify([
    csvColumns,
    ...rows.map((e) => [
      e.id, e.seq, DateTime.formatIso(e.at), e.environment ?? "", e.merchantId ?? "", e.actor.kind, e.actor.id, e.ip ?? "",
      e.operation, e.object.type, e.object.id, JSON.stringify(e.changes), e.prevHash, e.hash, e.signature ?? ""
    ])
  ])

export const AuditHandlers = HttpApiBuilder.group(Api, "audit", (handlers) =>
  Effect.gen(function*() {
    const audit = yield* Audit
    const own = Effect.map(CurrentPrincipal, (p) => chainOf(p.environment, p.merchant.id))
    return handlers.handleAll({
      list: ({ query }) =>
        documented("audit.list", Effect.gen(function*() {
          const page = clampPage(query)
          const { rows, total } = yield* audit.list({ chain: yield* own, operation: query.operation, objectId: query.objectId }, page)
          return { data: rows.map(view), pagination: pagination(total, page) }
        })),
      csv: ({ query }) =>
        documented("audit.csv", Effect.gen(function*() {
          const chain = yield* own
          const { rows } = yield* audit.list({ chain, operation: query.operation, objectId: query.objectId }, { limit: 10_000, offset: 0 })
          return HttpApiSchema.withHeaders({ body: csvOf(rows), headers: { "content-disposition": `attachment; filename="audit-${chain.replace(":", "-")}.csv"` } })
        }))
    })
  }))

export const AuditAdminHandlers = HttpApiBuilder.group(Api, "auditAdmin", (handlers) =>
  Effect.gen(function*() {
    const audit = yield* Audit
    return handlers.handleAll({
      list: ({ query }) =>
        documented("auditAdmin.list", Effect.gen(function*() {
          const page = clampPage(query)
          const { rows, total } = yield* audit.list({ chain: query.chain, operation: query.operation, objectId: query.objectId }, page)
          return { data: rows.map(view), pagination: pagination(total, page) }
        })),
      verify: ({ query }) =>
        documented("auditAdmin.verify", Effect.map(audit.verify(query.chain), (chains) => ({ ok: chains.every((c) => c.brokenAt === null), chains })))
    })
  }))
