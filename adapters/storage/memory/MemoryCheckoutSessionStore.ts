/** The hosted-checkout session store in memory. */
import { Effect, Layer, Option } from "effect"
import { MemoryDb } from "./MemoryDb.ts"
import type { CheckoutSession } from "../../../core/checkout/CheckoutSession.ts"
import { CheckoutSessionStore } from "../../../core/ports/CheckoutSessionStore.ts"

export const MemoryCheckoutSessionStore = Layer.effect(
  CheckoutSessionStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const sessions = db.table<CheckoutSession>("checkout_sessions")
    return CheckoutSessionStore.of({
      insert: (s) =>
        db.run(Effect.suspend(() =>
          sessions.has(s.token) ? Effect.die(new Error(`duplicate session token`)) : Effect.sync(() => void sessions.set(s.token, s))
        )),
      findByToken: (token) => db.run(Effect.sync(() => Option.fromNullishOr(sessions.get(token)))),
      update: (s) =>
        db.run(Effect.sync(() => {
          const current = sessions.get(s.token)
          if (current === undefined || current.version !== s.version - 1) return false
          sessions.set(s.token, s)
          return true
        }))
    })
  })
)
