/**
 * Pagar.me's payables ("recebíveis", Core API v5 `GET /core/v5/payables`, JSON) read into report
 * lines. A payable is what Pagar.me owes (or takes back from) the account for one
 * installment of one charge: `credit` for a paid charge, `refund`, `chargeback`, and their
 * reversals `refund_reversal` and `chargeback_refund`.
 *
 * Documented at https://docs.pagar.me/reference/recebíveis (the payable object: `id`, `status`
 * waiting_funds / prepaid / paid, `amount` and `fee` in centavos, `anticipation_fee`,
 * `fraud_coverage_fee`, `installment`, `gateway_id`, `charge_id`, ..., `type`) and the list's
 * envelope `{ data: [...], paging: {...} }` at https://docs.pagar.me/reference/paginação-1 ; the
 * official Node SDK (`@pagarme/pagarme-nodejs-sdk` 7, `GetPayableResponse`) names the same fields
 * (`created_at`, `payment_date`, `accrual_at`...) and types `id` as a string, where the reference
 * says Long: both are read.
 *
 * A card charge paid in installments has a payable per installment (the payable's `installment`
 * number), each paid on its own date: the payables of one charge, type and moment (`created_at`)
 * are read as one line of their sum (the engine's payment is one record of the whole amount),
 * `waiting_funds` while any of them is. Two refunds of one charge at two moments stay two lines.
 * That every installment's payable shares its charge's `created_at` is our reading, not stated
 * by the reference (`providers/pagarme/README.md`).
 *
 * All or nothing: the first item that breaks the documented shape refuses the file, `line` being
 * the item's 1-based index in `data` (0 when the document itself is wrong) and `column` the field.
 * Amounts are integer centavos, read exactly (no float); the account's currency is BRL (Pagar.me
 * serves Brazil only; the payable has no currency field).
 */
import { BigDecimal, type DateTime } from "effect"
import type { ReportFormat, ReportLine, ReportLineKind, ReportStatus } from "../../core/ports/ProviderReports.ts"
import { refuse, refusing, timestampCell } from "../kit/ReportCsv.ts"

export const documentation = "https://docs.pagar.me/reference/recebíveis"

export const payableTypes: Readonly<Record<string, ReportLineKind>> = {
  credit: "payment",
  refund: "refund",
  chargeback: "chargeback",
  refund_reversal: "adjustment",
  chargeback_refund: "adjustment"
}

export const payableStatuses = ["waiting_funds", "prepaid", "paid"] as const

type Item = Readonly<Record<string, unknown>>

const isRecord = (value: unknown): value is Item => typeof value === "object" && value !== null && !Array.isArray(value)

const text = (item: Item, line: number, field: string, required: boolean): string | null => {
  const value = item[field]
  if (value === undefined || value === null) return required ? refuse(line, field, `${field} is missing`) : null
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value)
  if (typeof value !== "string" || (required && value.trim() === "")) return refuse(line, field, `${field} is not a text: ${JSON.stringify(value)}`)
  return value.trim() === "" ? null : value
}

/** An integer number of centavos, as exact `BigDecimal` reais. */
const centavos = (item: Item, line: number, field: string, required: boolean): BigDecimal.BigDecimal | null => {
  const value = item[field]
  if (value === undefined || value === null) return required ? refuse(line, field, `${field} is missing`) : null
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    return refuse(line, field, `${field} is not an integer number of centavos: ${JSON.stringify(value)}`)
  }
  return BigDecimal.make(BigInt(value), 2)
}

const instant = (item: Item, line: number, field: string): DateTime.Utc => {
  const value = item[field]
  if (typeof value !== "string") return refuse(line, field, `${field} is not a date: ${JSON.stringify(value ?? null)}`)
  return timestampCell({ line, cells: [value] }, new Map([[field, 0]]), field, { zone: "utc" })
}

const normalize = (kind: ReportLineKind, status: string): ReportStatus => {
  if (kind === "refund") return "refunded"
  if (kind === "chargeback") return "charged_back"
  return status === "waiting_funds" ? "captured" : "settled"
}

const unsigned = (amount: BigDecimal.BigDecimal) => BigDecimal.normalize(BigDecimal.abs(amount))

