/** Routing outcomes on SQL (`routing_outcomes`), read newest first through their index. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { conversionKinds, healthKinds, type RoutingOutcome, RoutingStore } from "../../../core/ports/RoutingStore.ts"

interface Row {
  readonly environment: RoutingOutcome["environment"]
  readonly providerId: string
  readonly methodId: string
  readonly kind: RoutingOutcome["kind"]
  readonly atMs: string | number
  readonly latencyMs: number
}

export const SqlRoutingStore = Layer.effect(
  RoutingStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return RoutingStore.of({
      record: (o) =>
        sql`INSERT INTO routing_outcomes (environment, provider_id, method_id, kind, at_ms, latency_ms)
            VALUES (${o.environment}, ${o.providerId}, ${o.methodId}, ${o.kind}, ${o.at}, ${Math.round(o.latencyMs)})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      recent: (key, kinds, limit) =>
        sql<Row>`
          SELECT environment, provider_id, method_id, kind, at_ms, latency_ms FROM routing_outcomes
          WHERE environment = ${key.environment} AND provider_id = ${key.providerId} AND method_id = ${key.methodId}
            AND kind IN ${sql.in(kinds === "health" ? [...healthKinds] : [...conversionKinds])}
          ORDER BY id DESC LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map((r) => ({ ...r, at: Number(r.atMs) })).reverse()),
          Effect.orDie
        ),
      prune: (beforeMs) =>
        sql`DELETE FROM routing_outcomes WHERE at_ms < ${beforeMs}`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
