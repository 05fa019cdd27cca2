/** The claim store on SQL (refunds and chargebacks), as versioned JSON documents. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { date } from "./Rows.ts"
import { jsonDocuments } from "./JsonDocuments.ts"
import { ClaimJson } from "../../../core/refunds/Claim.ts"
import { RefundStore } from "../../../core/ports/RefundStore.ts"

export const SqlRefundStore = Layer.effect(
  RefundStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const claims = jsonDocuments(sql, "claims", ClaimJson)
    return RefundStore.of({
      insert: (c) =>
        claims.insert(c, { id: c.id, environment: c.environment, shopId: c.shopId, transactionId: c.transactionId, version: c.version, createdAt: date(c.createdAt) }),
      find: (environment, shopId, id) => claims.first(sql`id = ${id} AND environment = ${environment} AND shop_id = ${shopId}`),
      findById: (id) => claims.first(sql`id = ${id}`),
      forPayment: (transactionId) => claims.select(sql`transaction_id = ${transactionId}`, sql`ORDER BY created_at, id`),
      update: (c) => claims.update(c, c.id, c.version),
      // Kind and status live in the document (the operator's queue is small; no column needed).
      listAll: (filter, page) =>
        claims.page(
          sql.and([
            sql`TRUE`,
            ...(filter.environment === undefined ? [] : [sql`environment = ${filter.environment}`]),
            ...(filter.kind === undefined ? [] : [sql`data->>'kind' = ${filter.kind}`]),
            ...(filter.status === undefined ? [] : [sql`data->>'status' = ${filter.status}`])
          ]),
          page
        )
    })
  })
)
