/**
 * The release report of the Mercado Pago simulator (`MercadoPagoSimulator.ts`): the
 * reports API Mercado Pago documents for the release report ("Liberaciones" / released money) and
 * the CSV it writes, of what the simulator was actually asked to do. A test tool, never imported
 * by the plugin.
 *
 * - `POST /v1/account/release_report` `{ begin_date, end_date }` (UTC, `end_date` inclusive to the
 *   second, as the documented sample's `...T02:59:59Z`): `202` with the report, `pending`; a missing
 *   date is `400` (`invalid_begin_date`, `invalid_end_date`), an end before the begin
 *   `end_date_before_begin_date`. The file is generated `readyAfterMs` later (asynchronously, as
 *   Mercado Pago does), frozen then: the report's `status` becomes `processed` and it gets its
 *   `file_name`.
 * - `GET /v1/account/release_report/list`: every report, newest first.
 * - `GET /v1/account/release_report/{file_name}`: the CSV, else `404`. (The kit's server answers
 *   JSON only, so the text travels as a JSON string; see the connector's `ReportSource.ts`.)
 *
 * The CSV has the glossary's columns (`DATE` as `yyyy-MM-dd'T'HH:mm:ssZ` at the default display
 * zone GMT-04): an `initial_available_balance` row, one `release` row per movement in the period,
 * a `subtotal` and a `total`. Movements: each approved payment in the account's currency released
 * at its approval (`payment`, fee per the fee rule as a negative `MP_FEE_AMOUNT`), each refund paid
 * (`refund`, debit) and each chargeback (`chargeback`, debit), `SOURCE_ID` the payment's id and
 * `EXTERNAL_REFERENCE` its `external_reference`. Faults: `unknownCaptures` adds payments nobody
 * asked for (ids from 99 000 000 001, no reference), `duplicatedRefunds` writes a refund twice,
 * `changedFees` replaces a payment's fee.
 */
import { BigDecimal, Option, Schema } from "effect"
import { Money } from "../../core/ports/index.ts"
import type { ReportFaults, SimulatedFeeRule, SimulatorReports } from "../kit/SimulatorReports.ts"
import type { Answer, SimulatorRequest } from "../kit/SimulatorServer.ts"
import { errorAnswer as error } from "./SimulatorRefunds.ts"

export const releaseColumns = [
  "DATE",
  "SOURCE_ID",
  "EXTERNAL_REFERENCE",
  "RECORD_TYPE",
  "DESCRIPTION",
  "NET_CREDIT_AMOUNT",
  "NET_DEBIT_AMOUNT",
  "GROSS_AMOUNT",
  "MP_FEE_AMOUNT",
  "PAYMENT_METHOD"
] as const

/** What the report needs of a payment. */
export interface Reportable {
  readonly id: string
  readonly reference: string
  /** Decimal text. */
  readonly amount: string
  readonly currency: string
  readonly body: { readonly payment_method_id: string }
  /** When the payment became `approved` (ms), if it did. */
  readonly approvedAt?: number | undefined
  /** When it was charged back (ms), if it was. */
  readonly chargedBackAt?: number | undefined
  readonly refunds: ReadonlyArray<{ readonly id: string; readonly amount: string; readonly paidAt?: number | undefined }>
}

interface Movement {
  readonly at: number
  readonly sourceId: string
  readonly reference: string
  readonly description: "payment" | "refund" | "chargeback"
  /** Unsigned. */
  readonly gross: BigDecimal.BigDecimal
  /** Unsigned. */
  readonly fee: BigDecimal.BigDecimal
  readonly method: string
}

const zero = Money.zero
const hours4 = 4 * 3_600_000

/** `yyyy-MM-dd'T'HH:mm:ss-0400` (the documented default display zone, GMT-04). */
export const reportDate = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000 - hours4).toISOString().slice(0, 19) + "-0400"

const two = (amount: BigDecimal.BigDecimal) => BigDecimal.format(BigDecimal.scale(Money.round(amount, "BRL"), 2))

