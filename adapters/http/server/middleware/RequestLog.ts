/**
 * The last requests of each shop, per environment, for the merchant's request log
 * (`GET /me/requests`, the console's developers page): method, path without the query, status,
 * request id, time and duration. Kept in memory by each host replica, the last `requestLogSize`
 * per environment and shop (and at most `maxShops` shops, the first seen dropped first): writing
 * one is a store into a fixed ring on the request path, with no store round trip.
 * Nothing a query or a body carries is kept.
 */
import { Context, Layer } from "effect"
import type { Environment } from "../../../../core/Environment.ts"

export const requestLogSize = 100
const maxShops = 10_000

export interface LoggedRequest {
  readonly requestId: string
  readonly method: string
  /** The path only: a query string can carry an email, a phone or a document number. */
  readonly path: string
  readonly status: number
  readonly durationMs: number
  /** When it arrived (epoch milliseconds: formatted when read, not on the request path). */
  readonly atMs: number
}

export class RequestLog extends Context.Service<RequestLog, {
  readonly record: (environment: Environment, shopId: string, request: LoggedRequest) => void
  /** Newest first, with the time as ISO 8601. */
  readonly recent: (environment: Environment, shopId: string) => ReadonlyArray<Omit<LoggedRequest, "atMs"> & { readonly at: string }>
}>()("adapters/http/RequestLog") {
  static readonly layer = Layer.sync(RequestLog, () => {
    // One fixed ring per shop, written in place: no allocation or copying once it is full. A new
    // shop past `maxShops` drops the shop seen first (insertion order), not the least recent.
    const rings = new Map<string, { readonly items: Array<LoggedRequest>; next: number }>()
    return RequestLog.of({
      record: (environment, shopId, request) => {
        const key = `${environment}:${shopId}`
        let ring = rings.get(key)
        if (ring === undefined) {
          if (rings.size >= maxShops) rings.delete(rings.keys().next().value!)
          ring = { items: [], next: 0 }
          rings.set(key, ring)
        }
        ring.items[ring.next] = request
        ring.next = (ring.next + 1) % requestLogSize
      },
      recent: (environment, shopId) => {
        const ring = rings.get(`${environment}:${shopId}`)
        if (ring === undefined) return []
        const oldestFirst = [...ring.items.slice(ring.next), ...ring.items.slice(0, ring.next)]
        return oldestFirst.reverse().map(({ atMs, ...request }) => ({ ...request, at: new Date(atMs).toISOString() }))
      }
    })
  })
}
