/** Table helpers the memory stores share. */
import { DateTime, Effect, Option } from "effect"
import { MemoryDb } from "./MemoryDb.ts"

/** A duplicate unique key: a defect, as SQL's unique index makes it. */
export const unique = (what: string, key: string) => Effect.die(new Error(`duplicate ${what}: ${key}`))

/** List order: newest first, then id descending, as the SQL lists sort. */
export const newestFirst = (a: { createdAt: DateTime.Utc; id: string }, b: { createdAt: DateTime.Utc; id: string }) =>
  DateTime.toEpochMillis(b.createdAt) - DateTime.toEpochMillis(a.createdAt) || b.id.localeCompare(a.id)

/** An insert that, like SQL's primary key, refuses a row whose id is taken (a defect: ids are unique by construction). */
export const insertOnce = <A>(db: MemoryDb["Service"], rows: Map<string, A>, id: string, row: A, what: string) =>
  db.run(Effect.suspend(() => rows.has(id) ? Effect.die(new Error(`duplicate ${what} ${id}`)) : Effect.sync(() => void rows.set(id, row))))

/** The rows an index (a journaled table of ids) names, in the order they were added. */
export const rowsOf = <A>(rows: Map<string, A>, ids: Map<string, true>): Array<A> => Array.from(ids.keys(), (id) => rows.get(id)!)

/**
 * A table of versioned rows with one index by owner (a shop, a payment): the memory twin of the
 * SQL store's `jsonDocuments`. `owned` runs inside the caller's `db.run`.
 */
export const versionedRows = <A extends { readonly id: string; readonly environment: string; readonly shopId: string; readonly version: number }>(
  db: MemoryDb["Service"],
  name: string,
  ownerOf: (row: A) => string
) => {
  const rows = db.table<A>(name)
  const ofOwner = (owner: string) => db.table<true>(`${name}_of|${owner}`)
  return {
    insert: (row: A) => db.run(Effect.andThen(insertOnce(db, rows, row.id, row, name), Effect.sync(() => void ofOwner(ownerOf(row)).set(row.id, true)))),
    find: (environment: string, shopId: string, id: string) =>
      db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(rows.get(id)), (r) => r.environment === environment && r.shopId === shopId))),
    findById: (id: string) => db.run(Effect.sync(() => Option.fromNullishOr(rows.get(id)))),
    /** Writes `row` if the stored version is `row.version - 1`; false when another writer won. */
    update: (row: A) =>
      db.run(Effect.sync(() => {
        const current = rows.get(row.id)
        if (current === undefined || current.version !== row.version - 1) return false
        rows.set(row.id, row)
        return true
      })),
    owned: (owner: string): Array<A> => rowsOf(rows, ofOwner(owner))
  }
}
