/** The claim store in memory (refunds and chargebacks). */
import { Effect, Layer, Option } from "effect"
import { MemoryDb } from "./MemoryDb.ts"
import type { Claim } from "../../../core/claims/Claim.ts"
import { ClaimStore } from "../../../core/ports/ClaimStore.ts"
import { insertOnce, newestFirst, rowsOf } from "./MemoryRows.ts"

export const MemoryClaimStore = Layer.effect(
  ClaimStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const claims = db.table<Claim>("claims")
    /** Index: a payment's claims. */
    const ofPayment = (transactionId: string) => db.table<true>(`claims_of|${transactionId}`)
    return ClaimStore.of({
      insert: (c) => db.run(Effect.andThen(insertOnce(db, claims, c.id, c, "claim"), Effect.sync(() => void ofPayment(c.transactionId).set(c.id, true)))),
      find: (environment, shopId, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(claims.get(id)), (c) => c.environment === environment && c.shopId === shopId))),
      findById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(claims.get(id)))),
      forPayment: (transactionId) =>
        db.run(Effect.sync(() => rowsOf(claims, ofPayment(transactionId)).sort((a, b) => -newestFirst(a, b)))),
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
