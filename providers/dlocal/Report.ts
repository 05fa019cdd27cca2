/**
 * dLocal's "Settlement - Cross-border Payins Model" report (CSV), read into report lines.
 *
 * dLocal names the report (https://docs.dlocal.com/docs/reporting-payins: delivered by email or
 * SFTP, CSV) but publishes no column list. The layout below is what public integrators of that
 * very report document: Gr4vy's field mapping of it
 * (https://docs.gr4vy.com/guides/dashboard/reports/settlement/dlocal) and Wikimedia's audit
 * parser with its anonymised sample (github.com/wikimedia/wikimedia-fundraising-SmashPig,
 * PaymentProviders/dlocal/Audit). The file has two sections, comma separated:
 *
 *   line 1  ROW_TYPE,SETTLEMENT_CURRENCY,NUMBER_OF_ITEMS,GROSS_TOTAL_AMOUNT,FEE_TOTAL_AMOUNT,NET_TOTAL_AMOUNT,TRANSFER_DATE,TRANSFER_ID
 *   line 2  HEADER,<the transfer's values>
 *   line 3  ROW_TYPE,MID,LOGIN,COUNTRY,CREATION_DATE,APPROVED_DATE,TRANSACTION_ID,DLOCAL_TRANSACTION_ID,
 *           LOCAL_AMOUNT,LOCAL_CURRENCY,FX_RATE,GROSS_AMOUNT,FEE_AMOUNT,NET_AMOUNT,PAYMENT_TYPE,...,STATUS,...
 *   line 4+ one row per transaction (PAYMENT, CAPTURE, REFUND, CHARGEBACK) or charge (ADJUSTMENT,
 *           SETTLEMENT_FEE); GROSS/FEE/NET in the settlement currency, signed (fees negative).
 *
 * Rows may be padded with empty cells to the widest section. Only the transaction rows are
 * report lines; the transfer (line 2) is checked and gives the settlement currency fees are in.
 */
