/**
 * Provider report formats: dLocal's Settlement - Cross-border Payins Model report
 * (https://docs.dlocal.com/docs/reporting-payins; columns per
 * https://docs.gr4vy.com/guides/dashboard/reports/settlement/dlocal) and Mercado Pago's release
 * report (https://www.mercadopago.com.br/developers/en/docs/checkout-api/additional-content/reports/released-money/report-fields).
 * The fixtures are built by hand from those documented columns (neither provider publishes a full
 * example file as text); `fixtures/<provider>/report-*.md` say how.
 *
 * A parser is all or nothing: every refusal names the 1-based line and the documented column.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Result } from "effect"
import { readFileSync } from "node:fs"
import type { ReportFormat, ReportLine } from "../../core/ports/ProviderReports.ts"
import { dlocalSettlementReport } from "../../providers/dlocal/Report.ts"
import { mercadopagoReleaseReport } from "../../providers/mercadopago/Report.ts"

const fixture = (path: string): string => readFileSync(new URL(`./fixtures/${path}`, import.meta.url), "utf8")

const dlocalText = fixture("dlocal/report-settlement.csv")
const mpText = fixture("mercadopago/report-release.csv")
const mpPtText = fixture("mercadopago/report-release-pt-semicolon.csv")
const mercadopagoBrl = mercadopagoReleaseReport("BRL")

const text = (amount: BigDecimal.BigDecimal | null) => (amount === null ? null : BigDecimal.format(BigDecimal.normalize(amount)))

/** A line as plain data: amounts as exact text, the instant as ISO. */
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

/** The fixture with line `n` (1-based) passed through `edit`. */
const editLine = (input: string, n: number, edit: (line: string) => string) =>
  input.split("\n").map((line, i) => (i === n - 1 ? edit(line) : line)).join("\n")

/** Replaces the `index`th cell (0-based) of line `n`. */
const setCell = (input: string, n: number, index: number, value: string, separator = ",") =>
  editLine(input, n, (line) => line.split(separator).map((c, i) => (i === index ? value : c)).join(separator))

const withBomAndCrlf = (input: string) => "\uFEFF" + input.replace(/\n/g, "\r\n")

