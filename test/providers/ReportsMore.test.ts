/**
 * More provider report formats: EBANX's All Transactions Report (CSV,
 * https://docs.ebanx.com/docs/reports/all-transactions-report) and Conekta's transactions (the
 * JSON answer of `GET /transactions`, github.com/conekta/openapi). The fixtures are built by hand
 * from the documented fields (`fixtures/<provider>/report-*.md` say how and what is not confirmed).
 *
 * A parser is all or nothing: every refusal names the 1-based line and the documented column
 * (for JSON, the field, on the line its value starts).
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Result } from "effect"
import { readFileSync } from "node:fs"
import type { ReportFormat, ReportLine } from "../../core/ports/ProviderReports.ts"
import { conektaTransactionsReport } from "../../providers/conekta/Report.ts"
import { ebanxTransactionsReport } from "../../providers/ebanx/Report.ts"
import { connector as conektaConnector } from "../../providers/conekta/ConektaProvider.ts"
import { connector as dlocalConnector } from "../../providers/dlocal/DLocalProvider.ts"
import { dlocalSettlementReport } from "../../providers/dlocal/Report.ts"
import { connector as ebanxConnector, jwsConnector as ebanxJwsConnector } from "../../providers/ebanx/EbanxProvider.ts"

const fixture = (path: string): string => readFileSync(new URL(`./fixtures/${path}`, import.meta.url), "utf8")

const ebanxText = fixture("ebanx/report-all-transactions.csv")
const conektaText = fixture("conekta/report-transactions.json")

const text = (amount: BigDecimal.BigDecimal | null) => (amount === null ? null : BigDecimal.format(BigDecimal.normalize(amount)))

const plain = (line: ReportLine) => ({
  line: line.line,
  kind: line.kind,
  providerRef: line.providerRef,
  reference: line.reference,
  status: line.status,
  normalized: line.normalized,
  amount: text(line.amount),
  currency: line.currency,
  fee: text(line.fee),
  feeCurrency: line.feeCurrency,
  occurredAt: line.occurredAt === null ? null : DateTime.formatIso(line.occurredAt)
})

const lines = (format: ReportFormat, input: string) => {
  const result = format.parse(input)
  if (Result.isFailure(result)) assert.fail(`refused: line ${result.failure.line} ${result.failure.column}: ${result.failure.message}`)
  return result.success.map(plain)
}

const refusal = (format: ReportFormat, input: string) => {
  const result = format.parse(input)
  if (Result.isSuccess(result)) return assert.fail("parsed a malformed file")
  return { line: result.failure.line, column: result.failure.column }
}

const editLine = (input: string, n: number, edit: (line: string) => string) =>
  input.split("\n").map((line, i) => (i === n - 1 ? edit(line) : line)).join("\n")

const setCell = (input: string, n: number, index: number, value: string) =>
  editLine(input, n, (line) => line.split(",").map((c, i) => (i === index ? value : c)).join(","))

const withBomAndCrlf = (input: string) => "\uFEFF" + input.replace(/\n/g, "\r\n")

const hashA = "5f1a2b3c4d5e6f708192a3b4c5d6e7f80912a3b4c5d6e7f8"
const hashB = "6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b"

describe("EBANX All Transactions Report", () => {
  it("reads every row of the fixture", () => {
    assert.deepStrictEqual(lines(ebanxTransactionsReport, ebanxText), [
      { line: 2, kind: "payment", providerRef: hashA, reference: "INV-2024-001", status: "CO", normalized: "captured", amount: "543.1", currency: "BRL", fee: "20.13", feeCurrency: "BRL", occurredAt: "2024-10-24T14:22:30.000Z" },
      { line: 3, kind: "payment", providerRef: hashB, reference: "INV-2024-002", status: "CO", normalized: "captured", amount: "1250", currency: "MXN", fee: "45.5", feeCurrency: "MXN", occurredAt: "2024-10-25T09:00:00.000Z" },
      { line: 4, kind: "payment", providerRef: "7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c", reference: "INV-2024-003", status: "PE", normalized: "pending", amount: "100", currency: "BRL", fee: null, feeCurrency: null, occurredAt: "2024-10-25T08:15:00.000Z" },
      { line: 5, kind: "refund", providerRef: "7412563211", reference: "INV-2024-001", status: "CO", normalized: "refunded", amount: "100", currency: "BRL", fee: "0", feeCurrency: "BRL", occurredAt: "2024-10-26T12:00:00.000Z" },
      { line: 6, kind: "chargeback", providerRef: hashB, reference: "INV-2024-002", status: "CO", normalized: "charged_back", amount: "1250", currency: "MXN", fee: "15", feeCurrency: "MXN", occurredAt: "2024-10-27T09:00:00.000Z" },
      { line: 7, kind: "adjustment", providerRef: hashB, reference: "INV-2024-002", status: "CO", normalized: "settled", amount: "1250", currency: "MXN", fee: "0", feeCurrency: "MXN", occurredAt: "2024-10-28T09:00:00.000Z" }
    ])
  })

  it("refuses a bad amount, naming its line and column", () => {
    assert.deepStrictEqual(refusal(ebanxTransactionsReport, setCell(ebanxText, 3, 10, "1.250.00")), { line: 3, column: "AMOUNT EXT" })
    assert.deepStrictEqual(refusal(ebanxTransactionsReport, setCell(ebanxText, 2, 8, "")), { line: 2, column: "AMOUNT LOCAL" })
    assert.deepStrictEqual(refusal(ebanxTransactionsReport, setCell(ebanxText, 5, 12, "0.0O")), { line: 5, column: "FEE" })
  })

  it("refuses a wrong date, currency, type, an empty hash or refund id", () => {
    assert.deepStrictEqual(refusal(ebanxTransactionsReport, setCell(ebanxText, 4, 6, "25/10/2024 08:15")), { line: 4, column: "OPEN DATE" })
    assert.deepStrictEqual(refusal(ebanxTransactionsReport, setCell(ebanxText, 2, 7, "2024-02-30 14:22:30")), { line: 2, column: "CONFIRM DATE" })
    assert.deepStrictEqual(refusal(ebanxTransactionsReport, setCell(ebanxText, 6, 11, "R$")), { line: 6, column: "CURRENCY EXT" })
    assert.deepStrictEqual(refusal(ebanxTransactionsReport, setCell(ebanxText, 7, 1, "Payout")), { line: 7, column: "TRANSACTION TYPE" })
    assert.deepStrictEqual(refusal(ebanxTransactionsReport, setCell(ebanxText, 3, 2, "")), { line: 3, column: "PAYMENT HASH" })
    assert.deepStrictEqual(refusal(ebanxTransactionsReport, setCell(ebanxText, 5, 4, "")), { line: 5, column: "REFUND ID" })
  })

  it("refuses a header without a column the lines need, and an empty file", () => {
    assert.deepStrictEqual(refusal(ebanxTransactionsReport, setCell(ebanxText, 1, 3, "CODE")), { line: 1, column: "MERCHANT PAYMENT CODE" })
    assert.deepStrictEqual(refusal(ebanxTransactionsReport, ""), { line: 1, column: "" })
    assert.deepStrictEqual(lines(ebanxTransactionsReport, ebanxText.split("\n")[0]! + "\n"), [])
  })

  it("reads a BOM, CRLF, ';' and underscored headers the same", () => {
    assert.deepStrictEqual(lines(ebanxTransactionsReport, withBomAndCrlf(ebanxText)), lines(ebanxTransactionsReport, ebanxText))
    const semicolons = ebanxText.replace(/,/g, ";")
    assert.deepStrictEqual(lines(ebanxTransactionsReport, semicolons), lines(ebanxTransactionsReport, ebanxText))
    const underscored = editLine(ebanxText, 1, (l) => l.replace(/ /g, "_").toLowerCase())
    assert.deepStrictEqual(lines(ebanxTransactionsReport, underscored), lines(ebanxTransactionsReport, ebanxText))
  })

  it("refuses a CSV syntax error with its line", () => {
    assert.deepStrictEqual(refusal(ebanxTransactionsReport, setCell(ebanxText, 4, 0, "EBANX \"Demo")), { line: 4, column: "" })
  })
})

describe("Conekta transactions", () => {
  it("reads every transaction of the fixture, a line each, amounts from centavos exactly", () => {
    assert.deepStrictEqual(lines(conektaTransactionsReport, conektaText), [
      { line: 7, kind: "payment", providerRef: "ord_2fw8EWJusiRrxdPzT", reference: null, status: "available", normalized: "captured", amount: "350", currency: "MXN", fee: "14.67", feeCurrency: "MXN", occurredAt: "2020-08-10T14:28:02.000Z" },
      { line: 8, kind: "payment", providerRef: "ord_2i5d4gdwpZR5Yat6U", reference: null, status: "pending", normalized: "pending", amount: "120", currency: "MXN", fee: "9.28", feeCurrency: "MXN", occurredAt: "2018-02-16T01:33:13.000Z" },
      { line: 9, kind: "refund", providerRef: "ord_2fw8EWJusiRrxdPzT", reference: null, status: "available", normalized: "refunded", amount: "50", currency: "MXN", fee: "0", feeCurrency: "MXN", occurredAt: "2020-08-11T14:28:02.000Z" },
      { line: 10, kind: "chargeback", providerRef: "ord_2i5d4gdwpZR5Yat6U", reference: null, status: "available", normalized: "charged_back", amount: "120", currency: "MXN", fee: "0", feeCurrency: "MXN", occurredAt: "2018-02-17T01:33:13.000Z" },
      { line: 11, kind: "payout", providerRef: "6307a60c41de27127515a579", reference: null, status: "paid_out", normalized: "settled", amount: "285.33", currency: "MXN", fee: "0", feeCurrency: "MXN", occurredAt: "2020-08-12T14:28:02.000Z" },
      { line: 12, kind: "adjustment", providerRef: "6307a60c41de27127515a57a", reference: null, status: "rounding_adjustment/available", normalized: "settled", amount: "0.01", currency: "MXN", fee: "0", feeCurrency: "MXN", occurredAt: "2020-08-12T14:28:02.000Z" }
    ])
  })

  it("reads several pages joined in an array, and a bare array of transactions, the same", () => {
    const one = lines(conektaTransactionsReport, conektaText).map(({ line: _line, ...rest }) => rest)
    const pages = lines(conektaTransactionsReport, `[${conektaText},\n{"object":"list","has_more":false,"data":[]}]`).map(({ line: _line, ...rest }) => rest)
    assert.deepStrictEqual(pages, one)
    const data = JSON.stringify(JSON.parse(conektaText).data)
    assert.deepStrictEqual(lines(conektaTransactionsReport, data).map(({ line: _line, ...rest }) => rest), one)
  })

  it("refuses an amount that is not integer centavos, naming the line and the field", () => {
    assert.deepStrictEqual(refusal(conektaTransactionsReport, editLine(conektaText, 7, (l) => l.replace(`"amount": 35000`, `"amount": 350.00`))), { line: 7, column: "amount" })
    assert.deepStrictEqual(refusal(conektaTransactionsReport, editLine(conektaText, 9, (l) => l.replace(`"amount": -5000`, `"amount": "-5000"`))), { line: 9, column: "amount" })
    assert.deepStrictEqual(refusal(conektaTransactionsReport, editLine(conektaText, 8, (l) => l.replace(`"fee": 928`, `"fee": 9.28e2`))), { line: 8, column: "fee" })
  })

  it("refuses a missing field, a wrong currency, object or time", () => {
    assert.deepStrictEqual(refusal(conektaTransactionsReport, editLine(conektaText, 10, (l) => l.replace(`"type": "chargeback", `, ""))), { line: 10, column: "type" })
    assert.deepStrictEqual(refusal(conektaTransactionsReport, editLine(conektaText, 11, (l) => l.replace(`"currency": "MXN"`, `"currency": "PESOS"`))), { line: 11, column: "currency" })
    assert.deepStrictEqual(refusal(conektaTransactionsReport, editLine(conektaText, 7, (l) => l.replace(`"object": "transaction"`, `"object": "order"`))), { line: 7, column: "object" })
    assert.deepStrictEqual(refusal(conektaTransactionsReport, editLine(conektaText, 12, (l) => l.replace(`"created_at": 1597242482`, `"created_at": "2020-08-12"`))), { line: 12, column: "created_at" })
  })

  it("refuses a JSON syntax error with its line, and what is not a transactions list", () => {
    assert.deepStrictEqual(refusal(conektaTransactionsReport, editLine(conektaText, 9, (l) => l.replace(`"fee": 0,`, `"fee": 0`))), { line: 9, column: "" })
    assert.deepStrictEqual(refusal(conektaTransactionsReport, ""), { line: 1, column: "" })
    assert.deepStrictEqual(refusal(conektaTransactionsReport, `{"object":"list"}`), { line: 1, column: "data" })
    assert.deepStrictEqual(refusal(conektaTransactionsReport, `{"object":"list","data":{}}`), { line: 1, column: "data" })
    assert.deepStrictEqual(lines(conektaTransactionsReport, `{"object":"list","data":[]}`), [])
  })

  it("reads a BOM and CRLF line ends the same", () => {
    assert.deepStrictEqual(lines(conektaTransactionsReport, withBomAndCrlf(conektaText)), lines(conektaTransactionsReport, conektaText))
  })
})

describe("connectors name their report formats", () => {
  it("dLocal, EBANX (both schemes) and Conekta", () => {
    const settings = {} as never
    assert.deepStrictEqual(dlocalConnector.reportFormats?.(settings).map((f) => [f.provider, f.name]), [[dlocalSettlementReport.provider, dlocalSettlementReport.name]])
    assert.deepStrictEqual(ebanxConnector.reportFormats?.(settings).map((f) => [f.provider, f.name]), [["ebanx", "all-transactions-csv"]])
    assert.deepStrictEqual(ebanxJwsConnector.reportFormats?.(settings).map((f) => [f.provider, f.name]), [["ebanx-jws", "all-transactions-csv"]])
    assert.deepStrictEqual(conektaConnector.reportFormats?.(settings).map((f) => [f.provider, f.name]), [["conekta", "transactions-json"]])
  })
})
