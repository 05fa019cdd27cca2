/** The FX rate store in memory. */
import { Effect, Layer, Option } from "effect"
import { MemoryDb } from "./MemoryDb.ts"
import { type FxRate, FxRateStore } from "../../../core/ports/FxRateStore.ts"

export const MemoryFxRateStore = Layer.effect(
  FxRateStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const rates = db.table<FxRate>("fx_rates")
    return FxRateStore.of({
      get: (currency) => db.run(Effect.sync(() => Option.fromNullishOr(rates.get(currency)))),
      list: db.run(Effect.sync(() => [...rates.values()].sort((a, b) => a.currency.localeCompare(b.currency)))),
      put: (rate) => db.run(Effect.sync(() => void rates.set(rate.currency, rate))),
      seed: (seed) =>
        db.run(Effect.sync(() => {
          for (const rate of seed) if (!rates.has(rate.currency)) rates.set(rate.currency, rate)
        }))
    })
  })
)
