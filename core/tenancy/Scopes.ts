/**
 * Which shop a request acts on. A shop-bound credential acts on its shop; a merchant-wide one on
 * the shop named by `shopId`, or the merchant's first shop. Naming a merchant or shop the
 * credential does not cover answers like an unknown id.
 *
 * A sandbox request runs on the clock of the shop it acts on (DESIGN "Sandbox time"), and the
 * shapes here make that the only way to act on a shop. An authenticated request starts on its
 * credential's default shop's clock (`adapters/http/server/RequestClock.ts`), so `resolve` hands
 * out that shop alone. A shop the request chooses (a `shopId` it names, the shop of the record its
 * path names) is handed out only inside `within` / `withinOwning`, which run the work given the
 * scope on that shop's clock: there is no scope of another shop to pass to a service from outside
 * its clock, and nothing for a handler to remember.
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

/** The merchant and shop a request names (its body's or query's `merchantId`, `shopId`). */
export interface NamedShop {
  readonly merchantId?: string | undefined
  readonly shopId?: string | undefined
}

export class Scopes extends Context.Service<Scopes, {
  /**
   * The scope of the credential's default shop, whose clock the request already runs on. It
   * names no shop: a shop the request names is reached with `within`.
   */
  readonly resolve: (principal: Principal) => Effect.Effect<ShopScope, ApiErrorOf<"not_found">>
  /**
   * Runs `use` with the scope of the shop the request names (its default shop when it names
   * none), on that shop's clock: unchanged when the request already runs on it or in production;
   * else on that sandbox shop's clock (its offset read once).
   */
  readonly within: <A, E, R>(
    principal: Principal,
    named: NamedShop,
    use: (scope: ShopScope) => Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | ApiErrorOf<"not_found">, R>
  /**
   * `within` for a record found by id (a payment, a claim) whose shop is `ownerShopId`: that
   * shop when the credential covers it (a merchant-wide credential covers every shop of its
   * merchant), else the credential's default scope, where the id then answers 404 like an
   * unknown one.
   */
  readonly withinOwning: <A, E, R>(
    principal: Principal,
    ownerShopId: string | undefined,
    use: (scope: ShopScope) => Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | ApiErrorOf<"not_found">, R>
}>()("core/tenancy/Scopes") {
  static readonly layer = Layer.effect(
    Scopes,
    Effect.gen(function*() {
      const tenancy = yield* TenancyStore
      const clocks = yield* ShopClocks
      const resolveNamed = Effect.fnUntraced(function*(principal: Principal, named?: NamedShop) {
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
      const onClock = <A, E, R>(scope: ShopScope, use: (scope: ShopScope) => Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        scope.environment === "production"
          ? use(scope)
          : Effect.flatMap(Effect.service(CurrentClockScope), (current) =>
            current === scope.shop.id ? use(scope) : clocks.within(scope.environment, scope.shop.id, Effect.suspend(() => use(scope))))
      const within = <A, E, R>(principal: Principal, named: NamedShop, use: (scope: ShopScope) => Effect.Effect<A, E, R>) =>
        Effect.flatMap(resolveNamed(principal, named), (scope) => onClock(scope, use))
      const withinOwning = <A, E, R>(principal: Principal, ownerShopId: string | undefined, use: (scope: ShopScope) => Effect.Effect<A, E, R>) =>
        Effect.flatMap(
          ownerShopId === undefined
            ? resolveNamed(principal)
            : resolveNamed(principal, { shopId: ownerShopId }).pipe(catchCode("not_found", () => resolveNamed(principal))),
          (scope) => onClock(scope, use)
        )
      return Scopes.of({ resolve: (principal) => resolveNamed(principal), within, withinOwning })
    })
  )
}
