/**
 * EBANX's "All Transactions Report" (CSV), read into report lines.
 *
 * EBANX documents its reports at https://docs.ebanx.com/docs/reports/ : the Settlement Report
 * (https://docs.ebanx.com/docs/reports/settlement-report: a header of the settlement,
 * `settlement_code`, `settlement_currency`, `merchant_id`, `merchant_name`, `generate_date`,
 * `settlement_date`..., then its transactions, usually settled in USD) and the All Transactions
 * Report (https://docs.ebanx.com/docs/reports/all-transactions-report: payments, refunds,
 * chargebacks and reversals in one table, one row per transaction, delivered as CSV, XLSX or
 * JSON). The latter is the one read here: it is line per transaction, which is what matching needs.
 *
 * Columns read, as that page names them (upper case, words separated by a space):
 *
 *   PAYMENT HASH           EBANX's payment hash                          -> providerRef of a payment
 *   MERCHANT PAYMENT CODE  the merchant's code, EBANX's merchant_payment_code -> reference
 *   STATUS                 CO, CA, OP, PE (the API's payment status)
 *   OPEN DATE              yyyy-MM-dd HH:mm:ss (no zone: read as UTC)
 *   CONFIRM DATE           yyyy-MM-dd HH:mm:ss or empty                  -> occurredAt when present
 *   AMOUNT LOCAL           the amount in the local currency (checked)
 *   AMOUNT EXT             the amount in the merchant's (request's) currency -> amount
 *
 * The page says each row also carries "the transaction type" and "fees", and amounts in two
 * currencies, but the names of those columns could not be read from public material. They are
 * taken here as TRANSACTION TYPE (Payment, Refund, Chargeback, Chargeback Reversal), CURRENCY
 * LOCAL, CURRENCY EXT, FEE (in CURRENCY EXT) and REFUND ID (EBANX's refund id, the providerRef of
 * a refund row), in the page's own naming style; see the README's "Reports" section. Only the
 * columns the parser needs are required; others are ignored.
 */
import type { BigDecimal } from "effect"
import type { ReportFormat, ReportLine, ReportLineKind, ReportStatus } from "../../core/ports/ProviderReports.ts"
import {
  cell,
  chooseDelimiter,
  currencyCell,
  type CsvRow,
  decimalCell,
  firstLine,
  indexColumns,
  optionalDecimalCell,
  readCsv,
  refuse,
  refusing,
  requireColumns,
  timestampCell,
  unsigned
} from "../kit/ReportCsv.ts"

export const documentation =
  "https://docs.ebanx.com/docs/reports/all-transactions-report (All Transactions Report; the settlement header per https://docs.ebanx.com/docs/reports/settlement-report)"

/** The columns the parser needs. */
export const requiredColumns = [
  "TRANSACTION TYPE",
  "PAYMENT HASH",
  "MERCHANT PAYMENT CODE",
  "STATUS",
  "OPEN DATE",
  "CONFIRM DATE",
  "AMOUNT LOCAL",
  "CURRENCY LOCAL",
  "AMOUNT EXT",
  "CURRENCY EXT",
  "FEE"
] as const

/** Read when present: EBANX's refund id on a refund row. */
export const refundIdColumn = "REFUND ID"

/** TRANSACTION TYPE -> kind (case and `_` / space insensitive); anything else refuses the file. */
const kinds: Readonly<Record<string, ReportLineKind>> = {
  PAYMENT: "payment",
  REFUND: "refund",
  CHARGEBACK: "chargeback",
  CHARGEBACK_REVERSAL: "adjustment",
  REVERSAL: "adjustment"
}

/**
 * STATUS -> the engine's word. The statuses are EBANX's payment (and refund) statuses: CO
 * confirmed, CA cancelled, OP opened, PE pending (https://docs.ebanx.com/docs/reports/all-transactions-report);
 * a confirmed refund is refunded, a chargeback row is money that moved back.
 */
const normalize = (kind: ReportLineKind, status: string): ReportStatus => {
  const s = status.toUpperCase()
  if (s === "PE" || s === "OP" || s === "RE") return "pending"
  if (s === "CA") return "failed"
  if (s !== "CO") return "other"
  switch (kind) {
    case "payment":
      return "captured"
    case "refund":
      return "refunded"
    case "chargeback":
      return "charged_back"
    default:
      return "settled"
  }
}

const columnName = (header: string) => header.trim().toUpperCase().replace(/[_\s]+/g, " ")

const parseReport = (text: string): ReadonlyArray<ReportLine> => {
  const rows = readCsv(text, chooseDelimiter(firstLine(text), [",", ";"]))
  const [header, ...body] = rows
  if (header === undefined) return refuse(1, "", "the file is empty: the header is missing")
  const columns = indexColumns(header.cells, columnName)
  requireColumns(header.line, columns, requiredColumns)
  return body.map((row) => line(row, columns))
}

const line = (row: CsvRow, columns: ReadonlyMap<string, number>): ReportLine => {
  const typeText = cell(row, columns, "TRANSACTION TYPE")
  const kind = kinds[typeText.toUpperCase().replace(/[\s_]+/g, "_")]
  if (kind === undefined) return refuse(row.line, "TRANSACTION TYPE", `unknown TRANSACTION TYPE ${JSON.stringify(typeText)}`)
  if (cell(row, columns, "PAYMENT HASH") === "") refuse(row.line, "PAYMENT HASH", "PAYMENT HASH is empty")
  const status = cell(row, columns, "STATUS")
  if (status === "") refuse(row.line, "STATUS", "STATUS is empty")
  const opened = timestampCell(row, columns, "OPEN DATE", { zone: "utc" })
  const confirmed = cell(row, columns, "CONFIRM DATE") === "" ? null : timestampCell(row, columns, "CONFIRM DATE", { zone: "utc" })
  decimalCell(row, columns, "AMOUNT LOCAL")
  currencyCell(row, columns, "CURRENCY LOCAL")
  const amount: BigDecimal.BigDecimal = decimalCell(row, columns, "AMOUNT EXT")
  const currency = currencyCell(row, columns, "CURRENCY EXT")
  const fee = optionalDecimalCell(row, columns, "FEE")
  const refundId = cell(row, columns, refundIdColumn)
  if (kind === "refund" && columns.has(refundIdColumn) && refundId === "") refuse(row.line, refundIdColumn, `${refundIdColumn} is empty on a refund row`)
  const text = (column: string) => cell(row, columns, column) || null
  return {
    line: row.line,
    kind,
    providerRef: kind === "refund" && refundId !== "" ? refundId : text("PAYMENT HASH"),
    reference: text("MERCHANT PAYMENT CODE"),
    status,
    normalized: normalize(kind, status),
    amount: unsigned(amount),
    currency,
    fee: fee === null ? null : unsigned(fee),
    feeCurrency: fee === null ? null : currency,
    occurredAt: confirmed ?? opened
  }
}

export const ebanxTransactionsReport: ReportFormat = {
  provider: "ebanx",
  name: "all-transactions-csv",
  documentation,
  parse: (text) => refusing(() => parseReport(text))
}
