/** The withdrawal store in memory. */
import { Effect, Layer, Option } from "effect"
import { MemoryDb } from "./MemoryDb.ts"
import type { Withdrawal } from "../../../core/balances/Withdrawal.ts"
import { WithdrawalStore } from "../../../core/ports/WithdrawalStore.ts"
import { insertOnce, newestFirst, rowsOf } from "./MemoryRows.ts"

export const MemoryWithdrawalStore = Layer.effect(
  WithdrawalStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const withdrawals = db.table<Withdrawal>("withdrawals")
    /** Index: a shop's withdrawals. */
    const ofShop = (environment: string, shopId: string) => db.table<true>(`withdrawals_of|${environment}|${shopId}`)
    return WithdrawalStore.of({
      insert: (w) =>
        db.run(Effect.andThen(insertOnce(db, withdrawals, w.id, w, "withdrawal"), Effect.sync(() => void ofShop(w.environment, w.shopId).set(w.id, true)))),
      find: (environment, shopId, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(withdrawals.get(id)), (w) => w.environment === environment && w.shopId === shopId))),
      findById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(withdrawals.get(id)))),
      update: (w) =>
        db.run(Effect.sync(() => {
          const current = withdrawals.get(w.id)
          if (current === undefined || current.version !== w.version - 1) return false
          withdrawals.set(w.id, w)
          return true
        })),
      list: (environment, shopId, filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = rowsOf(withdrawals, ofShop(environment, shopId))
            .filter((w) => filter.status === undefined || w.status === filter.status)
            .sort(newestFirst)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        }))
    })
  })
)
