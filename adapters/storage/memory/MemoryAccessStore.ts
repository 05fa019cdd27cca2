/** The read behind authentication in memory: the credential, its merchant, its default shop and that shop's clock. */
import { DateTime, Effect, Layer, Option } from "effect"
import type { Credential } from "../../../core/auth/Credential.ts"
import { AccessStore } from "../../../core/ports/AccessStore.ts"
import type { Merchant, Shop } from "../../../core/tenancy/Merchant.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { credentialByKey } from "./MemoryCredentialStore.ts"
import { rowsOf } from "./MemoryRows.ts"
import { clockOffset } from "./MemorySandboxClockStore.ts"
import { shopsOf } from "./MemoryTenancyStore.ts"

export const MemoryAccessStore = Layer.effect(
  AccessStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const credentials = db.table<Credential>("credentials")
    const merchants = db.table<Merchant>("merchants")
    const shops = db.table<Shop>("shops")
    const revokedFamilies = db.table<DateTime.Utc>("revoked_refresh_families")
    /** The credential's bound shop, else its merchant's first (oldest) shop. */
    const defaultShop = (c: Credential): Shop | null => {
      if (c.shopId !== null) return shops.get(c.shopId) ?? null
      let first: Shop | null = null
      for (const s of rowsOf(shops, shopsOf(db, c.merchantId))) {
        const order = first === null ? -1 : DateTime.toEpochMillis(s.createdAt) - DateTime.toEpochMillis(first.createdAt) || s.id.localeCompare(first.id)
        if (order < 0) first = s
      }
      return first
    }
    return AccessStore.of({
      find: (lookup) =>
        db.run(Effect.sync(() => {
          const credential = "credentialId" in lookup ? credentials.get(lookup.credentialId) : credentialByKey(db, lookup)
          const merchant = credential === undefined ? undefined : merchants.get(credential.merchantId)
          if (credential === undefined || merchant === undefined) return Option.none()
          const shop = defaultShop(credential)
          return Option.some({
            credential,
            merchant,
            shop,
            clockOffsetMs: shop === null || credential.environment === "production" ? 0 : clockOffset(db, shop.id),
            familyRevoked: "familyId" in lookup && revokedFamilies.has(lookup.familyId)
          })
        }))
    })
  })
)