import type { BigDecimal, DateTime } from "effect"
import type { Currency } from "../../core/ports/index.ts"
import type { ReportFormat, ReportLine, ReportLineKind, ReportStatus } from "../../core/ports/ProviderReports.ts"
import {
  cell,
  currencyCell,
  type CsvRow,
  decimalCell,
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
  "https://docs.dlocal.com/docs/reporting-payins (Settlement - Cross-border Payins Model; columns per https://docs.gr4vy.com/guides/dashboard/reports/settlement/dlocal)"

/** The transfer section's columns the parser reads. */
export const transferColumns = ["ROW_TYPE", "SETTLEMENT_CURRENCY", "NET_TOTAL_AMOUNT", "TRANSFER_DATE", "TRANSFER_ID"] as const

/** The transaction section's columns the parser reads (others, such as MID or CARD_BIN, are ignored). */
export const transactionColumns = [
  "ROW_TYPE",
  "CREATION_DATE",
  "APPROVED_DATE",
  "TRANSACTION_ID",
  "DLOCAL_TRANSACTION_ID",
  "LOCAL_AMOUNT",
  "LOCAL_CURRENCY",
  "FX_RATE",
  "GROSS_AMOUNT",
  "FEE_AMOUNT",
  "NET_AMOUNT",
  "STATUS"
] as const

/** ROW_TYPE -> kind. A row type not here refuses the file rather than being guessed. */
const kinds: Readonly<Record<string, ReportLineKind>> = {
  PAYMENT: "payment",
  CAPTURE: "payment",
  REFUND: "refund",
  CHARGEBACK: "chargeback",
  CHARGEBACK_REVERSAL: "adjustment",
  ADJUSTMENT: "adjustment",
  SETTLEMENT_FEE: "fee"
}

/**
 * STATUS -> the engine's word, per kind. Payment statuses are dLocal's payment statuses
 * (https://docs.dlocal.com/reference/payment-status-codes); a refund or chargeback row in a
 * settlement report is money that moved unless its status says otherwise; charges are settled.
 */
const normalize = (kind: ReportLineKind, status: string): ReportStatus => {
  const s = status.toUpperCase()
  switch (kind) {
    case "payment":
      switch (s) {
        case "PAID":
          return "captured"
        case "PENDING":
        case "AUTHORIZED":
        case "VERIFIED":
          return "pending"
        case "REJECTED":
        case "CANCELLED":
        case "EXPIRED":
          return "failed"
        case "REFUNDED":
          return "refunded"
        case "CHARGEBACK":
          return "charged_back"
        default:
          return "other"
      }
    case "refund":
    case "chargeback":
      switch (s) {
        case "PENDING":
          return "pending"
        case "REJECTED":
        case "CANCELLED":
          return "failed"
        default:
          return kind === "refund" ? "refunded" : "charged_back"
      }
    default:
      return "settled"
  }
}

const parseReport = (text: string): ReadonlyArray<ReportLine> => {
  const rows = readCsv(text, ",")
  const [summaryHeader, transfer, detailHeader, ...details] = rows
  if (summaryHeader === undefined) return refuse(1, "", "the file is empty: the transfer header is missing")

  const summary = indexColumns(summaryHeader.cells)
  requireColumns(summaryHeader.line, summary, transferColumns)
  if (summaryHeader.cells[0]?.trim() !== "ROW_TYPE") refuse(summaryHeader.line, "ROW_TYPE", "the first column of the transfer header is not ROW_TYPE")

  if (transfer === undefined) return refuse(summaryHeader.line + 1, "ROW_TYPE", "the HEADER row of the transfer is missing")
  if (cell(transfer, summary, "ROW_TYPE") !== "HEADER") refuse(transfer.line, "ROW_TYPE", "the row after the transfer header is not its HEADER row")
  const settlementCurrency: Currency = currencyCell(transfer, summary, "SETTLEMENT_CURRENCY")
  decimalCell(transfer, summary, "NET_TOTAL_AMOUNT")
  const transferDate = timestampCell(transfer, summary, "TRANSFER_DATE", { zone: "utc", dateOnly: true })
  if (cell(transfer, summary, "TRANSFER_ID") === "") refuse(transfer.line, "TRANSFER_ID", "TRANSFER_ID is empty")

  if (detailHeader === undefined) return refuse(transfer.line + 1, "ROW_TYPE", "the transaction header is missing")
  const columns = indexColumns(detailHeader.cells)
  if (detailHeader.cells[0]?.trim() !== "ROW_TYPE") refuse(detailHeader.line, "ROW_TYPE", "the first column of the transaction header is not ROW_TYPE")
  requireColumns(detailHeader.line, columns, transactionColumns)

  return details.map((row) => line(row, columns, settlementCurrency, transferDate))
}

const line = (
  row: CsvRow,
  columns: ReadonlyMap<string, number>,
  settlementCurrency: Currency,
  transferDate: DateTime.Utc
): ReportLine => {
  const rowType = cell(row, columns, "ROW_TYPE").toUpperCase()
  const kind = kinds[rowType]
  if (kind === undefined) {
    return refuse(row.line, "ROW_TYPE", `unknown ROW_TYPE ${JSON.stringify(cell(row, columns, "ROW_TYPE"))} (a second section is not supported either)`)
  }
  // Every number in the row is checked, even those the line does not carry.
  const local = decimalCell(row, columns, "LOCAL_AMOUNT")
  optionalDecimalCell(row, columns, "FX_RATE")
  decimalCell(row, columns, "GROSS_AMOUNT")
  const fee = decimalCell(row, columns, "FEE_AMOUNT")
  const net = decimalCell(row, columns, "NET_AMOUNT")
  const created = cell(row, columns, "CREATION_DATE") === "" ? null : timestampCell(row, columns, "CREATION_DATE", { zone: "utc" })
  const approved = cell(row, columns, "APPROVED_DATE") === "" ? null : timestampCell(row, columns, "APPROVED_DATE", { zone: "utc" })
  const status = cell(row, columns, "STATUS") || rowType
  const text = (column: string) => cell(row, columns, column) || null

  const transaction = kind === "payment" || kind === "refund" || kind === "chargeback"
  let amount: BigDecimal.BigDecimal
  let currency: Currency
  if (transaction) {
    amount = unsigned(local)
    currency = currencyCell(row, columns, "LOCAL_CURRENCY")
    if (created === null) refuse(row.line, "CREATION_DATE", "CREATION_DATE is empty")
  } else {
    // A charge (debit note, settlement fee) has no local amount: its money is NET_AMOUNT, in the settlement currency.
    amount = unsigned(net)
    currency = settlementCurrency
  }
  return {
    line: row.line,
    kind,
    providerRef: text("DLOCAL_TRANSACTION_ID"),
    reference: text("TRANSACTION_ID"),
    status,
    normalized: normalize(kind, status),
    amount,
    currency,
    fee: transaction ? unsigned(fee) : null,
    feeCurrency: transaction ? settlementCurrency : null,
    occurredAt: approved ?? created ?? (transaction ? null : transferDate)
  }
}

export const dlocalSettlementReport: ReportFormat = {
  provider: "dlocal",
  name: "settlement-cross-border-csv",
  documentation,
  parse: (text) => refusing(() => parseReport(text))
}
