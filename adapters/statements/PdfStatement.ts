/**
 * A settlement statement as a PDF receipt, written with `pdfkit`: A4 landscape (the
 * lines table has fourteen columns, from gross to net), the built-in Helvetica (one of the PDF standard 14 fonts, so no
 * font file is embedded or fetched), text drawn as text so every word is selectable and
 * searchable.
 *
 * Page 1 holds the header (merchant, shop, batch, period and closing time in UTC, destination,
 * payout reference) and the summary; the lines table follows, its column headers repeated at the
 * top of every page, amounts right-aligned, and every page carries "page n of N".
 *
 * Text the merchant controls (names, order ids) is only ever drawn as a string: nothing reads it
 * as markup, a link or a command. Helvetica's encoding (WinAnsi) holds Latin-1 and a few more
 * characters; any other character is drawn as its unaccented letter when it has one (`ő` -> `o`)
 * or `?`, and control characters (line breaks, tabs) as spaces, so a name cannot break the
 * layout. The CSV carries the exact text.
 *
 * Rendering is synchronous CPU work; it yields to the event loop every 250 lines so a
 * host serving other requests is not blocked for the whole of a 10,000-line batch.
 */
import { BigDecimal, DateTime, Effect } from "effect"
import PDFDocument from "pdfkit"
import * as Money from "../../core/Money.ts"
import { amountText, type Statement, type StatementLine, type StatementLineKind } from "../../core/settlements/Statement.ts"

const fonts = { regular: "Helvetica", bold: "Helvetica-Bold" } as const

const page = { margin: 36, bodySize: 7, rowPadding: 2.5, cellPadding: 3 } as const

/** The 27 characters WinAnsi places in 0x80-0x9F, by their Unicode code points. */
const winAnsiExtra = new Set([
  0x20ac, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x017d,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x017e,
  0x0178
])

const encodable = (code: number): boolean =>
  (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff) || winAnsiExtra.has(code)

/**
 * Text as Helvetica can draw it: every character kept when WinAnsi holds it, else its letter
 * without accents when that one is held, else `?`; control characters become spaces.
 */
export const drawable = (text: string): string => {
  let out = ""
  for (const char of text) {
    const code = char.codePointAt(0)!
    if (encodable(code)) out += char
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0) || code === 0x2028 || code === 0x2029) out += " "
    else {
      const bare = char.normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      out += bare.length > 0 && [...bare].every((c) => encodable(c.codePointAt(0)!)) ? bare : "?"
    }
  }
  return out
}

/** `1234567.8` USD -> `1,234,567.80`: the amount with its currency's decimals and thousands separated. */
const amount = (value: BigDecimal.BigDecimal, currency: string): string => {
  const text = amountText(value, currency)
  const negative = text.startsWith("-")
  const [whole = "", fraction] = (negative ? text.slice(1) : text).split(".")
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  return `${negative ? "-" : ""}${grouped}${fraction === undefined ? "" : `.${fraction}`}`
}

const usd = (value: BigDecimal.BigDecimal): string => amount(value, "USD")

/** `2026-11-02 14:03:22` (UTC, to the second). */
const utc = (at: DateTime.Utc): string => DateTime.formatIso(at).slice(0, 19).replace("T", " ")

const kindLabels: Record<StatementLineKind, string> = {
  payment: "Payment",
  refund: "Refund",
  chargeback: "Chargeback",
  chargeback_won: "Chargeback won",
  fee: "Fee",
  reserve_held: "Reserve held",
  reserve_released: "Reserve released",
  owed_recovered: "Owed recovered",
  withdrawal: "Withdrawal",
  transfer: "Transfer",
  settlement_returned: "Failed payout returned",
  adjustment: "Adjustment"
}

interface Column {
  readonly title: string
  readonly width: number
  readonly align: "left" | "right"
  readonly cell: (line: StatementLine) => string
}

/** A breakdown amount: blank when 0, so a row shows only what moved it. */
const part = (value: BigDecimal.BigDecimal): string => BigDecimal.isZero(Money.round(value, "USD")) ? "" : usd(value)

