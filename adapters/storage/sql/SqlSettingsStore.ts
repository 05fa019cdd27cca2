/** The settings store on SQL. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { SettingsStore } from "../../../core/ports/SettingsStore.ts"
import { first } from "./Rows.ts"

export const SqlSettingsStore = Layer.effect(
  SettingsStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const get = (key: string) =>
      sql<{ readonly value: string }>`SELECT value FROM settings WHERE key = ${key}`.pipe(
        Effect.map((rows) => first(rows, (r) => r.value)),
        Effect.orDie
      )
    return SettingsStore.of({
      get,
      putIfAbsent: (key, value) =>
        sql`INSERT INTO settings (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING`.pipe(
          Effect.orDie,
          Effect.andThen(get(key)),
          Effect.map(Option.getOrElse(() => value))
        ),
      removeIf: (key, value) => sql`DELETE FROM settings WHERE key = ${key} AND value = ${value}`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
