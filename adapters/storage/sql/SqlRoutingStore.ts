/** Routing outcomes on SQL (`routing_outcomes`), read newest first through their index. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { familyOf, type RoutingOutcome, RoutingStore } from "../../../core/ports/RoutingStore.ts"

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
        sql`INSERT INTO routing_outcomes (environment, provider_id, method_id, family, kind, at_ms, latency_ms)
            VALUES (${o.environment}, ${o.providerId}, ${o.methodId}, ${familyOf(o.kind)}, ${o.kind}, ${o.at}, ${Math.round(o.latencyMs)})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      recent: (key, kinds, limit) =>
        sql<Row>`
          SELECT environment, provider_id, method_id, kind, at_ms, latency_ms FROM routing_outcomes
          WHERE environment = ${key.environment} AND provider_id = ${key.providerId} AND method_id = ${key.methodId}
            AND family = ${kinds}
          ORDER BY id DESC LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map((r) => ({ ...r, at: Number(r.atMs) })).reverse()),
          Effect.orDie
        ),
      prune: (beforeMs) =>
        sql`DELETE FROM routing_outcomes WHERE at_ms < ${beforeMs}`.pipe(Effect.asVoid, Effect.orDie),
      config: (environment, shopId) =>
        sql<{ readonly version: number; readonly document: string }>`
          SELECT version, document FROM routing_configs WHERE environment = ${environment} AND shop_id = ${shopId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (r) => ({ version: r.version, document: JSON.parse(r.document) as unknown }))),
          Effect.orDie
        ),
      // One statement each way: two writers of the same version cannot both win.
      putConfig: (environment, shopId, expectedVersion, document) =>
        (expectedVersion === 0
          ? sql`INSERT INTO routing_configs (environment, shop_id, version, document)
                VALUES (${environment}, ${shopId}, 1, ${JSON.stringify(document)}) ON CONFLICT DO NOTHING RETURNING version`
          : sql`UPDATE routing_configs SET version = version + 1, document = ${JSON.stringify(document)}
                WHERE environment = ${environment} AND shop_id = ${shopId} AND version = ${expectedVersion} RETURNING version`).pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
    })
  })
)
