/** The sandbox test clocks on SQL: one row per shop whose clock moved (`sandbox_clocks`). */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { SandboxClockStore } from "../../../core/ports/SandboxClockStore.ts"
import { date } from "./Rows.ts"

export const SqlSandboxClockStore = Layer.effect(
  SandboxClockStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SandboxClockStore.of({
      offset: (shopId) =>
        sql<{ readonly offsetMs: string | number }>`SELECT offset_ms FROM sandbox_clocks WHERE shop_id = ${shopId}`.pipe(
          Effect.map((rows) => rows.length === 0 ? 0 : Number(rows[0]!.offsetMs)),
          Effect.orDie
        ),
      // One statement: concurrent advances add up, none is lost.
      advance: (shopId, byMs, at) =>
        sql<{ readonly offsetMs: string | number }>`
          INSERT INTO sandbox_clocks (shop_id, offset_ms, updated_at) VALUES (${shopId}, ${byMs}, ${date(at)})
          ON CONFLICT (shop_id) DO UPDATE SET offset_ms = sandbox_clocks.offset_ms + EXCLUDED.offset_ms, updated_at = EXCLUDED.updated_at
          RETURNING offset_ms`.pipe(Effect.map((rows) => Number(rows[0]!.offsetMs)), Effect.orDie)
    })
  })
)
