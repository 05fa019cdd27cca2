/**
 * Routing outcomes in memory: the latest 500 to 1 000 of each kind family per provider and rail, in plain
 * arrays outside the transactional tables (what routing learns need not roll back, and a bounded
 * buffer keeps every transaction's snapshot small).
 */
import { Effect, Layer, Option } from "effect"
import { familyOf, type RoutingOutcome, RoutingStore, type StoredRoutingConfig } from "../../../core/ports/RoutingStore.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { shopRoutes } from "./MemoryProviderRouteStore.ts"

const keep = 500

export const MemoryRoutingStore = Layer.effect(RoutingStore, Effect.gen(function*() {
  const db = yield* MemoryDb
  const configs = db.table<StoredRoutingConfig>("routing_configs")
  const buffers = new Map<string, Array<RoutingOutcome>>()
  const keyOf = (o: Pick<RoutingOutcome, "environment" | "providerId" | "methodId">, family: "health" | "conversion") =>
    `${o.environment}|${o.providerId}|${o.methodId}|${family}`
  return RoutingStore.of({
    record: (outcome) =>
      Effect.sync(() => {
        const key = keyOf(outcome, familyOf(outcome.kind))
        const buffer = buffers.get(key) ?? []
        buffer.push(outcome)
        // Trimmed by halves, so a record does not shift the whole buffer.
        if (buffer.length >= 2 * keep) buffer.splice(0, buffer.length - keep)
        buffers.set(key, buffer)
      }),
    recent: (key, kinds, limit) => Effect.sync(() => (buffers.get(keyOf(key, kinds)) ?? []).slice(-limit)),
    snapshot: ({ environment, methodId, shopId }, providerIds, limit) =>
      db.run(Effect.sync(() => ({
        config: Option.fromNullishOr(configs.get(`${environment}|${shopId}`)),
        routes: shopRoutes(db, environment, shopId),
        health: providerIds.flatMap((providerId) => (buffers.get(keyOf({ environment, providerId, methodId }, "health")) ?? []).slice(-limit))
          .sort((a, b) => a.at - b.at)
      }))),
    since: (environment, sinceMs, limit) =>
      Effect.sync(() =>
        Array.from(buffers.values()).flatMap((buffer) => buffer.filter((o) => o.environment === environment && o.at >= sinceMs))
          .sort((a, b) => a.at - b.at)
          .slice(-limit)
      ),
    prune: (beforeMs) =>
      Effect.sync(() => {
        for (const [key, buffer] of buffers) buffers.set(key, buffer.filter((o) => o.at >= beforeMs))
      }),
    config: (environment, shopId) => db.run(Effect.sync(() => Option.fromNullishOr(configs.get(`${environment}|${shopId}`)))),
    putConfig: (environment, shopId, expectedVersion, document) =>
      db.run(Effect.sync(() => {
        const key = `${environment}|${shopId}`
        if ((configs.get(key)?.version ?? 0) !== expectedVersion) return false
        configs.set(key, { version: expectedVersion + 1, document })
        return true
      }))
  })
}))