describe("dLocal settlement report", () => {
  it("reads every transaction row of the fixture", () => {
    assert.deepStrictEqual(lines(dlocalSettlementReport, dlocalText), [
      { line: 4, kind: "payment", providerRef: "T-901-a1b2c3", reference: "TXN-BR-1001", status: "PAID", normalized: "captured", amount: "250", currency: "BRL", fee: "1.75", feeCurrency: "USD", occurredAt: "2026-03-02T14:06:40.000Z" },
      { line: 5, kind: "payment", providerRef: "T-901-d4e5f6", reference: "TXN-MX-2002", status: "PAID", normalized: "captured", amount: "1000.5", currency: "MXN", fee: "1.5", feeCurrency: "USD", occurredAt: "2026-03-02T15:00:02.000Z" },
      { line: 6, kind: "payment", providerRef: "R-901-g7h8", reference: "TXN-CO-3003", status: "PAID", normalized: "captured", amount: "200000", currency: "COP", fee: "2", feeCurrency: "USD", occurredAt: "2026-03-03T09:45:10.000Z" },
      { line: 7, kind: "refund", providerRef: "REF-901-r1", reference: "TXN-BR-1001", status: "SUCCESS", normalized: "refunded", amount: "100", currency: "BRL", fee: "0.5", feeCurrency: "USD", occurredAt: "2026-03-04T10:20:00.000Z" },
      { line: 8, kind: "chargeback", providerRef: "CHB-901-c1", reference: "TXN-MX-2002", status: "CHARGEBACK", normalized: "charged_back", amount: "1000.5", currency: "MXN", fee: "15", feeCurrency: "USD", occurredAt: "2026-03-05T08:00:00.000Z" },
      { line: 9, kind: "adjustment", providerRef: "90555001", reference: null, status: "ADJUSTMENT", normalized: "settled", amount: "2.38", currency: "USD", fee: null, feeCurrency: null, occurredAt: "2026-03-05T18:45:12.000Z" },
      { line: 10, kind: "fee", providerRef: "770001", reference: null, status: "SETTLEMENT_FEE", normalized: "settled", amount: "25", currency: "USD", fee: null, feeCurrency: null, occurredAt: "2026-03-06T00:00:00.000Z" }
    ])
  })

  it("keeps six-decimal settlement amounts exact", () => {
    const input = setCell(dlocalText, 4, 12, "-1.749999")
    assert.strictEqual(lines(dlocalSettlementReport, input)[0]!.fee, "1.749999")
  })

  it("refuses a bad amount on line 4 (the first transaction), naming LOCAL_AMOUNT", () => {
    assert.deepStrictEqual(refusal(dlocalSettlementReport, setCell(dlocalText, 4, 8, "25O.00")), { line: 4, column: "LOCAL_AMOUNT" })
    assert.deepStrictEqual(refusal(dlocalSettlementReport, setCell(dlocalText, 4, 8, "")), { line: 4, column: "LOCAL_AMOUNT" })
    assert.deepStrictEqual(refusal(dlocalSettlementReport, setCell(dlocalText, 4, 8, "2.5e2")), { line: 4, column: "LOCAL_AMOUNT" })
  })

  it("refuses a bad amount on the HEADER row (line 2), naming NET_TOTAL_AMOUNT", () => {
    assert.deepStrictEqual(refusal(dlocalSettlementReport, setCell(dlocalText, 2, 5, "31.87USD")), { line: 2, column: "NET_TOTAL_AMOUNT" })
  })

  it("refuses a header without a column the lines need", () => {
    assert.deepStrictEqual(refusal(dlocalSettlementReport, setCell(dlocalText, 3, 12, "FEE")), { line: 3, column: "FEE_AMOUNT" })
    assert.deepStrictEqual(refusal(dlocalSettlementReport, setCell(dlocalText, 1, 1, "CURRENCY")), { line: 1, column: "SETTLEMENT_CURRENCY" })
  })

  it("refuses a wrong date, a wrong currency and an unknown row type", () => {
    assert.deepStrictEqual(refusal(dlocalSettlementReport, setCell(dlocalText, 6, 5, "2026-02-30 09:45:10")), { line: 6, column: "APPROVED_DATE" })
    assert.deepStrictEqual(refusal(dlocalSettlementReport, setCell(dlocalText, 5, 4, "02/03/2026 15:00")), { line: 5, column: "CREATION_DATE" })
    assert.deepStrictEqual(refusal(dlocalSettlementReport, setCell(dlocalText, 7, 9, "XXX")), { line: 7, column: "LOCAL_CURRENCY" })
    assert.deepStrictEqual(refusal(dlocalSettlementReport, setCell(dlocalText, 8, 0, "PAYOUT")), { line: 8, column: "ROW_TYPE" })
  })

  it("reads a report with no transactions (headers only) as zero lines", () => {
    const headersOnly = dlocalText.split("\n").slice(0, 3).join("\n") + "\n"
    assert.deepStrictEqual(lines(dlocalSettlementReport, headersOnly), [])
  })

  it("refuses an empty file and one without the transfer section", () => {
    assert.deepStrictEqual(refusal(dlocalSettlementReport, ""), { line: 1, column: "" })
    const detailOnly = dlocalText.split("\n").slice(2).join("\n")
    assert.deepStrictEqual(refusal(dlocalSettlementReport, detailOnly), { line: 1, column: "SETTLEMENT_CURRENCY" })
  })

  it("reads a file with a UTF-8 BOM and CRLF line ends the same", () => {
    assert.deepStrictEqual(lines(dlocalSettlementReport, withBomAndCrlf(dlocalText)), lines(dlocalSettlementReport, dlocalText))
  })

  it("counts lines of a quoted field with a line break", () => {
    const input = setCell(dlocalText, 4, 24, "\"Order\n1001\"")
    const parsed = lines(dlocalSettlementReport, withBomAndCrlf(input))
    assert.deepStrictEqual(parsed.map((l) => l.line), [4, 6, 7, 8, 9, 10, 11])
  })

  it("refuses a CSV syntax error with its line", () => {
    assert.deepStrictEqual(refusal(dlocalSettlementReport, setCell(dlocalText, 5, 2, "demo\"Login")), { line: 5, column: "" })
  })
})

