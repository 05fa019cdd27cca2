import { Context, type Effect, type Option } from "effect"
import type { Merchant, Shop } from "../tenancy/Merchant.ts"

/** Merchants and their shops. */
export class TenancyStore extends Context.Service<TenancyStore, {
  readonly insertMerchant: (merchant: Merchant) => Effect.Effect<void>
  readonly insertShop: (shop: Shop) => Effect.Effect<void>
  readonly findMerchant: (id: string) => Effect.Effect<Option.Option<Merchant>>
  readonly findShop: (id: string) => Effect.Effect<Option.Option<Shop>>
  /** The merchant's shops, oldest first. */
  readonly listShops: (merchantId: string) => Effect.Effect<ReadonlyArray<Shop>>
  readonly countMerchants: Effect.Effect<number>
  /** Merchants, newest first, with the total count. */
  readonly listMerchants: (page: { readonly limit: number; readonly offset: number }) => Effect.Effect<{ readonly rows: ReadonlyArray<Merchant>; readonly total: number }>
}>()("core/ports/TenancyStore") {}
