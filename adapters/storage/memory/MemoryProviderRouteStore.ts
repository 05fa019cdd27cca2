/** The provider route store in memory: a shop's providers in priority order. */
import { Effect, Layer } from "effect"
import { MemoryDb } from "./MemoryDb.ts"
import type { Environment } from "../../../core/Environment.ts"
import { type ProviderRoute, ProviderRouteStore } from "../../../core/ports/ProviderRouteStore.ts"

/** A shop's routes in ascending priority (call inside `db.run`). */
export const shopRoutes = (db: MemoryDb["Service"], environment: Environment, shopId: string): ReadonlyArray<ProviderRoute> =>
  [...db.table<ProviderRoute>("provider_routes").values()]
    .filter((r) => r.environment === environment && r.shopId === shopId)
    .sort((a, b) => a.priority - b.priority || a.providerId.localeCompare(b.providerId))

export const MemoryProviderRouteStore = Layer.effect(
  ProviderRouteStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const routes = db.table<ProviderRoute>("provider_routes")
    const key = (environment: Environment, shopId: string, providerId: string) => `${environment}|${shopId}|${providerId}`
    return ProviderRouteStore.of({
      list: (environment, shopId) => db.run(Effect.sync(() => shopRoutes(db, environment, shopId))),
      put: (route) => db.run(Effect.sync(() => void routes.set(key(route.environment, route.shopId, route.providerId), route))),
      remove: (environment, shopId, providerId) => db.run(Effect.sync(() => routes.delete(key(environment, shopId, providerId))))
    })
  })
)