/**
 * The lines table: 769 pt wide, within the margins of A4 landscape (841.89 - 2 x 36). Each row
 * goes from gross to net, every amount signed as it moved the net (what came off is negative, as
 * in the summary above it), so Gross + Fees + Reserve + Owed repaid + Refunds + Chargebacks +
 * Other = Net across the row; a column is blank where it is 0. The line's transaction id and its reference (when it is not
 * the transaction id) share a column, one above the other; an engine id (`TXN-` and a ULID, about
 * 130 pt at 7 pt) fits it on one line, one made mostly of the widest letters (W, M) wraps inside
 * its cell, as a long order id does.
 */
const columns: ReadonlyArray<Column> = [
  { title: "Date (UTC)", width: 44, align: "left", cell: (l) => utc(l.at).replace(" ", "\n") },
  { title: "Kind", width: 58, align: "left", cell: (l) => kindLabels[l.kind] },
  {
    title: "Transaction / reference",
    width: 140,
    align: "left",
    cell: (l) => l.transactionId === null ? l.reference : l.reference === l.transactionId ? l.transactionId : `${l.transactionId}\n${l.reference}`
  },
  { title: "Merchant order id", width: 66, align: "left", cell: (l) => l.merchantOrderId ?? "" },
  // A card payment paid in instalments shows its count under the method ("card" over "3x").
  { title: "Method", width: 38, align: "left", cell: (l) => `${l.method ?? ""}${l.installments === undefined ? "" : `\n${l.installments}x`}` },
  {
    title: "Local amount",
    width: 62,
    align: "right",
    cell: (l) => l.amountLocal === null || l.currencyLocal === null ? "" : `${amount(l.amountLocal, l.currencyLocal)} ${l.currencyLocal}`
  },
  { title: "Gross", width: 46, align: "right", cell: (l) => part(l.grossUsd) },
  { title: "Fees", width: 40, align: "right", cell: (l) => part(BigDecimal.negate(l.feesUsd)) },
  { title: "Reserve", width: 42, align: "right", cell: (l) => part(l.reserveUsd) },
  { title: "Owed repaid", width: 48, align: "right", cell: (l) => part(BigDecimal.negate(l.owedRecoveredUsd)) },
  { title: "Refunds", width: 42, align: "right", cell: (l) => part(BigDecimal.negate(l.refundsUsd)) },
  { title: "Chargebacks", width: 50, align: "right", cell: (l) => part(BigDecimal.negate(l.chargebacksUsd)) },
  { title: "Other", width: 40, align: "right", cell: (l) => part(l.otherUsd) },
  { title: "Net USD", width: 53, align: "right", cell: (l) => usd(l.amountUsd) }
]

/** One line of a cell, with its width measured once. */
interface Part {
  readonly text: string
  readonly width: number
}

interface Row {
  readonly cells: ReadonlyArray<ReadonlyArray<Part>>
  readonly height: number
  /** The row does not fit below the previous one: it opens a new page. */
  readonly startsPage: boolean
}

/** Text cut into lines that fit `width`, by characters (ids and order ids have no words to break at). */
const wrapChars = (doc: PDFKit.PDFDocument, text: string, width: number, parts: Array<Part>): void => {
  let current = ""
  let currentWidth = 0
  for (const char of text) {
    const next = doc.widthOfString(current + char)
    if (current.length > 0 && next > width) {
      parts.push({ text: current, width: currentWidth })
      current = char === " " ? "" : char
      currentWidth = doc.widthOfString(current)
    } else {
      current += char
      currentWidth = next
    }
  }
  if (current.length > 0) parts.push({ text: current, width: currentWidth })
}

/**
 * A cell's text cut into lines that fit `width`: at its line breaks (`\n`, which only our own
 * cells hold: merchant text has its breaks drawn as spaces), then between words, and a word wider
 * than the cell by characters.
 */
