/**
 * The request log in memory: one fixed ring per environment and shop, written in place (no
 * allocation once full), at most `maxShops` shops (the first seen dropped first).
 */
import { Effect, Layer } from "effect"
import { type LoggedRequest, requestLogSize, RequestLogStore } from "../../../core/ports/RequestLogStore.ts"

const maxShops = 10_000

export const MemoryRequestLogStore = Layer.sync(RequestLogStore, () => {
  const rings = new Map<string, { readonly items: Array<LoggedRequest>; next: number }>()
  return RequestLogStore.of({
    record: (request) => {
      const key = `${request.environment}:${request.shopId}`
      let ring = rings.get(key)
      if (ring === undefined) {
        if (rings.size >= maxShops) rings.delete(rings.keys().next().value!)
        ring = { items: [], next: 0 }
        rings.set(key, ring)
      }
      ring.items[ring.next] = request
      ring.next = (ring.next + 1) % requestLogSize
    },
    recent: (environment, shopId) =>
      Effect.sync(() => {
        const ring = rings.get(`${environment}:${shopId}`)
        if (ring === undefined) return []
        return [...ring.items.slice(ring.next), ...ring.items.slice(0, ring.next)].reverse()
      })
  })
})
