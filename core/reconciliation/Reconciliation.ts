/**
 * Reconciliation against the providers' own reports.
 *
 * A report comes in two ways: an operator uploads the provider's file (`importReport`), or a run
 * fetches it from the provider's reports API (`run`, on demand or scheduled once a day per
 * provider instance, after the provider's documented delay, by a job whose dedupe key makes it
 * run once across replicas). Either way the file is parsed whole (a malformed file is refused with
 * its line and column, nothing imported), its lines are matched with the engine's payments and
 * refunds of that provider (`Matching.match`), and one transaction stores the report and the
 * discrepancies found. The same file again (by its SHA-256) is the same report and changes
 * nothing; a discrepancy found again by another report (a period fetched twice) is the same one.
 *
 * A discrepancy is resolved by an operator with a note. Resolving never edits history: when money
 * must move, the resolution books a new journal entry (`reconciliation.adjustment`) on the
 * record's shop in the same transaction: `writeOffUsd` taken off the provider clearing receivable
 * against the platform's fee revenue.
 */
import { BigDecimal, Clock, Context, DateTime, Duration, Effect, Layer, Metric, Option, Result, Schema } from "effect"
import { Digest } from "effect/crypto"
import { apiError, type ApiErrorOf, invalidRequest, notFound } from "../ApiError.ts"
import type { Environment } from "../Environment.ts"
import { Ids } from "../Ids.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { Ledger } from "../ledger/Ledger.ts"
import * as Money from "../Money.ts"
import { ProviderReports, type ReportLine, type ReportPeriod } from "../ports/ProviderReports.ts"
import { type DiscrepancyFilter, ReconciliationStore } from "../ports/ReconciliationStore.ts"
import { Transactions } from "../ports/Transactions.ts"
import { Audit } from "../audit/Audit.ts"
import { explain } from "./Clearing.ts"
import type { Discrepancy, ReconciliationReport } from "./Discrepancy.ts"
import { match, type Outcome } from "./Matching.ts"
import { recordsFor } from "./Records.ts"

export const JobKinds = { run: "reconciliation.run" } as const

/** Report lines by provider and outcome (`matched` or a discrepancy kind): bounded labels, no ids. */
export const reportLinesCounter = Metric.counter("reconciliation_report_lines_total", {
  description: "Report lines matched with the engine's records, by provider and outcome",
  incremental: true
})

export interface ImportInput {
  readonly environment: Environment
  readonly provider: string
  readonly format: string
  readonly content: string
  /** The period the report covers; by default the UTC days its lines fall on. */
  readonly period?: ReportPeriod | undefined
  readonly source: "upload" | "fetch"
}

export interface Imported {
  readonly report: ReconciliationReport
  /** False when the same file had been imported: nothing changed. */
  readonly created: boolean
}

export interface Resolution {
  readonly note: string
  /** USD the platform writes off against the provider clearing receivable (negative: the provider owes more). */
  readonly writeOffUsd?: BigDecimal.BigDecimal | undefined
  /** Who resolved it (the operator's name or token subject), kept with the note. */
  readonly by: string
}

type Page = { readonly limit: number; readonly offset: number }

const day = Duration.toMillis(Duration.days(1))

