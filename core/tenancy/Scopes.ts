/**
 * Which shop a request acts on. A shop-bound credential acts on its shop; a merchant-wide one on
 * the shop named by `shopId`, or the merchant's first shop. Naming a merchant or shop the
 * credential does not cover answers like an unknown id.
 *
 * A sandbox request runs on the clock of the shop it acts on (DESIGN "Sandbox time"). It starts on
 * its credential's default shop's clock (`adapters/http/server/RequestClock.ts`); where the shop is
 * chosen by the request (a `shopId` it names, the shop of the record its path names), the handler
 * resolves it here and moves to that shop's clock with `onClock`: the shop is known once the
 * request is decoded, and resolved once.
 */
import { Context, Effect, Layer, Option } from "effect"
import { type ApiErrorOf, catchCode, notFound } from "../ApiError.ts"
import type { Principal } from "../auth/Principal.ts"
import { CurrentClockScope, ShopClocks } from "../clock/ShopClocks.ts"
import type { Environment } from "../Environment.ts"
import { TenancyStore } from "../ports/TenancyStore.ts"
import type { Merchant, Shop } from "./Merchant.ts"

export interface ShopScope {
  readonly environment: Environment
  readonly merchant: Merchant
  readonly shop: Shop
}

export class Scopes extends Context.Service<Scopes, {
  readonly resolve: (
    principal: Principal,
    named?: { readonly merchantId?: string | undefined; readonly shopId?: string | undefined }
  ) => Effect.Effect<ShopScope, ApiErrorOf<"not_found">>
  /**
   * The scope of a record found by id (a payment, a claim) whose shop is `ownerShopId`: that
   * shop when the credential covers it (a merchant-wide credential covers every shop of its
   * merchant), else the credential's default scope, where the id then answers 404 like an
   * unknown one.
   */
  readonly resolveOwning: (principal: Principal, ownerShopId: string | undefined) => Effect.Effect<ShopScope, ApiErrorOf<"not_found">>
  /**
   * Runs `effect` on the clock of the shop `scope` acts on: unchanged when the request already
   * runs on it (its credential's default shop) or in production; else on that sandbox shop's
   * clock (its offset read once). Used as `effect.pipe(scopes.onClock(scope))`.
   */
  readonly onClock: (scope: ShopScope) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("core/tenancy/Scopes") {
  static readonly layer = Layer.effect(
    Scopes,
    Effect.gen(function*() {
      const tenancy = yield* TenancyStore
      const clocks = yield* ShopClocks
      const resolve = Effect.fnUntraced(function*(
        principal: Principal,
        named?: { readonly merchantId?: string | undefined; readonly shopId?: string | undefined }
      ) {
        if (named?.merchantId !== undefined && named.merchantId !== principal.merchant.id) {
          return yield* notFound("merchant", named.merchantId)
        }
        const bound = principal.credential.shopId
        const wanted = named?.shopId ?? bound
        if (bound !== null && wanted !== bound) return yield* notFound("shop", wanted!)
        // The default shop came with the credential (`AccessStore`): no second read for it.
        const shop = wanted === null || wanted === principal.shop?.id
          ? Option.fromNullishOr(principal.shop)
          : Option.filter(yield* tenancy.findShop(wanted), (s) => s.merchantId === principal.merchant.id)
        if (Option.isNone(shop)) return yield* notFound("shop", wanted ?? "(default)")
        return { environment: principal.environment, merchant: principal.merchant, shop: shop.value }
      })
      const resolveOwning = (principal: Principal, ownerShopId: string | undefined) =>
        ownerShopId === undefined
          ? resolve(principal)
          : resolve(principal, { shopId: ownerShopId }).pipe(catchCode("not_found", () => resolve(principal)))
      const onClock = (scope: ShopScope) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        scope.environment === "production"
          ? effect
          : Effect.flatMap(Effect.service(CurrentClockScope), (current) =>
            current === scope.shop.id ? effect : clocks.within(scope.environment, scope.shop.id, effect))
      return Scopes.of({ resolve, resolveOwning, onClock })
    })
  )
}
