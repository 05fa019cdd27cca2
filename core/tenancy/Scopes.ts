/**
 * Which shop a request acts on. A shop-bound credential acts on its shop; a merchant-wide one on
 * the shop named by `shopId`, or the merchant's first shop. Naming a merchant or shop the
 * credential does not cover answers like an unknown id.
 */
import { Context, Effect, Layer, Option } from "effect"
import { type ApiErrorOf, catchCode, notFound } from "../ApiError.ts"
import type { Principal } from "../auth/Principal.ts"
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
}>()("core/tenancy/Scopes") {
  static readonly layer = Layer.effect(
    Scopes,
    Effect.gen(function*() {
      const tenancy = yield* TenancyStore
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
      return Scopes.of({ resolve, resolveOwning })
    })
  )
}
