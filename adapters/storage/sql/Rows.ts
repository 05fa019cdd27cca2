/** Conversions between SQL column values and domain values, shared by the SQL repositories. */
import { DateTime, Option } from "effect"

export const utc = (d: Date): DateTime.Utc => DateTime.makeUnsafe(d)
export const utcOrNull = (d: Date | null): DateTime.Utc | null => d === null ? null : utc(d)
export const date = (d: DateTime.Utc): Date => DateTime.toDateUtc(d)
export const dateOrNull = (d: DateTime.Utc | null): Date | null => d === null ? null : date(d)

/** The first row through `f`, or none. */
export const first = <A, B>(rows: ReadonlyArray<A>, f: (row: A) => B): Option.Option<B> =>
  rows.length === 0 ? Option.none() : Option.some(f(rows[0]!))