const lineOf = (value: unknown, line: number): ReportLine => {
  if (!isRecord(value)) return refuse(line, "", "the item is not a payable object")
  text(value, line, "id", true)
  const type = text(value, line, "type", true)!
  const kind = payableTypes[type]
  if (kind === undefined) return refuse(line, "type", `unknown type ${JSON.stringify(type)}`)
  const status = text(value, line, "status", true)!
  if (!(payableStatuses as ReadonlyArray<string>).includes(status)) return refuse(line, "status", `unknown status ${JSON.stringify(status)}`)
  const amount = centavos(value, line, "amount", true)!
  const fees = ["fee", "anticipation_fee", "fraud_coverage_fee"].map((field) => centavos(value, line, field, false))
  const fee = fees.every((f) => f === null)
    ? null
    : fees.reduce<BigDecimal.BigDecimal>((sum, f) => (f === null ? sum : BigDecimal.sum(sum, BigDecimal.abs(f))), BigDecimal.make(0n, 2))
  const occurredAt = instant(value, line, "created_at")
  for (const field of ["payment_date", "original_payment_date", "accrual_at"]) {
    if (value[field] !== undefined && value[field] !== null) instant(value, line, field)
  }
  return {
    line,
    kind,
    providerRef: text(value, line, "charge_id", false),
    reference: null,
    status,
    normalized: normalize(kind, status),
    amount: unsigned(amount),
    currency: "BRL",
    fee: fee === null ? null : unsigned(fee),
    feeCurrency: fee === null ? null : "BRL",
    occurredAt
  }
}

const parsePayables = (input: string): ReadonlyArray<ReportLine> => {
  let document: unknown
  try {
    document = JSON.parse(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input)
  } catch (e) {
    return refuse(0, "", `not JSON: ${e instanceof Error ? e.message : String(e)}`)
  }
  const items = Array.isArray(document) ? document : isRecord(document) ? document["data"] : undefined
  if (items === undefined || items === null) return refuse(0, "data", "the document has no data list")
  if (!Array.isArray(items)) return refuse(0, "data", "data is not a list")
  return installmentsJoined(items.map((item, i) => ({ line: lineOf(item, i + 1), type: (item as Item)["type"], installment: (item as Item)["installment"] })))
}

/**
 * Each charge's installment payables of one type and moment as one line (the first's), their
 * amounts and fees summed. A payable of an installment number the line already holds is not
 * joined: it is a second booking of it (a duplicate the matcher reports as such).
 */
const installmentsJoined = (read: ReadonlyArray<{ readonly line: ReportLine; readonly type: unknown; readonly installment: unknown }>): ReadonlyArray<ReportLine> => {
  const joined = new Map<string, ReportLine>()
  const numbers = new Map<string, Set<number>>()
  const out: Array<ReportLine> = []
  for (const { line, type, installment } of read) {
    const key = typeof installment === "number" && line.providerRef !== null && line.occurredAt !== null
      ? `${String(type)}|${line.providerRef}|${line.occurredAt.epochMilliseconds}`
      : undefined
    const first = key === undefined ? undefined : joined.get(key)
    const held = key === undefined ? undefined : numbers.get(key)
    if (first === undefined || held === undefined || held.has(installment as number)) {
      if (key !== undefined && first === undefined) {
        joined.set(key, line)
        numbers.set(key, new Set([installment as number]))
      }
      out.push(line)
      continue
    }
    held.add(installment as number)
    const sum = (a: BigDecimal.BigDecimal | null, b: BigDecimal.BigDecimal | null) => (a === null ? b : b === null ? a : BigDecimal.normalize(BigDecimal.sum(a, b)))
    const waiting = first.status === "waiting_funds" || line.status === "waiting_funds"
    const merged: ReportLine = {
      ...first,
      amount: sum(first.amount, line.amount)!,
      fee: sum(first.fee, line.fee),
      feeCurrency: first.feeCurrency ?? line.feeCurrency,
      status: waiting ? "waiting_funds" : first.status,
      normalized: waiting && first.kind === "payment" ? "captured" : first.normalized
    }
    joined.set(key!, merged)
    out[out.indexOf(first)] = merged
  }
  return out
}

/** The payables list (`{ data: [...] }`, or a bare array of payables). */
export const pagarmePayablesReport: ReportFormat = {
  provider: "pagarme",
  name: "payables-json",
  documentation,
  parse: (input) => refusing(() => parsePayables(input))
}
