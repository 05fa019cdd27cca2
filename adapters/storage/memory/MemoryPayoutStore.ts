/** The payout store in memory. */
import { Effect, Layer, Option } from "effect"
import { MemoryDb } from "./MemoryDb.ts"
import type { Payout } from "../../../core/payouts/Payout.ts"
import { PayoutStore } from "../../../core/ports/PayoutStore.ts"
import { insertOnce, newestFirst, rowsOf } from "./MemoryRows.ts"

export const MemoryPayoutStore = Layer.effect(
  PayoutStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const payouts = db.table<Payout>("payouts")
    /** Index: a shop's payouts. */
    const ofShop = (environment: string, shopId: string) => db.table<true>(`payouts_of|${environment}|${shopId}`)
    return PayoutStore.of({
      insert: (p) => db.run(Effect.andThen(insertOnce(db, payouts, p.id, p, "payout"), Effect.sync(() => void ofShop(p.environment, p.shopId).set(p.id, true)))),
      find: (environment, shopId, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(payouts.get(id)), (p) => p.environment === environment && p.shopId === shopId))),
      findById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(payouts.get(id)))),
      update: (p) =>
        db.run(Effect.sync(() => {
          const current = payouts.get(p.id)
          if (current === undefined || current.version !== p.version - 1) return false
          payouts.set(p.id, p)
          return true
        })),
      list: (environment, shopId, filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = rowsOf(payouts, ofShop(environment, shopId))
            .filter((p) =>
              (filter.status === undefined || p.status === filter.status) &&
              (filter.methodId === undefined || p.methodId === filter.methodId)
            )
            .sort(newestFirst)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        }))
    })
  })
)
