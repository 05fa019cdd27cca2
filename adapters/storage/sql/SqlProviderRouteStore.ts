/** The provider route store on SQL: a shop's providers in priority order. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Environment } from "../../../core/Environment.ts"
import { ProviderRouteStore } from "../../../core/ports/ProviderRouteStore.ts"

export const SqlProviderRouteStore = Layer.effect(
  ProviderRouteStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    interface Row {
      readonly environment: Environment
      readonly shopId: string
      readonly providerId: string
      readonly priority: number
      readonly methodIds: ReadonlyArray<string> | null
      readonly enabled: boolean
    }
    return ProviderRouteStore.of({
      list: (environment, shopId) =>
        sql<Row>`SELECT * FROM provider_routes WHERE environment = ${environment} AND shop_id = ${shopId}
                 ORDER BY priority, provider_id`.pipe(Effect.orDie),
      put: (r) =>
        sql`INSERT INTO provider_routes (environment, shop_id, provider_id, priority, method_ids, enabled)
            VALUES (${r.environment}, ${r.shopId}, ${r.providerId}, ${r.priority},
                    ${r.methodIds === null ? null : JSON.stringify(r.methodIds)}, ${r.enabled})
            ON CONFLICT (environment, shop_id, provider_id) DO UPDATE SET
              priority = EXCLUDED.priority, method_ids = EXCLUDED.method_ids, enabled = EXCLUDED.enabled`.pipe(Effect.asVoid, Effect.orDie),
      countNaming: (providerId) =>
        sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM provider_routes WHERE provider_id = ${providerId}`.pipe(
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie
        ),
      remove: (environment, shopId, providerId) =>
        sql<{ readonly providerId: string }>`
          DELETE FROM provider_routes WHERE environment = ${environment} AND shop_id = ${shopId} AND provider_id = ${providerId}
          RETURNING provider_id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)
    })
  })
)
