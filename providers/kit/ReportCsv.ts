/**
 * What the provider report parsers share: reading a CSV file into rows that know their
 * 1-based line, and reading one cell as an exact decimal or a UTC instant, refusing the whole file
 * with the line and the column at the first cell that breaks the documented format.
 *
 * The CSV grammar is csv-parse's (RFC 4180 quoting, a UTF-8 BOM dropped). Line ends are made
 * `\n` before parsing: csv-parse counts a CRLF inside a quoted field as two lines, which would put
 * every later line number off by one.
 */
import { parse } from "csv-parse/sync"
import { BigDecimal, DateTime, Result } from "effect"
import { Money } from "../../core/ports/index.ts"
import { ReportFormatError } from "../../core/ports/ProviderReports.ts"

/** Thrown inside a parser, caught by {@link refusing}: the first error refuses the file. */
export const refuse = (line: number, column: string, message: string): never => {
  throw new ReportFormatError({ line, column, message })
}

/** Runs a parser body: its answer, or the {@link ReportFormatError} it threw. */
export const refusing = <A>(body: () => A): Result.Result<A, ReportFormatError> => {
  try {
    return Result.succeed(body())
  } catch (e) {
    if (e instanceof ReportFormatError) return Result.fail(e)
    throw e
  }
}

export interface CsvRow {
  /** 1-based line of the file where the record starts. */
  readonly line: number
  readonly cells: ReadonlyArray<string>
}

const normalizeLineEnds = (text: string): string => text.replace(/\r\n?/g, "\n")

const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)

/** The first physical line of the text (BOM dropped), to choose a delimiter from. */
export const firstLine = (text: string): string => {
  const plain = normalizeLineEnds(stripBom(text))
  const end = plain.indexOf("\n")
  return end === -1 ? plain : plain.slice(0, end)
}

/**
 * The delimiter among `candidates` that splits the header line into the most fields (the first
 * candidate on a tie): for reports whose separator the account configures.
 */
export const chooseDelimiter = (header: string, candidates: ReadonlyArray<string>): string => {
  let best = candidates[0]!
  let most = -1
  for (const candidate of candidates) {
    const count = header.split(candidate).length
    if (count > most) {
      most = count
      best = candidate
    }
  }
  return best
}

/** Every non-blank record of the file with its line; a CSV syntax error refuses the file at its line. */
export const readCsv = (text: string, delimiter: string): ReadonlyArray<CsvRow> => {
  let records: Array<{ record: Array<string>; info: { lines: number } }>
  try {
    records = parse(normalizeLineEnds(stripBom(text)), {
      delimiter,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true
    }) as unknown as Array<{ record: Array<string>; info: { lines: number } }>
  } catch (e) {
    const error = e as { readonly lines?: number; readonly message?: string }
    return refuse(typeof error.lines === "number" ? error.lines : 1, "", `not CSV: ${error.message ?? String(e)}`)
  }
  return records
    .map(({ info, record }) => ({
      // info.lines is the line the record ends on; a quoted field may hold line breaks.
      line: info.lines - record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0),
      cells: record
    }))
    .filter((row) => row.cells.some((cell) => cell.trim() !== ""))
}

/** Column name -> index, from a header row; the first occurrence wins. */
export const indexColumns = (cells: ReadonlyArray<string>, name: (cell: string) => string = (cell) => cell.trim()): ReadonlyMap<string, number> => {
  const index = new Map<string, number>()
  cells.forEach((cell, i) => {
    const key = name(cell)
    if (key !== "" && !index.has(key)) index.set(key, i)
  })
  return index
}

/** Refuses the header line when one of `required` is not among its columns. */
export const requireColumns = (line: number, columns: ReadonlyMap<string, number>, required: ReadonlyArray<string>): void => {
  for (const column of required) {
    if (!columns.has(column)) refuse(line, column, `the header has no ${column} column`)
  }
}

/** The trimmed text of a cell ("" when the row is shorter than the header). */
export const cell = (row: CsvRow, columns: ReadonlyMap<string, number>, column: string): string => {
  const at = columns.get(column)
  return at === undefined ? "" : (row.cells[at] ?? "").trim()
}

