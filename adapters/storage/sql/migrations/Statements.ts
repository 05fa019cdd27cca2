/** A migration of plain statements, run in order. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const statements = (...sql: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const client = yield* SqlClient.SqlClient
    for (const statement of sql) yield* client.unsafe(statement)
  })
