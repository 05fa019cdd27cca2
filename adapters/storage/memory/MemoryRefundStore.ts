/** The claim store in memory (refunds and chargebacks). */
import { Effect, Layer } from "effect"
import type { Claim } from "../../../core/refunds/Claim.ts"
import { RefundStore } from "../../../core/ports/RefundStore.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { newestFirst, versionedRows } from "./MemoryRows.ts"

export const MemoryRefundStore = Layer.effect(
  RefundStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    // Indexed by payment: every refund reads the payment's claims.
    const claims = versionedRows<Claim>(db, "claims", (c) => c.transactionId)
    return RefundStore.of({
      insert: claims.insert,
      find: claims.find,
      findById: claims.findById,
      forPayment: (transactionId) => db.run(Effect.sync(() => claims.owned(transactionId).sort((a, b) => -newestFirst(a, b)))),
      update: claims.update,
      listAll: (filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = Array.from(db.table<Claim>("claims").values())
            .filter((c) =>
              (filter.environment === undefined || c.environment === filter.environment) &&
              (filter.kind === undefined || c.kind === filter.kind) &&
              (filter.status === undefined || c.status === filter.status)
            )
            .sort(newestFirst)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        }))
    })
  })
)