const decimalText = /^[+-]?\d+(\.\d+)?$/

/**
 * A decimal cell as exact `BigDecimal` (a point for decimals, no grouping, no exponent). Checked
 * against the pattern first: `Money.decimal` reads "" as 0 and "1e5" as 100000.
 */
export const decimalCell = (row: CsvRow, columns: ReadonlyMap<string, number>, column: string): BigDecimal.BigDecimal => {
  const text = cell(row, columns, column)
  if (!decimalText.test(text)) {
    return refuse(row.line, column, text === "" ? `${column} is empty` : `${column} is not a decimal number: ${JSON.stringify(text)}`)
  }
  return Money.decimal(text)
}

/** Like {@link decimalCell}, null for an empty cell. */
export const optionalDecimalCell = (row: CsvRow, columns: ReadonlyMap<string, number>, column: string): BigDecimal.BigDecimal | null =>
  cell(row, columns, column) === "" ? null : decimalCell(row, columns, column)

/** A currency cell the engine knows (ISO 4217). */
export const currencyCell = (row: CsvRow, columns: ReadonlyMap<string, number>, column: string): Money.Currency => {
  const text = cell(row, columns, column)
  if (!/^[A-Za-z]{3}$/.test(text) || !(text.toUpperCase() in Money.currencyExponents)) {
    return refuse(row.line, column, `${column} is not an ISO 4217 currency code: ${JSON.stringify(text)}`)
  }
  return text.toUpperCase()
}

const timestampText = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/

/**
 * A date or date-time cell as a UTC instant: `yyyy-MM-dd`, `yyyy-MM-dd HH:mm:ss` or
 * `yyyy-MM-ddTHH:mm:ss[.SSS]` with an optional zone (`Z`, `-04:00`, `-0400`). `zone: "required"`
 * refuses a text without a zone; `"utc"` reads one without a zone as UTC. Calendar checked: a
 * 30 February is refused, not rolled into March.
 */
export const timestampCell = (
  row: CsvRow,
  columns: ReadonlyMap<string, number>,
  column: string,
  options: { readonly zone: "required" | "utc"; readonly dateOnly?: boolean }
): DateTime.Utc => {
  const text = cell(row, columns, column)
  const m = timestampText.exec(text)
  const wrong = (why: string): never => refuse(row.line, column, `${column} is not a date${why}: ${JSON.stringify(text)}`)
  if (m === null) return wrong("")
  const [, y, mo, d, h, mi, s, frac, zone] = m
  if (options.dateOnly === true && (h !== undefined || zone !== undefined)) return wrong(" (yyyy-MM-dd)")
  if (options.dateOnly !== true && h === undefined) return wrong(" and time")
  if (options.zone === "required" && zone === undefined && options.dateOnly !== true) return wrong(" with a zone offset")
  const fields = [Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0)] as const
  const ms = Number(((frac ?? "") + "000").slice(0, 3))
  const local = new Date(Date.UTC(fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], ms))
  if (
    local.getUTCFullYear() !== fields[0] || local.getUTCMonth() !== fields[1] || local.getUTCDate() !== fields[2] ||
    local.getUTCHours() !== fields[3] || local.getUTCMinutes() !== fields[4] || local.getUTCSeconds() !== fields[5]
  ) {
    return wrong(" on the calendar")
  }
  let offsetMinutes = 0
  if (zone !== undefined && zone !== "Z") {
    const digits = zone.replace(":", "")
    const hours = Number(digits.slice(1, 3))
    const minutes = Number(digits.slice(3, 5))
    if (hours > 14 || minutes > 59) return wrong(" (zone offset)")
    offsetMinutes = (digits[0] === "-" ? -1 : 1) * (hours * 60 + minutes)
  }
  return DateTime.makeUnsafe(local.getTime() - offsetMinutes * 60_000)
}

/** The unsigned value. */
export const unsigned = (amount: BigDecimal.BigDecimal): BigDecimal.BigDecimal => BigDecimal.normalize(BigDecimal.abs(amount))
