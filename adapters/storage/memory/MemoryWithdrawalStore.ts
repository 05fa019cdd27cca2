/** The withdrawal store in memory. */
import { Effect, Layer } from "effect"
import type { Withdrawal } from "../../../core/balances/Withdrawal.ts"
import { WithdrawalStore } from "../../../core/ports/WithdrawalStore.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { newestFirst, versionedRows } from "./MemoryRows.ts"

export const MemoryWithdrawalStore = Layer.effect(
  WithdrawalStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const withdrawals = versionedRows<Withdrawal>(db, "withdrawals", (w) => `${w.environment}|${w.shopId}`)
    return WithdrawalStore.of({
      insert: withdrawals.insert,
      find: withdrawals.find,
      findById: withdrawals.findById,
      update: withdrawals.update,
      list: (environment, shopId, filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = withdrawals.owned(`${environment}|${shopId}`)
            .filter((w) => filter.status === undefined || w.status === filter.status)
            .sort(newestFirst)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        })),
      listAll: (filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = Array.from(db.table<Withdrawal>("withdrawals").values())
            .filter((w) => (filter.environment === undefined || w.environment === filter.environment) && (filter.status === undefined || w.status === filter.status))
            .sort(newestFirst)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        }))
    })
  })
)
