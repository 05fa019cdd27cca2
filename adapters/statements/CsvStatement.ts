/**
 * A settlement statement as CSV: a header row, then one row per line of the batch,
 * written by `csv-stringify` as RFC 4180 says: fields holding a comma, a double quote or a line
 * break are quoted and their quotes doubled, records end in CRLF.
 *
 * - Times are ISO 8601 in UTC (`2026-11-02T14:03:22.000Z`).
 * - Amounts are plain decimal text with exactly the currency's decimals (`1234.50` USD, `15000`
 *   CLP): no thousands separator, `.` as the decimal point, signed (`-3.50`), as Stripe's reports
 *   write them.
 * - Each line goes from gross to net: `gross_usd - fees_usd + reserve_usd - owed_recovered_usd
 *   - refunds_usd - chargebacks_usd + other_usd = net_usd` (reserve is negative when held,
 *   positive when released), and `net_usd` over the lines sums to the batch's net.
 * - `installments`: a card payment's line, the instalment count it was paid in; blank otherwise.
 * - Formula injection (OWASP, "CSV Injection"): a text cell (ids, references, the merchant's
 *   order id, the method) that starts with `=`, `+`, `-`, `@`, a tab or a carriage return would
 *   be run as a formula by a spreadsheet, so it is prefixed with `'`, which makes the spreadsheet
 *   read it as text. Amount cells are numbers written by us and are never touched, so `-3.50`
 *   stays a number a spreadsheet can add up.
 */
import { stringify } from "csv-stringify/sync"
import { DateTime } from "effect"
import { amountText, type Statement, type StatementLine } from "../../core/settlements/Statement.ts"

/** The header row, in column order: snake_case names, like Stripe's report columns. */
export const csvColumns = [
  "batch_id",
  "at_utc",
  "kind",
  "transaction_id",
  "reference",
  "merchant_order_id",
  "method",
  "amount_local",
  "currency_local",
  "gross_usd",
  "fees_usd",
  "reserve_usd",
  "owed_recovered_usd",
  "refunds_usd",
  "chargebacks_usd",
  "other_usd",
  "net_usd",
  // Added after the first release: appended, so that a reader of the earlier columns by position keeps working.
  "installments"
] as const

const formulaStart = /^[=+\-@\t\r]/

/** A text cell a spreadsheet reads as text, never as a formula (OWASP's `'` prefix). */
export const guardText = (text: string | null): string =>
  text === null ? "" : formulaStart.test(text) ? `'${text}` : text

const row = (batchId: string, line: StatementLine): ReadonlyArray<string> => [
  guardText(batchId),
  DateTime.formatIso(line.at),
  line.kind,
  guardText(line.transactionId),
  guardText(line.reference),
  guardText(line.merchantOrderId),
  guardText(line.method),
  line.amountLocal === null || line.currencyLocal === null ? "" : amountText(line.amountLocal, line.currencyLocal),
  guardText(line.currencyLocal),
  amountText(line.grossUsd, "USD"),
  amountText(line.feesUsd, "USD"),
  amountText(line.reserveUsd, "USD"),
  amountText(line.owedRecoveredUsd, "USD"),
  amountText(line.refundsUsd, "USD"),
  amountText(line.chargebacksUsd, "USD"),
  amountText(line.otherUsd, "USD"),
  amountText(line.amountUsd, "USD"),
  line.installments === undefined ? "" : String(line.installments)
]

/**
 * The statement's lines as CSV text, starting with a UTF-8 byte order mark: Excel opens a CSV
 * without one in the machine's legacy code page (Windows-1252 and the like), which turns a
 * merchant's "Café São João" into "CafÃ© SÃ£o JoÃ£o"; with the BOM it reads UTF-8. Serve it as
 * `text/csv; charset=utf-8` and encode the string as UTF-8 (the BOM is its first character,
 * U+FEFF).
 */
export const csv = (statement: Statement): string =>
  stringify(statement.lines.map((line) => row(statement.batch.id, line)), {
    bom: true,
    header: true,
    columns: [...csvColumns],
    record_delimiter: "windows",
    quoted_empty: false
  })
