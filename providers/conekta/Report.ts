/**
 * Conekta's transactions (JSON), read into report lines.
 *
 * Conekta publishes no settlement file format. What it documents is the Transactions API of its
 * API reference (github.com/conekta/openapi; rendered in the official SDKs' docs, e.g.
 * github.com/conekta/conekta-python docs/TransactionsApi.md and docs/TransactionResponse.md):
 * `GET /transactions` (`Accept: application/vnd.conekta-v2.1.0+json`, paged by `limit`, `next`,
 * `previous`) answers a list `{ object: "list", has_more, next_page_url, previous_page_url, data }`
 * whose items are transaction objects:
 *
 *   id          the transaction's id
 *   object      "transaction"
 *   type        the transaction type (capture, refund, chargeback, ... as the object's
 *               description lists them: capture_reversal, liquidation, payout, refund_reversal,
 *               chargeback_reversal, rounding_adjustment, won_chargeback, transferred...)
 *   status      the transaction status (pending, available, paid_out, unprocessed, voided...)
 *   amount      integer, in the currency's minor unit (centavos), as every Conekta amount
 *   fee         integer: "the amount to be deducted for taxes and commissions"
 *   net         integer: the amount after the fee
 *   currency    ISO 4217
 *   charge      "randomly assigned unique order identifier associated with the charge"
 *   created_at  Unix seconds
 *   livemode    boolean
 *
 * The file read is that answer (one page), or a JSON array of such pages or of transaction
 * objects (several pages joined). Amounts are read from the JSON text as integers, never as
 * floats. The line of a report line is the line of the file its transaction object starts on;
 * a refusal names it and the field (`data[3].amount`'s field is `amount`).
 *
 * Not confirmed from public material: the exact `type` and `status` vocabularies (the object's
 * description mixes them), the sign of refund and chargeback amounts (read unsigned), and whether
 * `charge` holds the order id (`ord_...`, as its description says) or the charge id; the format
 * takes it as the provider's reference the engine knows (the order), see the README.
 */
import { BigDecimal, DateTime } from "effect"
import { Money } from "../../core/ports/index.ts"
import type { ReportFormat, ReportLine, ReportLineKind, ReportStatus } from "../../core/ports/ProviderReports.ts"
import { refuse, refusing } from "../kit/ReportCsv.ts"

export const documentation =
  "https://github.com/conekta/openapi (Transactions API: GET /transactions, the transaction object; rendered in github.com/conekta/conekta-python docs/TransactionResponse.md)"

/** A JSON value with the 1-based line it starts on; numbers keep their text. */
type Json =
  | { readonly t: "object"; readonly line: number; readonly fields: ReadonlyMap<string, Json> }
  | { readonly t: "array"; readonly line: number; readonly items: ReadonlyArray<Json> }
  | { readonly t: "string"; readonly line: number; readonly value: string }
  | { readonly t: "number"; readonly line: number; readonly text: string }
  | { readonly t: "literal"; readonly line: number; readonly value: boolean | null }

/** A strict JSON reader (RFC 8259) that knows where each value starts. */
const readJson = (text: string): Json => {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let line = 1
  const fail = (what: string): never => refuse(line, "", `not JSON: ${what}`)
  const space = () => {
    for (;;) {
      const c = text[at]
      if (c === "\n") line++
      if (c === " " || c === "\t" || c === "\r" || c === "\n") at++
      else return
    }
  }
  const value = (): Json => {
    space()
    const start = line
    const c = text[at]
    if (c === "{") {
      at++
      const fields = new Map<string, Json>()
      space()
      if (text[at] === "}") return at++, { t: "object", line: start, fields }
      for (;;) {
        space()
        if (text[at] !== "\"") fail("a field name was expected")
        const key = string()
        space()
        if (text[at] !== ":") fail("':' was expected")
        at++
        if (!fields.has(key)) fields.set(key, value())
        else value()
        space()
        if (text[at] === ",") at++
        else if (text[at] === "}") return at++, { t: "object", line: start, fields }
        else fail("',' or '}' was expected")
      }
    }
    if (c === "[") {
      at++
      const items: Array<Json> = []
      space()
      if (text[at] === "]") return at++, { t: "array", line: start, items }
      for (;;) {
        items.push(value())
        space()
        if (text[at] === ",") at++
        else if (text[at] === "]") return at++, { t: "array", line: start, items }
        else fail("',' or ']' was expected")
      }
    }
    if (c === "\"") return { t: "string", line: start, value: string() }
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at, at + 64))
    if (number !== null) return at += number[0].length, { t: "number", line: start, text: number[0] }
    for (const [word, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (text.startsWith(word, at)) return at += word.length, { t: "literal", line: start, value: v }
    }
    return fail(at >= text.length ? "the text ends early" : `unexpected ${JSON.stringify(text[at])}`)
  }
  const string = (): string => {
    const match = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(text.slice(at))
    if (match === null) return fail("a malformed string")
    at += match[0].length
    return JSON.parse(match[0]) as string
  }
  const result = value()
  space()
  if (at < text.length) fail(`text after the JSON value`)
  return result
}

