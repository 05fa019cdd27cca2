/**
 * A sandbox request runs on the clock of the shop it acts on (`ShopClocks`): every timestamp,
 * expiry, schedule and event it writes is in that shop's time, and the jobs it schedules run on
 * that clock. The authentication middlewares wrap each endpoint with it.
 *
 * The shop is the one `Scopes.resolve` will pick: the credential's own shop, or for a
 * merchant-wide credential the `shopId` (and `merchantId`) the request names in its query string
 * or JSON body, as endpoints take them, else the merchant's first shop. A name the credential
 * does not cover leaves the request on the real clock; the endpoint answers 404 as before.
 * Production requests are untouched.
 */
import { Effect, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import type { Principal } from "../../../core/auth/Principal.ts"
import { ShopClocks } from "../../../core/clock/ShopClocks.ts"
import { Scopes } from "../../../core/tenancy/Scopes.ts"

const text = (value: unknown): string | undefined => typeof value === "string" ? value : undefined

/** The `shopId` and `merchantId` a request names, from its query string or JSON object body. */
const named = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const query = new URL(request.url, "http://localhost").searchParams
  let body: Record<string, unknown> = {}
  if ((request.headers["content-type"] ?? "").includes("json")) {
    const parsed = yield* request.json.pipe(Effect.orElseSucceed(() => undefined))
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) body = parsed as Record<string, unknown>
  }
  return {
    shopId: query.get("shopId") ?? text(body["shopId"]),
    merchantId: query.get("merchantId") ?? text(body["merchantId"])
  }
})

export const makeOnShopClock = Effect.gen(function*() {
  const scopes = yield* Scopes
  const clocks = yield* ShopClocks
  const shopOf = (principal: Principal) =>
    principal.credential.shopId !== null
      ? Effect.succeed(Option.some(principal.credential.shopId))
      : Effect.flatMap(named, (names) => Effect.option(Effect.map(scopes.resolve(principal, names), (s) => s.shop.id)))
  return <A, E, R>(principal: Principal, effect: Effect.Effect<A, E, R>) =>
    principal.environment === "production"
      ? effect
      : Effect.flatMap(shopOf(principal), (shopId) =>
        Option.isNone(shopId)
          ? effect
          // The default shop's clock offset came with the credential: no second read for it.
          : shopId.value === principal.shop?.id
          ? clocks.withinOffset(shopId.value, principal.clockOffsetMs, effect)
          : clocks.within("sandbox", shopId.value, effect))
})