const wrap = (doc: PDFKit.PDFDocument, text: string, width: number): ReadonlyArray<Part> => {
  const parts: Array<Part> = []
  for (const paragraph of text.split("\n")) {
    const whole = doc.widthOfString(paragraph)
    if (whole <= width) {
      parts.push({ text: paragraph, width: whole })
      continue
    }
    let current = ""
    for (const word of paragraph.split(" ")) {
      const joined = current === "" ? word : `${current} ${word}`
      if (doc.widthOfString(joined) <= width) {
        current = joined
        continue
      }
      if (current !== "") parts.push({ text: current, width: doc.widthOfString(current) })
      if (doc.widthOfString(word) <= width) current = word
      else {
        wrapChars(doc, word, width, parts)
        current = ""
      }
    }
    if (current !== "") parts.push({ text: current, width: doc.widthOfString(current) })
  }
  return parts
}

/** Renders the statement; the caller checks it first (`Statement.check`). */
const render = async (statement: Statement): Promise<Uint8Array> => {
  const doc = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margin: page.margin,
    lang: "en",
    displayTitle: true,
    info: {
      Title: `Settlement statement ${drawable(statement.batch.id)}`,
      Subject: "Settlement statement",
      // The batch's closing time, not the time of rendering: the same statement gives the same PDF.
      CreationDate: new Date(DateTime.toEpochMillis(statement.batch.closedAt))
    }
  })
  const chunks: Array<Uint8Array> = []
  const done = new Promise<void>((resolve, reject) => {
    doc.on("data", (chunk: Uint8Array) => chunks.push(chunk))
    doc.on("end", () => resolve())
    doc.on("error", reject)
  })

  const left = page.margin
  const right = doc.page.width - page.margin
  const bottom = doc.page.height - page.margin - 14
  const text = (value: string, x: number, y: number, font: string, size: number) =>
    doc.font(font).fontSize(size).text(drawable(value), x, y, { lineBreak: false })
  const textRight = (value: string, xRight: number, y: number, font: string, size: number) => {
    const shown = drawable(value)
    doc.font(font).fontSize(size)
    doc.text(shown, xRight - doc.widthOfString(shown), y, { lineBreak: false })
  }

  // Header.
  const { batch, merchant, shop, summary } = statement
  text("Settlement statement", left, page.margin, fonts.bold, 16)
  textRight(batch.id, right, page.margin + 4, fonts.bold, 11)
  let y = page.margin + 28
  const destination = batch.destination.kind === "usdc"
    ? `USDC on ${batch.destination.chain}, address ${batch.destination.address}`
    : `Bank account ${batch.destination.label}`
  const facts: ReadonlyArray<readonly [string, string]> = [
    ["Merchant", `${merchant.name} (${merchant.id})`],
    ["Shop", `${shop.name} (${shop.id})`],
    ["Batch", `${batch.id}, ${batch.status}`],
    ["Period (UTC)", `${utc(batch.periodStart)} to ${utc(batch.periodEnd)}`],
    ["Closed at (UTC)", utc(batch.closedAt)],
    ["Destination", destination],
    ["Payout reference", batch.payoutReference ?? "none yet"]
  ]
  for (const [label, value] of facts) {
    text(label, left, y, fonts.bold, 9)
    // At most three lines a fact, so no name can push the table off the first page.
    doc.font(fonts.regular).fontSize(9).text(drawable(value), left + 100, y, { width: right - left - 100, height: 34, ellipsis: true })
    y = Math.max(doc.y, y + 12) + 1
  }

  // Summary: what the batch gathered, what came off it, what was paid out.
  y += 10
  text("Summary (USD)", left, y, fonts.bold, 11)
  y += 16
  const minus = (value: BigDecimal.BigDecimal) => BigDecimal.negate(value)
  const rows: ReadonlyArray<readonly [string, BigDecimal.BigDecimal, boolean]> = [
    ["Gross payments", summary.gross, false],
    ["Platform fees", minus(summary.fees.platform), false],
    ["Provider fees", minus(summary.fees.provider), false],
    ["Chargeback fees", minus(summary.fees.chargeback), false],
    ["Refunds", minus(summary.refunds), false],
    ["Chargebacks", minus(summary.chargebacks), false],
    ["Owed amounts recovered", minus(summary.owedRecovered), false],
    ["Reserve held", minus(summary.reserveHeld), false],
    ["Reserve released", summary.reserveReleased, false],
    ["Withdrawals, transfers and other", summary.other, false],
    ["Net paid out", summary.net, true]
  ]
  const summaryRight = left + 300
  for (const [label, value, total] of rows) {
    if (total) {
      doc.moveTo(left, y - 2).lineTo(summaryRight, y - 2).lineWidth(0.5).strokeColor("#000000").stroke()
      y += 2
    }
    text(label, left, y, total ? fonts.bold : fonts.regular, 9)
    textRight(usd(value), summaryRight, y, total ? fonts.bold : fonts.regular, 9)
    y += 12
  }
  text(`${statement.lines.length.toLocaleString("en-US")} ${statement.lines.length === 1 ? "line" : "lines"}`, left, y + 2, fonts.regular, 8)
  y += 22

  // Lines, in two passes. The layout pass cuts every cell into the lines it takes and places
  // every row on its page, so the number of pages is known before the first row is drawn: each
  // page gets its "page n of N" as it is made and goes out to the output stream at once, rather
  // than every page being held in memory until the end (pdfkit's `bufferPages`).
  const lineHeight = page.bodySize + 2
  const headerHeight = lineHeight + page.rowPadding * 2
  doc.font(fonts.regular).fontSize(page.bodySize)
  const rowsLaidOut: Array<Row> = []
  let pages = 1
  let layoutY = y + headerHeight
  for (const line of statement.lines) {
    const cells = columns.map((column) => wrap(doc, column.cell(line).split("\n").map(drawable).join("\n"), column.width - page.cellPadding * 2))
    const height = Math.max(...cells.map((c) => c.length)) * lineHeight + page.rowPadding * 2
    const startsPage = layoutY + height > bottom
    if (startsPage) {
      pages += 1
      layoutY = page.margin + headerHeight
    }
    rowsLaidOut.push({ cells, height, startsPage })
    layoutY += height
  }

  const footer = (n: number) => {
    const footerY = doc.page.height - page.margin - 6
    text(`Settlement statement ${batch.id}. Times in UTC; amounts in USD unless a currency is shown.`, left, footerY, fonts.regular, 7)
    textRight(`page ${n} of ${pages}`, right, footerY, fonts.regular, 7)
  }
  const tableHeader = (top: number): number => {
    doc.rect(left, top, right - left, headerHeight).fill("#e6e6e6")
    doc.fillColor("#000000")
    let x = left
    for (const column of columns) {
      const cellY = top + page.rowPadding
      if (column.align === "right") textRight(column.title, x + column.width - page.cellPadding, cellY, fonts.bold, page.bodySize)
      else text(column.title, x + page.cellPadding, cellY, fonts.bold, page.bodySize)
      x += column.width
    }
    doc.font(fonts.regular).fontSize(page.bodySize)
    return top + headerHeight
  }

  let pageNumber = 1
  footer(pageNumber)
  y = tableHeader(y)
  let index = 0
  for (const { cells, height, startsPage } of rowsLaidOut) {
    if (startsPage) {
      doc.addPage()
      pageNumber += 1
      footer(pageNumber)
      y = tableHeader(page.margin)
    }
    if (index % 2 === 1) {
      doc.rect(left, y, right - left, height).fill("#f4f4f4")
      doc.fillColor("#000000")
    }
    let x = left
    for (let c = 0; c < columns.length; c++) {
      const column = columns[c]!
      const parts = cells[c]!
      for (let n = 0; n < parts.length; n++) {
        const part = parts[n]!
        if (part.text === "") continue
        const cellX = column.align === "right" ? x + column.width - page.cellPadding - part.width : x + page.cellPadding
        doc.text(part.text, cellX, y + page.rowPadding + n * lineHeight, { lineBreak: false })
      }
      x += column.width
    }
    y += height
    index += 1
    if (index % 250 === 0) await new Promise((resolve) => setTimeout(resolve, 0))
  }
  doc.end()
  await done
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0)
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.length
  }
  return bytes
}

/** The statement's PDF bytes (`application/pdf`). A failure of pdfkit is a defect, not an input error. */
export const pdf = (statement: Statement): Effect.Effect<Uint8Array> => Effect.promise(() => render(statement))
