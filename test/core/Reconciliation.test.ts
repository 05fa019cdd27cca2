/**
 * Reconciliation through the library, as an embedder runs it, on every store: a
 * provider's report of what it did with a sandbox shop's payments and refunds, in a test format
 * (one JSON object a line), with faults injected; then the operator's side: the same file twice,
 * a malformed file, resolving with a write-off (a new journal entry, once, even when two
 * operators resolve at the same time), the clearing explanation, and the scheduled run.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Duration, Effect, Exit, Layer, Metric, Result } from "effect"
import { TestClock } from "effect/testing"
import type { ApiError } from "../../core/ApiError.ts"
import type { Claim } from "../../core/refunds/Claim.ts"
import { Refunds } from "../../core/refunds/Refunds.ts"
import { SandboxClocks } from "../../core/clock/SandboxClocks.ts"
import { RefundStore } from "../../core/ports/RefundStore.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import * as Money from "../../core/Money.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { ProviderReports, type ReportFormat, ReportFormatError, type ReportLine, ReportUnavailable } from "../../core/ports/ProviderReports.ts"
import { SettlementPayoutProviders } from "../../core/ports/SettlementPayoutProvider.ts"
import type { Payment } from "../../core/payments/Payment.ts"
import { Payments } from "../../core/payments/Payments.ts"
import { Payouts } from "../../core/payouts/Payouts.ts"
import { Reconciliation, reportLinesCounter } from "../../core/reconciliation/Reconciliation.ts"
import type { ShopScope } from "../../core/tenancy/Scopes.ts"
import { EngineTestWith, newScope } from "../support/Engine.ts"
import { storeTargets } from "../support/Stores.ts"

/** The test provider's format: one JSON object a line, the fields of a `ReportLine`. */
const jsonLines: ReportFormat = {
  provider: "test",
  name: "json-lines",
  documentation: "this test",
  parse: (text) => {
    const lines: Array<ReportLine> = []
    for (const [i, raw] of text.split("\n").entries()) {
      if (raw.trim() === "") continue
      let o: Record<string, string | null>
      try {
        o = JSON.parse(raw)
      } catch {
        return Result.fail(new ReportFormatError({ line: i + 1, column: "", message: "not JSON" }))
      }
      const amount = BigDecimal.fromString(o["amount"] ?? "")
      if (amount._tag === "None") return Result.fail(new ReportFormatError({ line: i + 1, column: "amount", message: "not a decimal" }))
      lines.push({
        line: i + 1,
        kind: o["kind"] as ReportLine["kind"],
        providerRef: o["providerRef"] ?? null,
        reference: o["reference"] ?? null,
        status: o["status"]!,
        normalized: o["status"] as ReportLine["normalized"],
        amount: amount.value,
        currency: o["currency"]!,
        fee: o["fee"] === null || o["fee"] === undefined ? null : Money.decimal(o["fee"]),
        feeCurrency: o["feeCurrency"] ?? null,
        occurredAt: o["at"] === null || o["at"] === undefined ? null : DateTime.makeUnsafe(o["at"])
      })
    }
    return Result.succeed(lines)
  }
}

/** What the fake reports API answers (set by each test). */
let served: string | undefined

const reports = ProviderReports.layer([{
  provider: "sandbox",
  environment: "sandbox",
  formats: [jsonLines],
  source: {
    format: jsonLines,
    delay: Duration.hours(6),
    fetch: () => served === undefined ? Effect.fail(new ReportUnavailable({ provider: "sandbox", reason: "not ready" })) : Effect.succeed(served)
  }
}])

const drain = Effect.gen(function*() {
  const jobs = yield* Jobs
  while ((yield* jobs.runDue) > 0) {
    // everything due
  }
})

const day = (iso: string) => DateTime.makeUnsafe(iso)

/** The line the provider writes for a completed payment: its local amount, the booked fee at the payment's rate. */
const paymentLine = (p: Payment, fee?: string) =>
  JSON.stringify({
    kind: "payment",
    providerRef: p.providerRef,
    reference: p.id,
    status: "captured",
    amount: Money.toText(p.amountLocal),
    currency: p.currencyLocal,
    fee: fee ?? Money.toText(Money.round(BigDecimal.multiply(p.fees.provider, p.fx.local.rate), p.currencyLocal)),
    feeCurrency: p.currencyLocal,
    at: DateTime.formatIso(p.completedAt!)
  })

/**
 * A sandbox shop's history: `n` completed payments and a full refund of every fifth, time moved by
 * `advance` (the sandbox clock, or TestClock), and the report lines of what the provider did.
 */
