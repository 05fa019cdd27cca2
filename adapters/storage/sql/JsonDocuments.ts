/**
 * A table of versioned JSON documents: `id`, `version`, `created_at`, `data jsonb`, plus the
 * indexed columns a store filters on. Claims, payouts and withdrawals are stored this way; the
 * document is the domain value through its JSON codec, written and read verbatim.
 */
import { Effect, Option, Schema } from "effect"
import type { SqlClient, Statement } from "effect/sql"

type Fragment = Statement.Fragment

type Column = string | number | boolean | Date | null

export const jsonDocuments = <A, I>(sql: SqlClient.SqlClient, table: string, codec: Schema.Codec<A, I>) => {
  const encode = Schema.encodeSync(codec)
  const decode = Schema.decodeUnknownSync(codec)
  const name = sql(table)
  const json = (doc: A) => JSON.stringify(encode(doc))

  const select = (where: Fragment, tail: Fragment = sql``) =>
    sql<{ readonly data: unknown }>`SELECT data FROM ${name} WHERE ${where} ${tail}`.pipe(Effect.map((rows) => rows.map((r) => decode(r.data))), Effect.orDie)

  return {
    /** Inserts `doc` with its indexed columns (camelCase keys become snake_case columns). */
    insert: (doc: A, columns: Record<string, Column>) => sql`INSERT INTO ${name} ${sql.insert({ ...columns, data: json(doc) })}`.pipe(Effect.asVoid, Effect.orDie),
    /** Inserts `doc` unless its `id` (or another unique column) is taken; false when it was. */
    insertIfAbsent: (doc: A, columns: Record<string, Column> & { readonly id: string }) =>
      sql<{ readonly id: string }>`INSERT INTO ${name} ${sql.insert({ ...columns, data: json(doc) })} ON CONFLICT DO NOTHING RETURNING id`.pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.orDie
      ),
    select,
    first: (where: Fragment) => Effect.map(select(where), (docs) => Option.fromNullishOr(docs[0])),
    /** Writes `doc` at `version` if the stored version is `version - 1`; false when another writer won. */
    update: (doc: A, id: string, version: number, set: Fragment = sql``) =>
      sql<{ readonly id: string }>`
        UPDATE ${name} SET version = ${version}, data = ${json(doc)} ${set}
        WHERE id = ${id} AND version = ${version - 1} RETURNING id`.pipe(Effect.map((r) => r.length === 1), Effect.orDie),
    /** Newest first, with the total count of the filter. */
    page: (where: Fragment, page: { readonly limit: number; readonly offset: number }) =>
      Effect.all({
        rows: select(where, sql`ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`),
        total: sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM ${name} WHERE ${where}`.pipe(Effect.map((r) => r[0]?.n ?? 0), Effect.orDie)
      })
  }
}
