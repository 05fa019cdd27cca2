/** The tenancy store on SQL: merchants and their shops. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TenancyStore } from "../../../core/ports/TenancyStore.ts"
import type { Merchant, Shop, Tier } from "../../../core/tenancy/Merchant.ts"
import { date, first, utc } from "./Rows.ts"

interface MerchantRow {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly industry: string
  readonly tier: Tier
  readonly trustScore: number
  readonly createdAt: Date
}

interface ShopRow {
  readonly id: string
  readonly merchantId: string
  readonly name: string
  readonly createdAt: Date
}

const toMerchant = (r: MerchantRow): Merchant => ({ ...r, createdAt: utc(r.createdAt) })

const toShop = (r: ShopRow): Shop => ({ ...r, createdAt: utc(r.createdAt) })

export const SqlTenancyStore = Layer.effect(
  TenancyStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return TenancyStore.of({
      insertMerchant: (m) => sql`INSERT INTO merchants ${sql.insert({ ...m, createdAt: date(m.createdAt) })}`.pipe(Effect.asVoid, Effect.orDie),
      insertShop: (s) => sql`INSERT INTO shops ${sql.insert({ ...s, createdAt: date(s.createdAt) })}`.pipe(Effect.asVoid, Effect.orDie),
      findMerchant: (id) => sql<MerchantRow>`SELECT * FROM merchants WHERE id = ${id}`.pipe(Effect.map((r) => first(r, toMerchant)), Effect.orDie),
      findShop: (id) => sql<ShopRow>`SELECT * FROM shops WHERE id = ${id}`.pipe(Effect.map((r) => first(r, toShop)), Effect.orDie),
      listShops: (merchantId) =>
        sql<ShopRow>`SELECT * FROM shops WHERE merchant_id = ${merchantId} ORDER BY created_at, id`.pipe(
          Effect.map((rows) => rows.map(toShop)),
          Effect.orDie
        ),
      countMerchants: sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM merchants`.pipe(
        Effect.map((rows) => rows[0]?.n ?? 0),
        Effect.orDie
      ),
      listMerchants: (page) =>
        Effect.all({
          rows: sql<MerchantRow>`SELECT * FROM merchants ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`.pipe(
            Effect.map((rows) => rows.map(toMerchant))
          ),
          total: sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM merchants`.pipe(Effect.map((rows) => rows[0]?.n ?? 0))
        }).pipe(Effect.orDie)
    })
  })
)
