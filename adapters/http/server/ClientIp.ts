/**
 * The buyer's address as the service's own edge saw it. With `trustedProxies` = n, the edge (and
 * any trusted proxy behind it) appended the n right-most `X-Forwarded-For` entries; the entry the
 * edge wrote about its client is the n-th from the right. Everything left of it was sent by the
 * client and may be forged, so the first hop is never used. Without trusted proxies the forwarding
 * headers are ignored and the socket's peer is the client.
 */
import { Option } from "effect"
import type { HttpServerRequest } from "effect/http"

export const clientIp = (request: HttpServerRequest.HttpServerRequest, trustedProxies: number): string | undefined => {
  if (trustedProxies > 0) {
    const forwarded = (request.headers["x-forwarded-for"] ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")
    if (forwarded.length >= trustedProxies) return forwarded[forwarded.length - trustedProxies]
    const realIp = request.headers["x-real-ip"]?.trim()
    if (realIp !== undefined && realIp !== "") return realIp
  }
  return Option.getOrUndefined(request.remoteAddress)
}
