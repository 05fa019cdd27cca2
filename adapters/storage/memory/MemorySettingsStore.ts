/** The settings store in memory. */
import { Effect, Layer, Option } from "effect"
import { SettingsStore } from "../../../core/ports/SettingsStore.ts"
import { MemoryDb } from "./MemoryDb.ts"

export const MemorySettingsStore = Layer.effect(
  SettingsStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const settings = db.table<string>("settings")
    return SettingsStore.of({
      get: (key) => db.run(Effect.sync(() => Option.fromNullishOr(settings.get(key)))),
      putIfAbsent: (key, value) =>
        db.run(Effect.sync(() => {
          const existing = settings.get(key)
          if (existing !== undefined) return existing
          settings.set(key, value)
          return value
        })),
      removeIf: (key, value) =>
        db.run(Effect.sync(() => {
          if (settings.get(key) === value) settings.delete(key)
        }))
    })
  })
)