const history = (n: number, advance: (scope: ShopScope) => Effect.Effect<void, unknown, SandboxClocks | Jobs>) =>
  Effect.gen(function*() {
    const scope = yield* newScope("sandbox")
    const payments = yield* Payments
    const claims = yield* Refunds
    const claimStore = yield* RefundStore
    const paid: Array<Payment> = []
    for (let i = 0; i < n; i++) {
      paid.push(yield* payments.create(scope, { amount: Money.decimal(`${10 + i}.25`), paymentMethodId: "sbx_pix", simulate: "paid" }))
    }
    yield* advance(scope)
    for (const [i, p] of paid.entries()) if (i % 5 === 0) yield* claims.refund(scope, p.id, { amount: undefined })
    yield* advance(scope)
    const completed = yield* Effect.forEach(paid, (p) => payments.get(scope, p.id))
    const refunds = (yield* Effect.forEach(completed, (p) => claimStore.forPayment(p.id))).flat()
    return { scope, completed, refunds, refundLines: refunds.map(refundLine) }
  })

const bySandboxClock = (scope: ShopScope) =>
  Effect.gen(function*() {
    yield* (yield* SandboxClocks).advance(scope, 86_400)
    yield* drain // work enqueued outside the shop's clock (a refund asked through the library)
  })
const byTestClock = () => Effect.andThen(TestClock.adjust("10 minutes"), drain)

const refundLine = (c: Claim) =>
  JSON.stringify({
    kind: "refund",
    providerRef: c.providerRef,
    reference: c.id,
    status: "refunded",
    amount: Money.toText(c.amount),
    currency: c.currency,
    fee: null,
    feeCurrency: null,
    at: DateTime.formatIso(c.resolvedAt!)
  })

const reconciliation = Effect.service(Reconciliation)
const environment = "sandbox" as const
const period = { start: day("2026-11-02T00:00:00Z"), end: day("2026-11-03T00:00:00Z") }

const shopClearing = (scope: ShopScope) =>
  Effect.gen(function*() {
    return Money.toText(yield* (yield* LedgerStore).balance(scope.environment, scope.shop.id, "provider_clearing", "USD"))
  })

