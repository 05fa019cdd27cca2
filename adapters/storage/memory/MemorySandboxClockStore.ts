/** The sandbox test clocks in memory: the table `sandbox_clocks`, shop id to offset in ms. */
import { Effect, Layer } from "effect"
import { SandboxClockStore } from "../../../core/ports/SandboxClockStore.ts"
import { MemoryDb } from "./MemoryDb.ts"

/** The offset of a shop's clock, for the stores that decide what is due (call inside `db.run`). */
export const clockOffset = (db: MemoryDb["Service"], shopId: string | null): number =>
  shopId === null ? 0 : db.table<number>("sandbox_clocks").get(shopId) ?? 0

export const MemorySandboxClockStore = Layer.effect(
  SandboxClockStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const clocks = db.table<number>("sandbox_clocks")
    return SandboxClockStore.of({
      offset: (shopId) => db.run(Effect.sync(() => clockOffset(db, shopId))),
      advance: (shopId, byMs) =>
        db.run(Effect.sync(() => {
          const next = (clocks.get(shopId) ?? 0) + byMs
          clocks.set(shopId, next)
          return next
        }))
    })
  })
)
