/** The payout store on SQL, as versioned JSON documents. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { date } from "./Rows.ts"
import { jsonDocuments } from "./JsonDocuments.ts"
import { PayoutJson } from "../../../core/payouts/Payout.ts"
import { PayoutStore } from "../../../core/ports/PayoutStore.ts"

export const SqlPayoutStore = Layer.effect(
  PayoutStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const payouts = jsonDocuments(sql, "payouts", PayoutJson)
    return PayoutStore.of({
      insert: (p) =>
        payouts.insert(p, {
          id: p.id,
          environment: p.environment,
          shopId: p.shopId,
          status: p.status,
          methodId: p.methodId,
          version: p.version,
          createdAt: date(p.createdAt)
        }),
      find: (environment, shopId, id) => payouts.first(sql`id = ${id} AND environment = ${environment} AND shop_id = ${shopId}`),
      findById: (id) => payouts.first(sql`id = ${id}`),
      update: (p) => payouts.update(p, p.id, p.version, sql`, status = ${p.status}`),
      list: (environment, shopId, filter, page) =>
        payouts.page(
          sql.and([
            sql`environment = ${environment}`,
            sql`shop_id = ${shopId}`,
            ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`]),
            ...(filter.methodId === undefined ? [] : [sql`method_id = ${filter.methodId}`])
          ]),
          page
        ),
      listAll: (filter, page) =>
        payouts.page(
          sql.and([
            sql`TRUE`,
            ...(filter.environment === undefined ? [] : [sql`environment = ${filter.environment}`]),
            ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`]),
            ...(filter.createdBefore === undefined ? [] : [sql`created_at < ${date(filter.createdBefore)}`])
          ]),
          page
        )
    })
  })
)
