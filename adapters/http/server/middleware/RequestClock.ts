/**
 * A sandbox request runs on the clock of the shop it acts on (`ShopClocks`): every timestamp,
 * expiry, schedule and event it writes is in that shop's time, and the jobs it schedules run on
 * that clock. The authentication middlewares start each request on the clock of its credential's
 * default shop, whose offset came with the credential: no read, no look at the body.
 *
 * Where the request chooses another shop (a merchant-wide credential naming `shopId`, or a path
 * naming a record of another of the merchant's shops), the shop is known once the request is
 * decoded; `Scopes.within` hands out its scope only on its clock, so a handler has no way to act
 * on it from this one. Production requests are untouched.
 */
import { Effect } from "effect"
import type { Principal } from "../../../../core/auth/Principal.ts"
import { ShopClocks } from "../../../../core/clock/ShopClocks.ts"

export const makeOnShopClock = Effect.map(ShopClocks, (clocks) =>
  <A, E, R>(principal: Principal, effect: Effect.Effect<A, E, R>) =>
    principal.environment === "production" || principal.shop === null
      ? effect
      : clocks.withinOffset(principal.shop.id, principal.clockOffsetMs, effect))
