/** The claim store in memory (refunds and chargebacks). */
import { Effect, Layer, Option } from "effect"
import { MemoryDb } from "./MemoryDb.ts"
import type { Claim } from "../../../core/claims/Claim.ts"
import { ClaimStore } from "../../../core/ports/ClaimStore.ts"
import { insertOnce, newestFirst } from "./MemoryRows.ts"

export const MemoryClaimStore = Layer.effect(
  ClaimStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const claims = db.table<Claim>("claims")
    return ClaimStore.of({
      insert: (c) => insertOnce(db, claims, c.id, c, "claim"),
      find: (environment, shopId, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(claims.get(id)), (c) => c.environment === environment && c.shopId === shopId))),
      findById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(claims.get(id)))),
      forPayment: (transactionId) =>
        db.run(Effect.sync(() => [...claims.values()].filter((c) => c.transactionId === transactionId).sort((a, b) => -newestFirst(a, b)))),
      update: (c) =>
        db.run(Effect.sync(() => {
          const current = claims.get(c.id)
          if (current === undefined || current.version !== c.version - 1) return false
          claims.set(c.id, c)
          return true
        }))
    })
  })
)