/** The UTC days the lines fall on, `[first day, day after the last)`; none when no line has a date. */
const periodOfLines = (lines: ReadonlyArray<ReportLine>): ReportPeriod | undefined => {
  const times = lines.flatMap((l) => l.occurredAt === null ? [] : [DateTime.toEpochMillis(l.occurredAt)])
  if (times.length === 0) return undefined
  const first = Math.floor(Math.min(...times) / day) * day
  const last = Math.floor(Math.max(...times) / day) * day + day
  return { start: DateTime.makeUnsafe(first), end: DateTime.makeUnsafe(last) }
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

/** What importing a report file can fail with: its request, its format, its content. */
export type ImportCode = "invalid_request" | "report_format_unknown" | "report_malformed"

export class Reconciliation extends Context.Service<Reconciliation, {
  readonly importReport: (input: ImportInput) => Effect.Effect<Imported, ApiErrorOf<ImportCode>>
  /** Fetches the provider's report for the period from its reports API and imports it. */
  readonly run: (environment: Environment, provider: string, period: ReportPeriod) => Effect.Effect<Imported, ApiErrorOf<ImportCode | "report_source_unavailable" | "report_unavailable">>
  readonly listReports: (environment: Environment, provider: string | undefined, page: Page) => Effect.Effect<{ readonly rows: ReadonlyArray<ReconciliationReport>; readonly total: number }>
  readonly getReport: (environment: Environment, id: string) => Effect.Effect<ReconciliationReport, ApiErrorOf<"not_found">>
  readonly listDiscrepancies: (environment: Environment, filter: DiscrepancyFilter, page: Page) => Effect.Effect<{ readonly rows: ReadonlyArray<Discrepancy>; readonly total: number }>
  readonly getDiscrepancy: (environment: Environment, id: string) => Effect.Effect<Discrepancy, ApiErrorOf<"not_found">>
  readonly resolve: (environment: Environment, id: string, resolution: Resolution) => Effect.Effect<Discrepancy, ApiErrorOf<"not_found" | "discrepancy_resolved" | "adjustment_needs_record">>
}>()("core/reconciliation/Reconciliation") {
  static readonly layer = Layer.effect(
    Reconciliation,
    Effect.gen(function*() {
      const store = yield* ReconciliationStore
      const reports = yield* ProviderReports
      const tx = yield* Transactions
      const audit = yield* Audit
      const ids = yield* Ids
      const ledger = yield* Ledger
      const jobs = yield* Jobs
      const digest = yield* Digest.Digest

      const discrepanciesOf = Effect.fnUntraced(function*(report: ReconciliationReport, outcomes: ReadonlyArray<Outcome>) {
        const duplicates = new Map<string, number>()
        const found: Array<Discrepancy> = []
        for (const o of outcomes) {
          if (o._tag === "matched") continue
          const ref = o.line === null ? "" : o.line.providerRef ?? o.line.reference ?? `line ${o.line.line}`
          let dedupeKey = o.record === null ? `${o.kind}:${o.line?.kind}:${ref}` : `${o.kind}:${o.record.id}`
          if (o.kind === "duplicate") {
            const n = (duplicates.get(dedupeKey) ?? 0) + 1
            duplicates.set(dedupeKey, n)
            dedupeKey = `${dedupeKey}:${n}`
          }
          found.push({
            id: yield* ids.next("discrepancy"),
            environment: report.environment,
            provider: report.provider,
            kind: o.kind,
            status: "open",
            reportId: report.id,
            dedupeKey,
            shopId: o.record?.shopId ?? null,
            detail: o.detail,
            line: o.line,
            record: o.record,
            resolution: null,
            resolvedBy: null,
            resolvedAt: null,
            adjustmentEntryId: null,
            createdAt: report.createdAt,
            version: 1
          })
        }
        return found
      })

      const importReport = Effect.fn("Reconciliation.importReport")(function*(input: ImportInput) {
        const entry = reports.entry(input.environment, input.provider)
        const format = entry?.formats.find((f) => f.name === input.format)
        if (entry === undefined || format === undefined) {
          // A provider configured in the other environment only is the likelier mistake than the format.
          const configuredIn = (["sandbox", "production"] as const).filter((env) => reports.entry(env, input.provider) !== undefined)
          const message = entry !== undefined
            ? `Provider ${input.provider} has no report format '${input.format}'`
            : configuredIn.length > 0
            ? `Provider ${input.provider} reads no reports in ${input.environment}; it is configured in ${configuredIn.join(" and ")}: pass environment=${configuredIn[0]}`
            : `Provider ${input.provider} is not configured on this host to read reports`
          return yield* apiError("report_format_unknown", message, {
            provider: input.provider,
            environment: input.environment,
            formats: (entry?.formats ?? []).map((f) => f.name),
            configuredIn
          })
        }
        const parsed = format.parse(input.content)
        if (Result.isFailure(parsed)) {
          const e = parsed.failure
          return yield* apiError("report_malformed", `The report breaks its format at line ${e.line}, column ${e.column || "(line)"}: ${e.message}`, {
            line: e.line,
            column: e.column,
            problem: e.message
          })
        }
        const lines = parsed.success
        const period = input.period ?? periodOfLines(lines)
        if (period === undefined) {
          return yield* invalidRequest("The report's lines carry no dates: name its period", [
            { path: "periodStart", message: "required when no line of the report has a date" }
          ], ["periodStart", "periodEnd"])
        }
        const fileSha256 = toHex(yield* digest.digest(Digest.sha256, new TextEncoder().encode(input.content)))
        const records = yield* recordsFor(store, input.environment, input.provider, lines, period)
        const outcomes = match(lines, records, { periodStart: period.start, periodEnd: period.end })
        const discrepancyCounts: Record<string, number> = {}
        for (const o of outcomes) if (o._tag === "discrepancy") discrepancyCounts[o.kind] = (discrepancyCounts[o.kind] ?? 0) + 1
        const explained = explain(outcomes)
        const report: ReconciliationReport = {
          id: yield* ids.next("report"),
          environment: input.environment,
          provider: input.provider,
          format: format.name,
          fileSha256,
          source: input.source,
          periodStart: period.start,
          periodEnd: period.end,
          counts: {
            lines: lines.length,
            matched: outcomes.filter((o) => o._tag === "matched").length,
            unmatchable: lines.filter((l) => l.kind !== "payment" && l.kind !== "refund").length,
            discrepancies: discrepancyCounts
          },
          clearing: { byCurrency: explained.byCurrency, clearingUsd: explained.clearingUsd },
          createdAt: yield* DateTime.now
        }
        const found = yield* discrepanciesOf(report, outcomes)
        const existing = yield* tx.run(Effect.gen(function*() {
          const existing = yield* store.insertReport(report)
          if (Option.isNone(existing)) yield* store.addDiscrepancies(found)
          return existing
        }))
        if (Option.isSome(existing)) return { report: existing.value, created: false }
        const counter = Metric.withAttributes(reportLinesCounter, { provider: input.provider })
        yield* Metric.update(Metric.withAttributes(counter, { outcome: "matched" }), report.counts.matched)
        for (const [kind, n] of Object.entries(discrepancyCounts)) yield* Metric.update(Metric.withAttributes(counter, { outcome: kind }), n)
        return { report, created: true }
      })

      const run = Effect.fn("Reconciliation.run")(function*(environment: Environment, provider: string, period: ReportPeriod) {
        const source = reports.entry(environment, provider)?.source ?? null
        if (source === null) {
          return yield* apiError("report_source_unavailable", `Provider ${provider} has no reports API here: upload its report file`, { provider })
        }
        const content = yield* source.fetch(period).pipe(
          Effect.mapError((e) => apiError("report_unavailable", `Provider ${provider} did not give the report: ${e.reason}`, { provider, reason: e.reason }))
        )
        return yield* importReport({ environment, provider, format: source.format.name, content, period, source: "fetch" })
      })

      const getReport = (environment: Environment, id: string) =>
        store.findReport(environment, id).pipe(Effect.flatMap(Option.match({
          onNone: () => Effect.fail(notFound("reconciliation report", id)),
          onSome: Effect.succeed
        })))

      const getDiscrepancy = (environment: Environment, id: string) =>
        store.findDiscrepancy(environment, id).pipe(Effect.flatMap(Option.match({
          onNone: () => Effect.fail(notFound("discrepancy", id)),
          onSome: Effect.succeed
        })))

      const resolve = Effect.fn("Reconciliation.resolve")(function*(environment: Environment, id: string, resolution: Resolution) {
        return yield* tx.run(Effect.gen(function*() {
          const d = yield* getDiscrepancy(environment, id)
          const refused = (resolvedAt: DateTime.Utc) =>
            apiError("discrepancy_resolved", `Discrepancy ${id} was resolved at ${DateTime.formatIso(resolvedAt)}`, {
              discrepancyId: id,
              resolvedAt: DateTime.formatIso(resolvedAt)
            })
          if (d.resolvedAt !== null) return yield* refused(d.resolvedAt)
          const writeOff = resolution.writeOffUsd
          const adjusts = writeOff !== undefined && !BigDecimal.isZero(writeOff)
          if (adjusts && d.shopId === null) {
            return yield* apiError("adjustment_needs_record", `Discrepancy ${id} has no engine record to book an adjustment on`, { discrepancyId: id })
          }
          const now = yield* DateTime.now
          const adjustmentEntryId = adjusts && d.shopId !== null
            ? yield* ledger.record({ environment, shopId: d.shopId }, "reconciliation.adjustment", d.id, [
              // A positive write-off raises provider clearing at the platform's expense, a negative one the reverse.
              BigDecimal.isNegative(writeOff)
                ? { from: "provider_clearing", to: "fees_platform", currency: "USD", amount: Money.round(BigDecimal.negate(writeOff), "USD") }
                : { from: "fees_platform", to: "provider_clearing", currency: "USD", amount: Money.round(writeOff, "USD") }
            ]).pipe(Effect.orDie) // counter books only: no guard can refuse it
            : null
          const resolved: Discrepancy = {
            ...d,
            status: "resolved",
            resolution: resolution.note,
            resolvedBy: resolution.by,
            resolvedAt: now,
            adjustmentEntryId,
            version: d.version + 1
          }
          // A concurrent resolution won: this transaction (and its entry) is rolled back.
          if (!(yield* store.updateDiscrepancy(resolved))) return yield* refused(now)
          const change = {
            object: { type: "discrepancy", id: d.id },
            changes: { resolved: resolution.note, by: resolution.by, ...(adjusts ? { writeOffUsd: Money.toText(writeOff) } : {}) }
          }
          yield* d.shopId === null ? audit.record({ ...change, environment, merchantId: null }) : audit.recordForShop(environment, d.shopId, change)
          return resolved
        }))
      })

      // Scheduled runs: every worker tick proposes, for each provider with a reports API, the run
      // of the last UTC day whose report is due (its end plus the provider's delay has passed); the
      // dedupe key makes it one run per provider and day whatever the number of replicas.
      const proposed = new Map<string, number>()
      yield* jobs.onTick(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        for (const s of reports.sources) {
          const start = Math.floor((now - Duration.toMillis(s.source.delay)) / day) * day - day
          const key = `${s.environment}:${s.provider}`
          if (proposed.get(key) === start) continue
          const periodStart = DateTime.formatIso(DateTime.makeUnsafe(start))
          yield* jobs.enqueue(JobKinds.run, { environment: s.environment, provider: s.provider, periodStart }, {
            dedupeKey: `${JobKinds.run}:${key}:${periodStart}`
          })
          proposed.set(key, start)
        }
      }))
      yield* jobs.handle(JobKinds.run, Effect.fnUntraced(function*(payload: unknown) {
        const job = yield* decodeRun(payload)
        yield* run(job.environment, job.provider, { start: job.periodStart, end: DateTime.add(job.periodStart, { days: 1 }) })
      }))

      return Reconciliation.of({
        importReport,
        run,
        listReports: store.listReports,
        getReport,
        listDiscrepancies: store.listDiscrepancies,
        getDiscrepancy,
        resolve
      })
    })
  )
}

const decodeRun = Schema.decodeUnknownEffect(Schema.Struct({
  environment: Schema.Literals(["sandbox", "production"]),
  provider: Schema.String,
  periodStart: Schema.DateTimeUtcFromString
}))
