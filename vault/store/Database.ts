/**
 * The vault's database: a PostgreSQL server (`DATABASE_URL`, tables in their own schema, `vault`
 * unless told otherwise) or embedded PGlite (`DATA_DIR`, in memory when absent: development only).
 * Either way the tables are migrated at start and `CardStore` runs on it.
 */
import { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { MigrationsLayer } from "./Migrations.ts"
import { pgliteStream } from "./PgliteStream.ts"
import * as SqlCardStore from "./SqlCardStore.ts"

const quoted = (name: string) => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error("the vault's schema name must be lower-case letters, digits and _")
  return `"${name}"`
}

export const postgresClient = (url: Redacted.Redacted<string>, schema = "vault") =>
  Layer.effectDiscard(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`CREATE SCHEMA IF NOT EXISTS ${quoted(schema)}`)
  })).pipe(Layer.provideMerge(PgClient.layer({ url, maxConnections: 5, startupParameters: { search_path: schema } })))

export const pgliteClient = (dataDir: string | undefined) =>
  Layer.unwrap(Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(
      Effect.promise(() => PGlite.create(dataDir === undefined ? {} : { dataDir })),
      (db) => Effect.promise(() => db.close())
    )
    return PgClient.layerFrom(PgClient.makeClient({ stream: () => pgliteStream(db), username: "postgres", database: "postgres" }))
  }))

export type DatabaseConfig =
  | { readonly _tag: "postgres"; readonly url: Redacted.Redacted<string>; readonly schema?: string }
  | { readonly _tag: "pglite"; readonly dataDir?: string }

/** `CardStore` migrated, and the `SqlClient` under it (a test reads the raw tables through it). */
export const storeLayer = (config: DatabaseConfig) =>
  SqlCardStore.layer.pipe(
    Layer.provideMerge(MigrationsLayer),
    Layer.provideMerge(config._tag === "postgres" ? postgresClient(config.url, config.schema) : pgliteClient(config.dataDir))
  )
