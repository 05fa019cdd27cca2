/** The payout store in memory. */
import { DateTime, Effect, Layer } from "effect"
import type { Payout } from "../../../core/payouts/Payout.ts"
import { PayoutStore } from "../../../core/ports/PayoutStore.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { newestFirst, versionedRows } from "./MemoryRows.ts"

export const MemoryPayoutStore = Layer.effect(
  PayoutStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const payouts = versionedRows<Payout>(db, "payouts", (p) => `${p.environment}|${p.shopId}`)
    return PayoutStore.of({
      insert: payouts.insert,
      find: payouts.find,
      findById: payouts.findById,
      update: payouts.update,
      list: (environment, shopId, filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = payouts.owned(`${environment}|${shopId}`)
            .filter((p) =>
              (filter.status === undefined || p.status === filter.status) &&
              (filter.methodId === undefined || p.methodId === filter.methodId)
            )
            .sort(newestFirst)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        })),
      listAll: (filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = Array.from(db.table<Payout>("payouts").values())
            .filter((p) =>
              (filter.environment === undefined || p.environment === filter.environment) &&
              (filter.status === undefined || p.status === filter.status) &&
              (filter.createdBefore === undefined || DateTime.toEpochMillis(p.createdAt) < DateTime.toEpochMillis(filter.createdBefore))
            )
            .sort(newestFirst)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        }))
    })
  })
)