describe("Mercado Pago release report", () => {
  it("reads the money movements of the fixture, skipping balances and sums", () => {
    assert.deepStrictEqual(lines(mercadopagoBrl, mpText), [
      { line: 3, kind: "payment", providerRef: "1316001234", reference: "TXN-MP-1", status: "release", normalized: "settled", amount: "100", currency: "BRL", fee: "3.99", feeCurrency: "BRL", occurredAt: "2026-03-02T13:15:30.000Z" },
      { line: 4, kind: "payment", providerRef: "1316001300", reference: "TXN-MP-2", status: "release", normalized: "settled", amount: "50", currency: "BRL", fee: "0.5", feeCurrency: "BRL", occurredAt: "2026-03-02T14:00:00.000Z" },
      { line: 5, kind: "refund", providerRef: "1316001234", reference: "TXN-MP-1", status: "release", normalized: "refunded", amount: "40", currency: "BRL", fee: "0", feeCurrency: "BRL", occurredAt: "2026-03-03T12:00:00.000Z" },
      { line: 6, kind: "chargeback", providerRef: "1316001300", reference: "TXN-MP-2", status: "block", normalized: "charged_back", amount: "49.5", currency: "BRL", fee: null, feeCurrency: null, occurredAt: "2026-03-04T15:00:00.000Z" },
      { line: 7, kind: "fee", providerRef: "1316001350", reference: "TXN-MP-3", status: "release", normalized: "settled", amount: "12.9", currency: "BRL", fee: "0", feeCurrency: "BRL", occurredAt: "2026-03-04T21:30:00.000Z" },
      { line: 8, kind: "payout", providerRef: "55501", reference: null, status: "release", normalized: "settled", amount: "1000", currency: "BRL", fee: null, feeCurrency: null, occurredAt: "2026-03-05T11:00:00.000Z" }
    ])
  })

  it("reads translated headers ending in the column code, a ';' separator and ISO offsets", () => {
    assert.deepStrictEqual(lines(mercadopagoReleaseReport("brl"), mpPtText), [
      { line: 3, kind: "payment", providerRef: "1316009999", reference: "TXN-MP-9", status: "release", normalized: "settled", amount: "100", currency: "BRL", fee: "3.99", feeCurrency: "BRL", occurredAt: "2026-03-02T13:15:30.000Z" }
    ])
  })

  it("refuses a bad amount on line 3, naming its column", () => {
    assert.deepStrictEqual(refusal(mercadopagoBrl, setCell(mpText, 3, 7, "1OO.00")), { line: 3, column: "GROSS_AMOUNT" })
    assert.deepStrictEqual(refusal(mercadopagoBrl, setCell(mpText, 3, 8, "-3.99-")), { line: 3, column: "MP_FEE_AMOUNT" })
    assert.deepStrictEqual(refusal(mercadopagoBrl, setCell(mpText, 3, 5, "abc")), { line: 3, column: "NET_CREDIT_AMOUNT" })
  })

  it("checks the amounts of the balance and sum rows too", () => {
    assert.deepStrictEqual(refusal(mercadopagoBrl, setCell(mpText, 11, 5, "1 645.51")), { line: 11, column: "NET_CREDIT_AMOUNT" })
  })

  it("refuses a header without a column the lines need", () => {
    assert.deepStrictEqual(refusal(mercadopagoBrl, setCell(mpText, 1, 2, "REFERENCE")), { line: 1, column: "EXTERNAL_REFERENCE" })
    assert.deepStrictEqual(refusal(mercadopagoBrl, setCell(mpPtText, 1, 3, "Tipo de registro", ";")), { line: 1, column: "RECORD_TYPE" })
  })

  it("refuses a wrong date: off the calendar, without its zone, or not a date", () => {
    assert.deepStrictEqual(refusal(mercadopagoBrl, setCell(mpText, 4, 0, "2026-02-29T11:00:00-0300")), { line: 4, column: "DATE" })
    assert.deepStrictEqual(refusal(mercadopagoBrl, setCell(mpText, 4, 0, "2026-03-02T11:00:00")), { line: 4, column: "DATE" })
    assert.deepStrictEqual(refusal(mercadopagoBrl, setCell(mpText, 4, 0, "02/03/2026")), { line: 4, column: "DATE" })
  })

  it("refuses an unknown record type", () => {
    assert.deepStrictEqual(refusal(mercadopagoBrl, setCell(mpText, 5, 3, "settlement")), { line: 5, column: "RECORD_TYPE" })
  })

  it("reads a report with the header only as zero lines", () => {
    assert.deepStrictEqual(lines(mercadopagoBrl, mpText.split("\n")[0]! + "\n"), [])
    assert.deepStrictEqual(refusal(mercadopagoBrl, ""), { line: 1, column: "" })
  })

  it("reads a file with a UTF-8 BOM and CRLF line ends the same", () => {
    assert.deepStrictEqual(lines(mercadopagoBrl, withBomAndCrlf(mpText)), lines(mercadopagoBrl, mpText))
    assert.deepStrictEqual(lines(mercadopagoBrl, withBomAndCrlf(mpPtText)), lines(mercadopagoBrl, mpPtText))
  })

  it("is a format per account currency", () => {
    assert.strictEqual(lines(mercadopagoReleaseReport("MXN"), mpText)[0]!.currency, "MXN")
    assert.throws(() => mercadopagoReleaseReport("XXQ"))
  })
})