/** type -> kind; a type not here is kept as an adjustment with its own word in `status`. */
const kinds: Readonly<Record<string, ReportLineKind>> = {
  capture: "payment",
  refund: "refund",
  chargeback: "chargeback",
  payout: "payout",
  liquidation: "payout",
  fee: "fee"
}

/** status (with kind) -> the engine's word. */
const normalize = (kind: ReportLineKind, status: string): ReportStatus => {
  switch (status.toLowerCase()) {
    case "pending":
    case "unprocessed":
      return "pending"
    case "voided":
      return "failed"
    case "available":
    case "paid_out":
    case "transferred":
      return kind === "payment" ? "captured" : kind === "refund" ? "refunded" : kind === "chargeback" ? "charged_back" : "settled"
    // An adjustment's status is often its own type word (the description mixes them): settled.
    default:
      return "other"
  }
}

const transactionsOf = (root: Json): ReadonlyArray<Json> => {
  const page = (value: Json): ReadonlyArray<Json> => {
    if (value.t === "object" && value.fields.has("data")) {
      const data = value.fields.get("data")!
      return data.t === "array" ? data.items : refuse(data.line, "data", "data is not a list")
    }
    return [value]
  }
  if (root.t === "array") return root.items.flatMap(page)
  if (root.t === "object" && root.fields.has("data")) return page(root)
  return refuse(root.line, "data", "not a transactions list: no data")
}

const line = (tx: Json): ReportLine => {
  if (tx.t !== "object") return refuse(tx.line, "", "a transaction is not an object")
  const field = (name: string) => tx.fields.get(name)
  const text = (name: string, required = true): string | null => {
    const v = field(name)
    if (v === undefined || (v.t === "literal" && v.value === null)) return required ? refuse(tx.line, name, `${name} is missing`) : null
    if (v.t !== "string" || (required && v.value.trim() === "")) return refuse(v.line, name, `${name} is not a text`)
    return v.value
  }
  const integer = (name: string, required = true): bigint | null => {
    const v = field(name)
    if (v === undefined || (v.t === "literal" && v.value === null)) return required ? refuse(tx.line, name, `${name} is missing`) : null
    if (v.t !== "number" || !/^-?\d+$/.test(v.text)) return refuse(v.line, name, `${name} is not an integer amount of minor units: ${v.t === "number" ? v.text : v.t}`)
    return BigInt(v.text)
  }
  const object = text("object", false)
  if (object !== null && object !== "transaction") refuse(field("object")!.line, "object", `object is ${JSON.stringify(object)}, not "transaction"`)
  const id = text("id")!
  const type = text("type")!
  const status = text("status")!
  const currencyText = text("currency")!
  const currency = Money.normalizeCurrency(currencyText)
  if (currency._tag === "None") return refuse(field("currency")!.line, "currency", `currency is not an ISO 4217 code: ${JSON.stringify(currencyText)}`)
  const scale = Money.exponent(currency.value)
  const amount = integer("amount")!
  const fee = integer("fee", false)
  integer("net", false)
  const created = integer("created_at")!
  if (created < 0n || created > 253_402_300_799n) refuse(field("created_at")!.line, "created_at", "created_at is not a Unix time")
  const charge = text("charge", false)
  const kind = kinds[type.toLowerCase()] ?? "adjustment"
  const minor = (units: bigint) => BigDecimal.normalize(BigDecimal.make(units < 0n ? -units : units, scale))
  return {
    line: tx.line,
    kind,
    providerRef: charge ?? id,
    reference: null,
    status: kind === "adjustment" ? `${type}/${status}` : status,
    normalized: normalize(kind, status) === "other" && kind === "adjustment" ? "settled" : normalize(kind, status),
    amount: minor(amount),
    currency: currency.value,
    fee: fee === null ? null : minor(fee),
    feeCurrency: fee === null ? null : currency.value,
    occurredAt: DateTime.makeUnsafe(Number(created) * 1000)
  }
}

export const conektaTransactionsReport: ReportFormat = {
  provider: "conekta",
  name: "transactions-json",
  documentation,
  parse: (text) => refusing(() => transactionsOf(readJson(text)).map(line))
}
