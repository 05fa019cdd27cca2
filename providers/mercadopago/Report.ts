/**
 * Mercado Pago's release report ("Liberaciones" / released money, CSV), read into report lines.
 *
 * Documented at https://www.mercadopago.com.br/developers/en/docs/checkout-api/additional-content/reports/released-money/report-fields
 * (the glossary: columns, RECORD_TYPE and DESCRIPTION values, DATE as yyyy-MM-dd'T'HH:mm:ssZ) and
 * .../released-money/api (`POST /v1/account/release_report/config`: the columns are chosen by the
 * account, `separator` defaults to "," and may be another such as ";", `report_translation`
 * gives the headers in en/es/pt, `display_timezone` sets the offset of the dates).
 *
 * So the header is read, not assumed: a column is found by its code, bare (`SOURCE_ID`) or at the
 * end of a translated header (`ID de operación en Mercado Pago (SOURCE_ID)`). Rows are sections
 * of the account's balance: `initial_available_balance`, `release`, `block`, `unblock`,
 * `fullblock`, `subtotal`, `total`, `available_balance`; only the money movements (`release`,
 * `block`, `unblock`, `fullblock`) are report lines, the balances and sums are checked only.
 *
 * The glossary lists no currency column: the report is in the account's currency, which the
 * connector's configuration knows, hence a format per currency.
 */
import { BigDecimal } from "effect"
import { Money } from "../../core/ports/index.ts"
import type { ReportFormat, ReportLine, ReportLineKind, ReportStatus } from "../../core/ports/ProviderReports.ts"
import {
  cell,
  chooseDelimiter,
  type CsvRow,
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
  "https://www.mercadopago.com.br/developers/en/docs/checkout-api/additional-content/reports/released-money/report-fields"

/** The columns the parser needs (the account may add others, which are ignored). */
export const requiredColumns = [
  "DATE",
  "SOURCE_ID",
  "EXTERNAL_REFERENCE",
  "RECORD_TYPE",
  "DESCRIPTION",
  "NET_CREDIT_AMOUNT",
  "NET_DEBIT_AMOUNT",
  "GROSS_AMOUNT"
] as const

/** Read when present: Mercado Pago's (and Mercado Libre's) fee on the line. */
export const feeColumn = "MP_FEE_AMOUNT"

/** The amount columns checked on every row where they are present and not empty. */
const amountColumns = [
  "NET_CREDIT_AMOUNT",
  "NET_DEBIT_AMOUNT",
  "GROSS_AMOUNT",
  "MP_FEE_AMOUNT",
  "FINANCING_FEE_AMOUNT",
  "SHIPPING_FEE_AMOUNT",
  "TAXES_AMOUNT",
  "COUPON_AMOUNT"
] as const

const movements = new Set(["release", "block", "unblock", "fullblock"])
const balances = new Set(["initial_available_balance", "subtotal", "total", "available_balance"])

/** A header cell's column code: `X (CODE)` -> CODE, `CODE` -> CODE (spaces as `_`). */
export const columnCode = (header: string): string => {
  const inParens = /\(([A-Za-z0-9_ ]+)\)\s*$/.exec(header.trim())
  return (inParens?.[1] ?? header).trim().replace(/\s+/g, "_").toUpperCase()
}

/** DESCRIPTION -> kind (the glossary's values; anything else is an adjustment). */
export const kindOf = (description: string): ReportLineKind => {
  const d = description.toLowerCase()
  if (d === "payment") return "payment"
  if (d === "refund") return "refund"
  if (d === "chargeback") return "chargeback"
  if (d === "withdrawal" || d === "payout") return "payout"
  if (d === "shipping" || d === "shipping_cancel" || d === "fee_release_in_advance" || d.startsWith("tax_")) return "fee"
  return "adjustment"
}

/**
 * RECORD_TYPE and kind -> the engine's word: released money is settled (a refund released is
 * `refunded`, a chargeback `charged_back`); blocked money is pending; unblocked is settled.
 */
const normalize = (recordType: string, kind: ReportLineKind): ReportStatus => {
  if (recordType === "block" || recordType === "fullblock") return kind === "chargeback" ? "charged_back" : "pending"
  if (kind === "refund") return "refunded"
  if (kind === "chargeback") return "charged_back"
  return "settled"
}

const parseReport = (text: string, currency: Money.Currency): ReadonlyArray<ReportLine> => {
  const rows = readCsv(text, chooseDelimiter(firstLine(text), [",", ";"]))
  const [header, ...body] = rows
  if (header === undefined) return refuse(1, "", "the file is empty: the header is missing")
  const columns = indexColumns(header.cells, columnCode)
  requireColumns(header.line, columns, requiredColumns)
  const lines: Array<ReportLine> = []
  for (const row of body) {
    for (const column of amountColumns) optionalDecimalCell(row, columns, column)
    const recordType = cell(row, columns, "RECORD_TYPE").toLowerCase()
    if (balances.has(recordType)) continue
    if (!movements.has(recordType)) {
      return refuse(row.line, "RECORD_TYPE", `unknown RECORD_TYPE ${JSON.stringify(cell(row, columns, "RECORD_TYPE"))}`)
    }
    lines.push(line(row, columns, recordType, currency))
  }
  return lines
}

const zero = (amount: BigDecimal.BigDecimal | null) => amount === null || BigDecimal.isZero(amount)

const line = (row: CsvRow, columns: ReadonlyMap<string, number>, recordType: string, currency: Money.Currency): ReportLine => {
  const description = cell(row, columns, "DESCRIPTION")
  const kind = kindOf(description)
  const gross = optionalDecimalCell(row, columns, "GROSS_AMOUNT")
  const credit = optionalDecimalCell(row, columns, "NET_CREDIT_AMOUNT")
  const debit = optionalDecimalCell(row, columns, "NET_DEBIT_AMOUNT")
  if (gross === null && credit === null && debit === null) {
    refuse(row.line, "GROSS_AMOUNT", "the line has no amount (GROSS_AMOUNT, NET_CREDIT_AMOUNT and NET_DEBIT_AMOUNT are empty)")
  }
  // The gross amount when there is one; a movement without one (a withdrawal) is its net.
  const amount = !zero(gross) ? gross! : !zero(credit) ? credit! : (debit ?? credit ?? gross)!
  const fee = optionalDecimalCell(row, columns, feeColumn)
  const text = (column: string) => cell(row, columns, column) || null
  return {
    line: row.line,
    kind,
    providerRef: text("SOURCE_ID"),
    reference: text("EXTERNAL_REFERENCE"),
    status: recordType,
    normalized: normalize(recordType, kind),
    amount: unsigned(amount),
    currency,
    fee: fee === null ? null : unsigned(fee),
    feeCurrency: fee === null ? null : currency,
    occurredAt: timestampCell(row, columns, "DATE", { zone: "required" })
  }
}

/**
 * The release report of an account whose currency is `accountCurrency` (BRL for a Brazilian
 * account, MXN for a Mexican one...): the file names no currency.
 */
export const mercadopagoReleaseReport = (accountCurrency: Money.Currency): ReportFormat => {
  const currency = Money.normalizeCurrency(accountCurrency)
  if (currency._tag === "None") throw new Error(`not an ISO 4217 currency: ${accountCurrency}`)
  return {
    provider: "mercadopago",
    name: "release-report-csv",
    documentation,
    parse: (text) => refusing(() => parseReport(text, currency.value))
  }
}
