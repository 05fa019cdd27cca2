/** The tenancy store in memory: merchants and their shops. */
import { DateTime, Effect, Layer, Option } from "effect"
import { TenancyStore } from "../../../core/ports/TenancyStore.ts"
import type { Merchant, Shop } from "../../../core/tenancy/Merchant.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { rowsOf, unique } from "./MemoryRows.ts"

/** A merchant's shops (ids), journaled like the rows. */
export const shopsOf = (db: MemoryDb["Service"], merchantId: string) => db.table<true>(`shops_of|${merchantId}`)

export const MemoryTenancyStore = Layer.effect(
  TenancyStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const merchants = db.table<Merchant>("merchants")
    const shops = db.table<Shop>("shops")
    return TenancyStore.of({
      insertMerchant: (m) =>
        db.run(Effect.suspend(() => merchants.has(m.id) ? unique("merchant", m.id) : Effect.sync(() => void merchants.set(m.id, m)))),
      insertShop: (s) =>
        db.run(Effect.suspend(() =>
          shops.has(s.id) ? unique("shop", s.id) : Effect.sync(() => {
            shops.set(s.id, s)
            shopsOf(db, s.merchantId).set(s.id, true)
          })
        )),
      findMerchant: (id) => db.run(Effect.sync(() => Option.fromNullishOr(merchants.get(id)))),
      findShop: (id) => db.run(Effect.sync(() => Option.fromNullishOr(shops.get(id)))),
      listShops: (merchantId) =>
        db.run(Effect.sync(() =>
          rowsOf(shops, shopsOf(db, merchantId)).sort((a, b) =>
            DateTime.toEpochMillis(a.createdAt) - DateTime.toEpochMillis(b.createdAt) || a.id.localeCompare(b.id)
          )
        )),
      countMerchants: db.run(Effect.sync(() => merchants.size)),
      listMerchants: ({ limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = Array.from(merchants.values()).sort((a, b) =>
            DateTime.toEpochMillis(b.createdAt) - DateTime.toEpochMillis(a.createdAt) || b.id.localeCompare(a.id)
          )
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        }))
    })
  })
)