export interface ReleaseReportOptions {
  readonly payments: () => Iterable<Reportable>
  readonly accountCurrency: string
  readonly accountId: number
  /** Schedules the asynchronous generation. */
  readonly later: (ms: number, f: () => void) => void
  readonly readyAfterMs: number
}

export interface ReleaseReports extends SimulatorReports {
  /** The faults applied to the reports the API generates from now on. */
  readonly setFaults: (faults: ReportFaults) => void
  /** Answers the report endpoints; `undefined` for any other path. */
  readonly route: (req: SimulatorRequest) => Answer | undefined
}

interface GeneratedReport {
  readonly id: number
  readonly begin: string
  readonly end: string
  readonly createdAt: string
  status: "pending" | "processed"
  fileName: string | null
  csv: string | null
  lastModified: string
}

const CreateBody = Schema.Struct({ begin_date: Schema.optionalKey(Schema.String), end_date: Schema.optionalKey(Schema.String) })
const decodeCreate = Schema.decodeUnknownOption(Schema.fromJsonString(CreateBody))
const utcSecond = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

export const makeReleaseReports = (options: ReleaseReportOptions): ReleaseReports => {
  let feeRule: SimulatedFeeRule = { percent: "0", flat: "0" }
  let faults: ReportFaults = {}
  const reports: Array<GeneratedReport> = []
  let sequence = 0

  const feeOf = (amount: BigDecimal.BigDecimal) =>
    Money.round(BigDecimal.sum(BigDecimal.divideUnsafe(BigDecimal.multiply(amount, Money.decimal(feeRule.percent)), Money.decimal("100")), Money.decimal(feeRule.flat)), "BRL")

  const movementsOf = (applied: ReportFaults): Array<Movement> => {
    const out: Array<Movement> = []
    for (const p of options.payments()) {
      if (p.currency !== options.accountCurrency) continue
      const amount = Money.decimal(p.amount)
      const base = { sourceId: p.id, reference: p.reference, method: p.body.payment_method_id }
      if (p.approvedAt !== undefined) {
        const changed = applied.changedFees?.[p.id]
        out.push({ ...base, at: p.approvedAt, description: "payment", gross: amount, fee: changed === undefined ? feeOf(amount) : Money.decimal(changed) })
      }
      for (const r of p.refunds) {
        if (r.paidAt === undefined) continue
        const times = applied.duplicatedRefunds?.includes(r.id) === true ? 2 : 1
        for (let i = 0; i < times; i++) out.push({ ...base, at: r.paidAt, description: "refund", gross: Money.decimal(r.amount), fee: zero })
      }
      if (p.chargedBackAt !== undefined) out.push({ ...base, at: p.chargedBackAt, description: "chargeback", gross: amount, fee: zero })
    }
    return out
  }

  const net = (m: Movement) => (m.description === "payment" ? BigDecimal.subtract(m.gross, m.fee) : BigDecimal.negate(m.gross))

  const report = (period: { readonly start: { readonly epochMilliseconds: number }; readonly end: { readonly epochMilliseconds: number } }, applied: ReportFaults = {}): string => {
    const start = period.start.epochMilliseconds
    const end = period.end.epochMilliseconds
    const before = movementsOf({}).filter((m) => m.at < start).reduce((sum, m) => BigDecimal.sum(sum, net(m)), zero)
    const within = movementsOf(applied).filter((m) => m.at >= start && m.at < end)
    for (let i = 1; i <= (applied.unknownCaptures ?? 0); i++) {
      const gross = Money.decimal(`${10 + i}.90`)
      within.push({ at: start + i * 1000, sourceId: String(99_000_000_000 + i), reference: "", description: "payment", gross, fee: feeOf(gross), method: "pix" })
    }
    within.sort((a, b) => a.at - b.at)
    const rows: Array<ReadonlyArray<string>> = [releaseColumns]
    const signed = (a: BigDecimal.BigDecimal) => (BigDecimal.isNegative(a) ? ["0.00", two(BigDecimal.abs(a))] : [two(a), "0.00"])
    rows.push([reportDate(start), "", "", "initial_available_balance", "", ...signed(before), two(before), "", ""])
    let credit = zero
    let debit = zero
    for (const m of within) {
      const credited = m.description === "payment"
      const n = BigDecimal.abs(net(m))
      if (credited) credit = BigDecimal.sum(credit, n)
      else debit = BigDecimal.sum(debit, n)
      rows.push([
        reportDate(m.at),
        m.sourceId,
        m.reference,
        "release",
        m.description,
        credited ? two(n) : "0.00",
        credited ? "0.00" : two(n),
        two(credited ? m.gross : BigDecimal.negate(m.gross)),
        two(BigDecimal.negate(m.fee)),
        m.method
      ])
    }
    const closing = reportDate(end - 1000)
    rows.push([closing, "", "", "subtotal", "release", two(credit), two(debit), "", "", ""])
    rows.push([closing, "", "", "total", "", two(BigDecimal.sum(credit, before)), two(debit), "", "", ""])
    return rows.map((r) => r.join(",")).join("\n") + "\n"
  }

  const viewOf = (r: GeneratedReport) => ({
    id: r.id,
    account_id: options.accountId,
    begin_date: r.begin,
    end_date: r.end,
    created_from: "manual",
    currency_id: options.accountCurrency,
    generation_date: r.createdAt,
    internal_management: [{ is_visible: true, notify: false, use_exact_time: true }],
    is_reserve: false,
    is_test: true,
    last_modified: r.lastModified,
    report_id: r.id,
    retries: 0,
    status: r.status,
    sub_type: "release",
    user_id: options.accountId,
    format: "CSV",
    file_name: r.fileName
  })

  const create = (raw: string): Answer => {
    const body = Option.getOrElse(decodeCreate(raw), () => ({}) as typeof CreateBody.Type)
    const bad = (code: string, message: string) => ({ status: 400, body: { message, error: code, status: 400, cause: [] } })
    if (body.begin_date === undefined || !utcSecond.test(body.begin_date)) return bad("invalid_begin_date", "You must specify 'begin_date' parameter.")
    if (body.end_date === undefined || !utcSecond.test(body.end_date)) return bad("invalid_end_date", "You must specify 'end_date' parameter.")
    const begin = Date.parse(body.begin_date)
    const end = Date.parse(body.end_date)
    if (end < begin) return bad("end_date_before_begin_date", "Begin date should be before end date.")
    const applied = faults
    const now = new Date().toISOString()
    const r: GeneratedReport = { id: 99_336_000_000 + ++sequence, begin: body.begin_date, end: body.end_date, createdAt: now, status: "pending", fileName: null, csv: null, lastModified: now }
    reports.unshift(r)
    options.later(options.readyAfterMs, () => {
      // `end_date` is inclusive to the second: the report covers [begin, end + 1 s).
      r.csv = report({ start: { epochMilliseconds: begin }, end: { epochMilliseconds: Math.floor(end / 1000) * 1000 + 1000 } }, applied)
      r.fileName = `release-report-${options.accountId}-${new Date().toISOString().slice(0, 10)}-${r.id}.csv`
      r.status = "processed"
      r.lastModified = new Date().toISOString()
    })
    return { status: 202, body: viewOf(r) }
  }

  const route = (req: SimulatorRequest): Answer | undefined => {
    const path = req.path.replace(/\/+$/, "")
    if (!path.startsWith("/v1/account/release_report")) return undefined
    if (req.method === "POST" && path === "/v1/account/release_report") return create(req.body)
    if (req.method === "GET" && path === "/v1/account/release_report/list") return { status: 200, body: reports.map(viewOf) }
    const file = /^\/v1\/account\/release_report\/([^/]+)$/.exec(path)
    if (req.method === "GET" && file !== null) {
      const found = reports.find((r) => r.fileName === decodeURIComponent(file[1]!))
      return found?.csv == null ? error(404, "not_found", "report not found") : { status: 200, body: found.csv }
    }
    return error(404, "not_found", "resource not found")
  }

  return {
    report: (period, applied) => report(period, applied),
    setFeeRule: (rule) => void (feeRule = rule),
    setFaults: (next) => void (faults = next),
    route
  }
}
