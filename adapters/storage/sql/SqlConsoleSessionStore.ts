/** The console's sessions on SQL. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Environment } from "../../../core/Environment.ts"
import { type ConsoleSession, ConsoleSessionStore } from "../../../core/ports/ConsoleSessionStore.ts"
import { first } from "./Rows.ts"

interface Row {
  readonly id: string
  readonly secretHash: string
  readonly kind: ConsoleSession["kind"]
  readonly environment: Environment | null
  readonly csrfToken: string
  readonly sealed: string
  readonly createdAt: Date
  readonly expiresAt: Date
}

export const SqlConsoleSessionStore = Layer.effect(
  ConsoleSessionStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return ConsoleSessionStore.of({
      insert: (session) => sql`INSERT INTO console_sessions ${sql.insert([{ ...session }])}`.pipe(Effect.asVoid, Effect.orDie),
      find: (id) =>
        sql<Row>`SELECT * FROM console_sessions WHERE id = ${id}`.pipe(
          Effect.map((rows) => first(rows, (row): ConsoleSession => ({ ...row }))),
          Effect.orDie
        ),
      reseal: (id, sealed) => sql`UPDATE console_sessions SET sealed = ${sealed} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      remove: (id) => sql`DELETE FROM console_sessions WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      removeExpired: (now) =>
        sql<{ readonly id: string }>`DELETE FROM console_sessions WHERE expires_at <= ${now} RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        )
    })
  })
)