describe("reconciliation", () => {
  for (const target of storeTargets("reconciliation")) {
    const Engine = EngineTestWith(Payouts.noProviders, target.layer(), SettlementPayoutProviders.none, reports)

    it.live(`${target.name}: a report with injected faults: each found as its kind, no false one; the same file twice changes nothing`, () =>
      Effect.gen(function*() {
        const { completed, refundLines, refunds, scope } = yield* history(40, bySandboxClock)
        const lines = completed.map((p, i) => i === 7 ? paymentLine(p, "99.00") : paymentLine(p)) // a fee changed
        lines.splice(12, 1) // a payment missing from the report
        lines.push(...refundLines)
        lines.push(lines[lines.length - 1]!) // the last refund paid twice
        lines.push(JSON.stringify({
          kind: "payment",
          providerRef: "sbx-unknown-1",
          reference: "TXN-NOT-OURS",
          status: "captured",
          amount: "50.00",
          currency: completed[0]!.currencyLocal,
          fee: null,
          feeCurrency: null,
          at: DateTime.formatIso(completed[0]!.completedAt!)
        }))
        const file = lines.join("\n")

        const r = yield* reconciliation
        const first = yield* r.importReport({ environment, provider: "sandbox", format: "json-lines", content: file, source: "upload" })
        assert.isTrue(first.created)
        assert.deepStrictEqual(first.report.counts.discrepancies, { fee_differs: 1, missing_from_report: 1, duplicate: 1, unknown_to_engine: 1 })
        assert.strictEqual(first.report.counts.matched, 40 - 2 + refunds.length)
        const times = lines.map((l) => Date.parse(JSON.parse(l).at))
        const dayOf = (t: number) => Math.floor(t / 86_400_000) * 86_400_000
        assert.deepStrictEqual(
          [DateTime.toEpochMillis(first.report.periodStart), DateTime.toEpochMillis(first.report.periodEnd)],
          [dayOf(Math.min(...times)), dayOf(Math.max(...times)) + 86_400_000],
          "the period: the UTC days of the lines"
        )
        const found = yield* r.listDiscrepancies(environment, { reportId: first.report.id }, { limit: 100, offset: 0 })
        const byKind = Object.fromEntries(found.rows.map((d) => [d.kind, d.record?.id ?? d.line?.providerRef]))
        assert.deepStrictEqual(byKind, {
          fee_differs: completed[7]!.id,
          missing_from_report: completed[12]!.id,
          duplicate: refunds[refunds.length - 1]!.id,
          unknown_to_engine: "sbx-unknown-1"
        })

        // The clearing explained: engine = reported + pending + discrepancies, and the records' USD is the shop's clearing book.
        for (const c of first.report.clearing.byCurrency) {
          assert.strictEqual(
            Money.toText(c.engineExpects),
            Money.toText(BigDecimal.sumAll([c.providerReported, c.pendingAtProvider, c.discrepancies])),
            c.currency
          )
        }
        assert.strictEqual(Money.toText(first.report.clearing.clearingUsd), yield* shopClearing(scope), "the report's records are the shop's whole clearing book")

        const again = yield* r.importReport({ environment, provider: "sandbox", format: "json-lines", content: file, source: "upload" })
        assert.isFalse(again.created)
        assert.strictEqual(again.report.id, first.report.id)
        assert.strictEqual((yield* r.listReports(environment, "sandbox", { limit: 10, offset: 0 })).total, 1)
        assert.strictEqual((yield* r.listDiscrepancies(environment, {}, { limit: 100, offset: 0 })).total, 4)

        // Another file of the same period (one line more) finds the same discrepancies again: no new ones.
        const wider = yield* r.importReport({ environment, provider: "sandbox", format: "json-lines", content: `${file}\n`, source: "upload" })
        assert.isTrue(wider.created)
        assert.strictEqual((yield* r.listDiscrepancies(environment, {}, { limit: 100, offset: 0 })).total, 4)
      }).pipe(Effect.provide(Engine)), 60_000)

    it.live(`${target.name}: a malformed file is refused whole with its line and column; nothing is imported`, () =>
      Effect.gen(function*() {
        const { completed } = yield* history(3, bySandboxClock)
        const r = yield* reconciliation
        const file = [paymentLine(completed[0]!), paymentLine(completed[1]!).replace(/"amount":"[^"]+"/, "\"amount\":\"1O.5\""), paymentLine(completed[2]!)].join("\n")
        const refused = yield* Effect.flip(r.importReport({ environment, provider: "sandbox", format: "json-lines", content: file, source: "upload" }))
        assert.deepStrictEqual([refused.code, refused.details], ["report_malformed", { line: 2, column: "amount", problem: "not a decimal" }])
        const unknown = yield* Effect.flip(r.importReport({ environment, provider: "sandbox", format: "csv", content: file, source: "upload" }))
        assert.deepStrictEqual([unknown.code, unknown.details], ["report_format_unknown", { provider: "sandbox", environment, formats: ["json-lines"], configuredIn: ["sandbox"] }])
        // A sandbox report uploaded without its environment (production by default) names the environment, not the format.
        const elsewhere = yield* Effect.flip(r.importReport({ environment: "production", provider: "sandbox", format: "json-lines", content: file, source: "upload" }))
        assert.deepStrictEqual([elsewhere.code, elsewhere.details], ["report_format_unknown", { provider: "sandbox", environment: "production", formats: [], configuredIn: ["sandbox"] }])
        assert.include(elsewhere.message, "pass environment=sandbox")
        assert.strictEqual((yield* r.listReports(environment, undefined, { limit: 10, offset: 0 })).total, 0)
        assert.strictEqual((yield* r.listDiscrepancies(environment, {}, { limit: 10, offset: 0 })).total, 0)
      }).pipe(Effect.provide(Engine)), 60_000)

    it.live(`${target.name}: a write-off is one new journal entry, booked once even when two operators resolve at the same time`, () =>
      Effect.gen(function*() {
        const { completed, refundLines, scope } = yield* history(2, bySandboxClock)
        const r = yield* reconciliation
        const imported = yield* r.importReport({
          environment,
          provider: "sandbox",
          format: "json-lines",
          content: [paymentLine(completed[0]!, "12.00"), paymentLine(completed[1]!), ...refundLines].join("\n"),
          source: "upload"
        })
        const [d] = (yield* r.listDiscrepancies(environment, { reportId: imported.report.id, kind: "fee_differs" }, { limit: 1, offset: 0 })).rows
        const before = yield* shopClearing(scope)
        const entriesBefore = (yield* (yield* LedgerStore).entries(environment, scope.shop.id, { limit: 1, offset: 0 })).total
        const attempts = yield* Effect.all(
          [1, 2].map((n) => Effect.exit(r.resolve(environment, d!.id, { note: `the provider's new tariff (${n})`, writeOffUsd: Money.decimal("2.40"), by: `ops-${n}` }))),
          { concurrency: "unbounded" }
        )
        const won = attempts.filter(Exit.isSuccess)
        assert.strictEqual(won.length, 1, "one resolution wins")
        const lost = attempts.find(Exit.isFailure)!
        assert.strictEqual(Exit.isFailure(lost) && (lost.cause.reasons[0] as { error?: ApiError }).error?.code, "discrepancy_resolved")
        const resolved = yield* r.getDiscrepancy(environment, d!.id)
        assert.strictEqual(resolved.status, "resolved")
        assert.isNotNull(resolved.adjustmentEntryId)
        const entries = yield* (yield* LedgerStore).entries(environment, scope.shop.id, { limit: 1000, offset: 0 })
        assert.strictEqual(entries.total, entriesBefore + 1, "one entry, not two")
        const adjustment = entries.entries.find((e) => e.kind === "reconciliation.adjustment")!
        assert.deepInclude(adjustment, { id: resolved.adjustmentEntryId, reference: d!.id })
        assert.deepStrictEqual(adjustment.postings.map((p) => [p.book, Money.toText(p.amount)]).sort(), [["fees_platform", "-2.4"], ["provider_clearing", "2.4"]])
        assert.strictEqual(yield* shopClearing(scope), Money.toText(BigDecimal.sum(Money.decimal(before), Money.decimal("2.40"))))
        // A line unknown to the engine has no shop: a note alone resolves it, a write-off is refused.
        const unknown = yield* r.importReport({
          environment,
          provider: "sandbox",
          format: "json-lines",
          content: JSON.stringify({ kind: "payment", providerRef: "nobody", reference: null, status: "captured", amount: "5", currency: "BRL", fee: null, feeCurrency: null, at: DateTime.formatIso(completed[0]!.completedAt!) }),
          source: "upload"
        })
        const [u] = (yield* r.listDiscrepancies(environment, { reportId: unknown.report.id, kind: "unknown_to_engine" }, { limit: 1, offset: 0 })).rows
        const refused = yield* Effect.flip(r.resolve(environment, u!.id, { note: "n", writeOffUsd: Money.decimal("1"), by: "ops" }))
        assert.strictEqual(refused.code, "adjustment_needs_record")
        assert.strictEqual((yield* r.resolve(environment, u!.id, { note: "a test capture of the provider", by: "ops" })).status, "resolved")
      }).pipe(Effect.provide(Engine)), 60_000)
  }

  const Engine = EngineTestWith(Payouts.noProviders, undefined, SettlementPayoutProviders.none, reports)

  it.effect("the scheduled run fetches each day's report once, after the provider's delay; a report not ready is asked again", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(day("2026-11-02T10:00:00Z")))
      const { completed, refundLines } = yield* history(3, byTestClock)
      const r = yield* reconciliation
      const matchedCounter = Metric.withAttributes(reportLinesCounter, { provider: "sandbox", outcome: "matched" })
      const countedBefore = (yield* Metric.value(matchedCounter)).count
      served = undefined
      // 2026-11-03 05:59: the report of the 2nd is not due (6 hours' delay).
      yield* TestClock.setTime(DateTime.toEpochMillis(day("2026-11-03T05:59:00Z")))
      yield* drain
      assert.strictEqual((yield* r.listReports(environment, undefined, { limit: 10, offset: 0 })).total, 0)
      // Due, but the provider has not made it yet: the run fails and is asked again later.
      yield* TestClock.setTime(DateTime.toEpochMillis(day("2026-11-03T06:01:00Z")))
      yield* drain
      assert.strictEqual((yield* r.listReports(environment, undefined, { limit: 10, offset: 0 })).total, 0)
      served = [...completed.map((p) => paymentLine(p)), ...refundLines].join("\n")
      yield* TestClock.adjust("2 minutes")
      yield* drain
      const after = yield* r.listReports(environment, undefined, { limit: 10, offset: 0 })
      assert.strictEqual(after.total, 1)
      // Counted for the metrics exporter, by provider and outcome.
      assert.strictEqual((yield* Metric.value(matchedCounter)).count - countedBefore, after.rows[0]!.counts.matched)
      assert.deepInclude(after.rows[0], { source: "fetch", periodStart: period.start, periodEnd: period.end })
      assert.deepStrictEqual(after.rows[0]!.counts.discrepancies, {})
      // Later ticks of the same day propose nothing new; an on-demand run of the same period changes nothing.
      yield* TestClock.adjust("3 hours")
      yield* drain
      assert.isFalse((yield* r.run(environment, "sandbox", period)).created)
      assert.strictEqual((yield* r.listReports(environment, undefined, { limit: 10, offset: 0 })).total, 1)
      served = undefined
      const unavailable = yield* Effect.flip(r.run(environment, "sandbox", period))
      assert.deepStrictEqual([unavailable.code, unavailable.details], ["report_unavailable", { provider: "sandbox", reason: "not ready" }])
      const noApi = yield* Effect.flip(r.run("production", "sandbox", period))
      assert.strictEqual(noApi.code, "report_source_unavailable")
    }).pipe(Effect.provide(Layer.fresh(Engine))), 60_000)
})
