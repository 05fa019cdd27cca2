/**
 * The last requests of each shop, per environment, for the merchant's request log
 * (`GET /me/requests`, the console's developers page): method, path without the query, status,
 * request id, time and duration. Kept in memory by each host replica, the last `requestLogSize`
 * per environment and shop (and at most `maxShops` shops, the least recently seen dropped
 * first): writing one is a push onto an array on the request path, with no store round trip.
 * Nothing a query or a body carries is kept.
 */
import { Context, Layer } from "effect"
import type { Environment } from "../../../core/Environment.ts"

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
    const rings = new Map<string, Array<LoggedRequest>>()
    return RequestLog.of({
      record: (environment, shopId, request) => {
        const key = `${environment}:${shopId}`
        const ring = rings.get(key) ?? []
        // Re-inserted: the map's order is the order shops were last seen in.
        rings.delete(key)
        rings.set(key, ring)
        ring.push(request)
        if (ring.length > requestLogSize) ring.splice(0, ring.length - requestLogSize)
        if (rings.size > maxShops) rings.delete(rings.keys().next().value!)
      },
      recent: (environment, shopId) =>
        [...(rings.get(`${environment}:${shopId}`) ?? [])].reverse().map(({ atMs, ...request }) => ({ ...request, at: new Date(atMs).toISOString() }))
    })
  })
}
