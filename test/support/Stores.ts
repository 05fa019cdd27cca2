/**
 * The store targets every store test runs against: memory, embedded PGlite, and the PostgreSQL
 * server when `DATABASE_URL` is set (each suite in its own schema, dropped afterwards).
 */
import { DateTime, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { SqlStore } from "../../adapters/storage/sql/SqlStore.ts"
import { TenancyStore } from "../../core/ports/TenancyStore.ts"

export type StoreLayer = typeof MemoryStore.layer

const databaseUrl = process.env["DATABASE_URL"]

let counter = 0
const uniqueSchema = (label: string) =>
  `t_${label}_${process.pid}_${Date.now().toString(36)}_${(counter++).toString(36)}`.toLowerCase().replace(/[^a-z0-9_]/g, "_")

/** A PostgreSQL store in a fresh schema that is dropped when the layer is released. */
export const postgresStore = (url: string, label: string): StoreLayer => {
  const schema = uniqueSchema(label)
  const dropSchema = Layer.effectDiscard(Effect.addFinalizer(() =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).pipe(Effect.ignore)
  ))
  return dropSchema.pipe(Layer.provideMerge(SqlStore.postgres(url, { schema }))) as unknown as StoreLayer
}

export interface StoreTarget {
  readonly name: "memory" | "pglite" | "postgres"
  readonly layer: () => StoreLayer
}

export const storeTargets = (label: string): ReadonlyArray<StoreTarget> => [
  { name: "memory", layer: () => MemoryStore.layer },
  { name: "pglite", layer: () => SqlStore.pglite(undefined) as unknown as StoreLayer },
  ...(databaseUrl === undefined ? [] : [{ name: "postgres" as const, layer: () => postgresStore(databaseUrl, label) }])
]

if (databaseUrl === undefined) {
  console.log("DATABASE_URL is not set: store tests run on memory and PGlite only")
}

let shops = 0

/** A new merchant with one shop, written through the TenancyStore: what store contract tests hang their rows on. */
export const newShop = Effect.gen(function*() {
  const tenancy = yield* TenancyStore
  const n = `${++shops}_${Math.random().toString(36).slice(2, 8)}`
  const merchantId = `mer_${n}`
  const shopId = `shop_${n}`
  const createdAt = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
  yield* tenancy.insertMerchant({ id: merchantId, name: "M", email: "m@x.test", industry: "x", tier: "starter", trustScore: 500, createdAt })
  yield* tenancy.insertShop({ id: shopId, merchantId, name: "S", createdAt })
  return { merchantId, shopId }
})
