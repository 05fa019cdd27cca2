/** The provider route store in memory: a shop's providers in priority order. */
import { Effect, Layer } from "effect"
import { MemoryDb } from "./MemoryDb.ts"
import { rowsOf } from "./MemoryRows.ts"
import type { Environment } from "../../../core/Environment.ts"
import { type ProviderRoute, ProviderRouteStore } from "../../../core/ports/ProviderRouteStore.ts"

/** A shop's routes (keys of `provider_routes`), journaled like the rows. */
const routesOf = (db: MemoryDb["Service"], environment: Environment, shopId: string) => db.table<true>(`provider_routes_of|${environment}|${shopId}`)

/** A shop's routes in ascending priority (call inside `db.run`). */
export const shopRoutes = (db: MemoryDb["Service"], environment: Environment, shopId: string): ReadonlyArray<ProviderRoute> =>
  rowsOf(db.table<ProviderRoute>("provider_routes"), routesOf(db, environment, shopId))
    .sort((a, b) => a.priority - b.priority || a.providerId.localeCompare(b.providerId))

export const MemoryProviderRouteStore = Layer.effect(
  ProviderRouteStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const routes = db.table<ProviderRoute>("provider_routes")
    const key = (environment: Environment, shopId: string, providerId: string) => `${environment}|${shopId}|${providerId}`
    return ProviderRouteStore.of({
      list: (environment, shopId) => db.run(Effect.sync(() => shopRoutes(db, environment, shopId))),
      put: (route) =>
        db.run(Effect.sync(() => {
          const k = key(route.environment, route.shopId, route.providerId)
          routes.set(k, route)
          routesOf(db, route.environment, route.shopId).set(k, true)
        })),
      countNaming: (providerId) => db.run(Effect.sync(() => Array.from(routes.values()).filter((r) => r.providerId === providerId).length)),
      remove: (environment, shopId, providerId) =>
        db.run(Effect.sync(() => {
          const k = key(environment, shopId, providerId)
          routesOf(db, environment, shopId).delete(k)
          return routes.delete(k)
        }))
    })
  })
)
