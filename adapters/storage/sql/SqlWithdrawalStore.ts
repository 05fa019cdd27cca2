/** The withdrawal store on SQL, as versioned JSON documents. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { date } from "./Rows.ts"
import { jsonDocuments } from "./JsonDocuments.ts"
import { WithdrawalJson } from "../../../core/balances/Withdrawal.ts"
import { WithdrawalStore } from "../../../core/ports/WithdrawalStore.ts"

export const SqlWithdrawalStore = Layer.effect(
  WithdrawalStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const withdrawals = jsonDocuments(sql, "withdrawals", WithdrawalJson)
    return WithdrawalStore.of({
      insert: (w) =>
        withdrawals.insert(w, { id: w.id, environment: w.environment, shopId: w.shopId, status: w.status, version: w.version, createdAt: date(w.createdAt) }),
      find: (environment, shopId, id) => withdrawals.first(sql`id = ${id} AND environment = ${environment} AND shop_id = ${shopId}`),
      findById: (id) => withdrawals.first(sql`id = ${id}`),
      update: (w) => withdrawals.update(w, w.id, w.version, sql`, status = ${w.status}`),
      list: (environment, shopId, filter, page) =>
        withdrawals.page(
          sql.and([
            sql`environment = ${environment}`,
            sql`shop_id = ${shopId}`,
            ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`])
          ]),
          page
        ),
      listAll: (filter, page) =>
        withdrawals.page(
          sql.and([
            sql`TRUE`,
            ...(filter.environment === undefined ? [] : [sql`environment = ${filter.environment}`]),
            ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`])
          ]),
          page
        )
    })
  })
)
