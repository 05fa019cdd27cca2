/**
 * The simulators' reports: what dLocal's, EBANX's and Conekta's simulators write for a
 * period, driven through the real connectors, is parsed by that provider's `ReportFormat` back
 * into lines whose provider reference, reference, amount, currency, fee and status are what the
 * simulator did: every capture, paid refund and chargeback in the period, nothing pending,
 * rejected or outside it, and each injected fault (an unknown capture, a refund reported twice,
 * a changed fee) exactly as injected.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Result } from "effect"
import { findMethod } from "../../core/catalog/methods.ts"
import * as Money from "../../core/Money.ts"
import type { PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import type { ReportFormat, ReportLine } from "../../core/ports/ProviderReports.ts"
import * as ConektaHarness from "../../providers/conekta/ConformanceHarness.ts"
import { conektaTransactionsReport } from "../../providers/conekta/Report.ts"
import * as DLocalHarness from "../../providers/dlocal/ConformanceHarness.ts"
import { make as makeDLocal } from "../../providers/dlocal/DLocalProvider.ts"
import { DLocalSimulator } from "../../providers/dlocal/DLocalSimulator.ts"
import { dlocalSettlementReport } from "../../providers/dlocal/Report.ts"
import * as EbanxHarness from "../../providers/ebanx/ConformanceHarness.ts"
import { make as makeEbanx } from "../../providers/ebanx/EbanxProvider.ts"
import { EbanxSimulator } from "../../providers/ebanx/EbanxSimulator.ts"
import { ebanxTransactionsReport } from "../../providers/ebanx/Report.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import type { SimulatorReports } from "../../providers/kit/SimulatorReports.ts"
import ConektaStandalone from "../../providers/conekta/Standalone.ts"
import DLocalStandalone from "../../providers/dlocal/Standalone.ts"
import EbanxStandalone from "../../providers/ebanx/Standalone.ts"

const text = (amount: BigDecimal.BigDecimal | null) => (amount === null ? null : BigDecimal.format(BigDecimal.normalize(amount)))

/** What matching compares, as plain data. */
const plain = (line: ReportLine) => ({
  kind: line.kind,
  providerRef: line.providerRef,
  reference: line.reference,
  normalized: line.normalized,
  amount: text(line.amount),
  currency: line.currency,
  fee: text(line.fee),
  feeCurrency: line.feeCurrency
})

const parsed = (format: ReportFormat, input: string) => {
  const result = format.parse(input)
  if (Result.isFailure(result)) return assert.fail(`refused: line ${result.failure.line} ${result.failure.column}: ${result.failure.message}\n${input}`)
  return result.success
}

/** The period from a second before now; `close` ends it a second after the moves. */
const openPeriod = Effect.map(DateTime.now, (start) => DateTime.subtract(start, { seconds: 1 }))
const close = (start: DateTime.Utc) => Effect.map(DateTime.now, (now) => ({ start, end: DateTime.add(now, { seconds: 1 }) }))

/** Every line happened inside the period (the report's times are whole seconds). */
const assertWithin = (lines: ReadonlyArray<ReportLine>, period: { readonly start: DateTime.Utc; readonly end: DateTime.Utc }) => {
  for (const line of lines) {
    assert.isNotNull(line.occurredAt)
    const at = DateTime.toEpochMillis(line.occurredAt!)
    assert.isTrue(at >= DateTime.toEpochMillis(period.start) - 1000 && at < DateTime.toEpochMillis(period.end), `line ${line.line} at ${at}`)
  }
}

/** The same report with the faults: the injected lines, and nothing else changed. */
const assertFaults = (
  reports: SimulatorReports,
  format: ReportFormat,
  period: { readonly start: DateTime.Utc; readonly end: DateTime.Utc },
  faults: { readonly refundRef: string; readonly feeOf: string; readonly feeRef: string; readonly sent: ReadonlySet<string> }
) => {
  const clean = parsed(format, reports.report(period)).map(plain)
  const faulty = parsed(format, reports.report(period, { unknownCaptures: 2, duplicatedRefunds: [faults.refundRef], changedFees: { [faults.feeOf]: "9.99" } })).map(plain)
  assert.strictEqual(faulty.length, clean.length + 3)
  const unknown = faulty.filter((l) => l.kind === "payment" && !clean.some((c) => c.providerRef === l.providerRef))
  assert.strictEqual(unknown.length, 2, "two captures nobody asked for")
  assert.strictEqual(new Set(unknown.map((l) => l.providerRef)).size, 2, "each with a fresh id")
  for (const l of unknown) {
    assert.strictEqual(l.normalized, "captured")
    assert.isFalse(l.reference !== null && faults.sent.has(l.reference), "a reference nobody sent")
  }
  const refunds = (lines: ReadonlyArray<ReturnType<typeof plain>>) => lines.filter((l) => l.kind === "refund" && l.providerRef === faults.refundRef)
  assert.strictEqual(refunds(faulty).length, refunds(clean).length * 2, "the refund reported twice")
  assert.deepStrictEqual(refunds(faulty)[0], refunds(clean)[0])
  const changed = faulty.filter((l) => l.kind === "payment" && l.providerRef === faults.feeRef)
  assert.strictEqual(changed.length, 1)
  assert.strictEqual(changed[0]!.fee, "9.99", "the fee replaced")
  const rest = (lines: ReadonlyArray<ReturnType<typeof plain>>) =>
    lines.filter((l) => !unknown.includes(l) && !(l.kind === "payment" && l.providerRef === faults.feeRef) && !(l.kind === "refund" && l.providerRef === faults.refundRef))
  assert.deepStrictEqual(rest(faulty), rest(clean), "nothing else changed")
}

describe("dLocal simulator settlement report", () => {
  it.live("reports every capture, paid refund and chargeback with dLocal's ids, the order_id sent, the exact local amount and the USD fee of the rule", () =>
    Effect.gen(function*() {
      const sim = yield* DLocalSimulator.start(DLocalHarness.credentials)
      yield* sim.dropCallbacks(true)
      const provider = yield* makeDLocal(DLocalHarness.optionsFor(sim.baseUrl))
      const on = (methodId: string, transactionId: string, amount: string) => ({
        ...defaultChargeRequest(provider, findMethod(methodId)!, transactionId),
        amount: Money.decimal(amount)
      })
      const refund = (transactionId: string, providerRef: string, refundId: string, amount: string, currency: string) =>
        provider.refund({ transactionId, providerRef, refundId, idempotencyKey: `${refundId}:dlocal`, amount: Money.decimal(amount), currency })

      const start = yield* openPeriod
      const a = yield* provider.charge(on("1001", "TXN-RPT-DL-1", "250.00"))
      const b = yield* provider.charge(on("1033", "TXN-RPT-DL-2", "1000.50"))
      yield* provider.charge(on("1001", "TXN-RPT-DL-3", "75")) // never paid: not in the report
      yield* sim.complete(a.providerRef)
      yield* sim.complete(b.providerRef)
      const r1 = yield* refund("TXN-RPT-DL-1", a.providerRef, "CLM-RPT-DL-R1", "100", "BRL")
      yield* sim.setRefundMode("pending")
      const r2 = yield* refund("TXN-RPT-DL-1", a.providerRef, "CLM-RPT-DL-R2", "50", "BRL") // pending: not yet paid
      yield* sim.setStatus(b.providerRef, "CHARGEBACK")
      const period = yield* close(start)
      sim.reports.setFeeRule({ percent: "2", flat: "0.30", localPerUsd: "5" })

      const lines = parsed(dlocalSettlementReport, sim.reports.report(period))
      assert.deepStrictEqual(lines.map(plain), [
        { kind: "payment", providerRef: a.providerRef, reference: "TXN-RPT-DL-1", normalized: "captured", amount: "250", currency: "BRL", fee: "1.3", feeCurrency: "USD" },
        { kind: "payment", providerRef: b.providerRef, reference: "TXN-RPT-DL-2", normalized: "captured", amount: "1000.5", currency: "MXN", fee: "4.302", feeCurrency: "USD" },
        { kind: "refund", providerRef: r1.providerRef, reference: "TXN-RPT-DL-1", normalized: "refunded", amount: "100", currency: "BRL", fee: "0", feeCurrency: "USD" },
        { kind: "chargeback", providerRef: `CHB-${b.providerRef}`, reference: "TXN-RPT-DL-2", normalized: "charged_back", amount: "1000.5", currency: "MXN", fee: "0", feeCurrency: "USD" }
      ])
      assertWithin(lines, period)

      // The pending refund is reported once paid.
      yield* sim.settleRefund(r2.providerRef)
      assert.deepStrictEqual(parsed(dlocalSettlementReport, sim.reports.report(yield* close(start))).map(plain), [
        ...lines.map(plain),
        { kind: "refund", providerRef: r2.providerRef, reference: "TXN-RPT-DL-1", normalized: "refunded", amount: "50", currency: "BRL", fee: "0", feeCurrency: "USD" }
      ])
      assert.deepStrictEqual(parsed(dlocalSettlementReport, sim.reports.report({ start: DateTime.subtract(start, { hours: 1 }), end: start })), [])

      assertFaults(sim.reports, dlocalSettlementReport, yield* close(start), {
        refundRef: r1.providerRef,
        feeOf: a.providerRef,
        feeRef: a.providerRef,
        sent: new Set(["TXN-RPT-DL-1", "TXN-RPT-DL-2", "TXN-RPT-DL-3"])
      })
    }).pipe(Effect.provide(DLocalHarness.Live)))
})

describe("EBANX simulator transactions report", () => {
  it.live("reports every confirmed payment, confirmed refund and chargeback with the hash, the merchant_payment_code sent, the exact amount and the fee of the rule", () =>
    Effect.gen(function*() {
      const sim = yield* EbanxSimulator.start(EbanxHarness.integrationKey)
      yield* sim.dropCallbacks(true)
      const provider: PaymentProvider = yield* makeEbanx(EbanxHarness.optionsFor(sim.baseUrl))
      const charge = (transactionId: string, amount: string) =>
        provider.charge({ ...defaultChargeRequest(provider, EbanxHarness.pix, transactionId), amount: Money.decimal(amount) })
      const refund = (transactionId: string, providerRef: string, refundId: string, amount: string) =>
        provider.refund({ transactionId, providerRef, refundId, idempotencyKey: `${refundId}:ebanx`, amount: Money.decimal(amount), currency: "BRL" })

      const start = yield* openPeriod
      const a = yield* charge("TXN-RPT-EB-1", "123.45")
      const b = yield* charge("TXN-RPT-EB-2", "80")
      yield* charge("TXN-RPT-EB-3", "10") // never paid
      yield* sim.complete(a.providerRef)
      yield* sim.complete(b.providerRef)
      const r1 = yield* refund("TXN-RPT-EB-1", a.providerRef, "CLM-01JDRPTEB00000000000000001", "23.45")
      yield* sim.setRefundMode("pending")
      const r2 = yield* refund("TXN-RPT-EB-1", a.providerRef, "CLM-01JDRPTEB00000000000000002", "10")
      const r3 = yield* refund("TXN-RPT-EB-1", a.providerRef, "CLM-01JDRPTEB00000000000000003", "5")
      yield* sim.settleRefund(r2.providerRef)
      yield* sim.rejectRefund(r3.providerRef) // cancelled: never paid
      yield* sim.chargeback(b.providerRef)
      const period = yield* close(start)
      sim.reports.setFeeRule({ percent: "3.5", flat: "0.40" })

      assert.strictEqual(sim.charges.get(a.providerRef)!.merchantPaymentCode, "TXN-RPT-EB-1")
      const lines = parsed(ebanxTransactionsReport, sim.reports.report(period))
      assert.deepStrictEqual(lines.map(plain), [
        { kind: "payment", providerRef: a.providerRef, reference: "TXN-RPT-EB-1", normalized: "captured", amount: "123.45", currency: "BRL", fee: "4.72", feeCurrency: "BRL" },
        { kind: "payment", providerRef: b.providerRef, reference: "TXN-RPT-EB-2", normalized: "captured", amount: "80", currency: "BRL", fee: "3.2", feeCurrency: "BRL" },
        { kind: "refund", providerRef: r1.providerRef, reference: "TXN-RPT-EB-1", normalized: "refunded", amount: "23.45", currency: "BRL", fee: "0", feeCurrency: "BRL" },
        { kind: "refund", providerRef: r2.providerRef, reference: "TXN-RPT-EB-1", normalized: "refunded", amount: "10", currency: "BRL", fee: "0", feeCurrency: "BRL" },
        { kind: "chargeback", providerRef: b.providerRef, reference: "TXN-RPT-EB-2", normalized: "charged_back", amount: "80", currency: "BRL", fee: "0", feeCurrency: "BRL" }
      ])
      assertWithin(lines, period)
      assert.deepStrictEqual(parsed(ebanxTransactionsReport, sim.reports.report({ start: DateTime.subtract(start, { hours: 1 }), end: start })), [])

      assertFaults(sim.reports, ebanxTransactionsReport, period, {
        refundRef: r1.providerRef,
        feeOf: a.providerRef,
        feeRef: a.providerRef,
        sent: new Set(["TXN-RPT-EB-1", "TXN-RPT-EB-2", "TXN-RPT-EB-3"])
      })
    }).pipe(Effect.provide(EbanxHarness.Live)))
})

describe("Conekta simulator transactions", () => {
  it.live("reports every paid order, settled refund and chargeback with the order id, the exact centavos and the fee of the rule", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* ConektaHarness.setup()
      const charge = (transactionId: string, amount: string) =>
        provider.charge({ ...defaultChargeRequest(provider, ConektaHarness.oxxo, transactionId), amount: Money.decimal(amount) })
      const refund = (transactionId: string, providerRef: string, refundId: string, amount: string) =>
        provider.refund({ transactionId, providerRef, refundId, idempotencyKey: `${refundId}:conekta`, amount: Money.decimal(amount), currency: "MXN" })

      const start = yield* openPeriod
      const a = yield* charge("TXN-RPT-CK-1", "1234.56")
      const b = yield* charge("TXN-RPT-CK-2", "500")
      yield* charge("TXN-RPT-CK-3", "20") // never paid
      yield* sim.complete(a.providerRef)
      yield* sim.complete(b.providerRef)
      const r1 = yield* refund("TXN-RPT-CK-1", a.providerRef, "TXN-RPT-CK-1-R1", "234.56")
      yield* sim.setRefundsPending(true)
      const r2 = yield* refund("TXN-RPT-CK-1", a.providerRef, "TXN-RPT-CK-1-R2", "100") // pending: not reported
      yield* sim.setStatus(b.providerRef, "charged_back")
      const period = yield* close(start)
      sim.reports.setFeeRule({ percent: "3.6", flat: "3" })

      const lines = parsed(conektaTransactionsReport, sim.reports.report(period))
      assert.deepStrictEqual(lines.map(plain), [
        { kind: "payment", providerRef: a.providerRef, reference: null, normalized: "captured", amount: "1234.56", currency: "MXN", fee: "47.44", feeCurrency: "MXN" },
        { kind: "payment", providerRef: b.providerRef, reference: null, normalized: "captured", amount: "500", currency: "MXN", fee: "21", feeCurrency: "MXN" },
        { kind: "refund", providerRef: a.providerRef, reference: null, normalized: "refunded", amount: "234.56", currency: "MXN", fee: "0", feeCurrency: "MXN" },
        { kind: "chargeback", providerRef: b.providerRef, reference: null, normalized: "charged_back", amount: "500", currency: "MXN", fee: "0", feeCurrency: "MXN" }
      ])
      assertWithin(lines, period)
      assert.deepStrictEqual(lines.map((l) => l.line), [2, 3, 4, 5], "a transaction a line, after the list's opening line")
      assert.isTrue(sim.orders.get(a.providerRef)!.refunds.some((r) => r.id === r1.providerRef && r.status === undefined))
      assert.isTrue(sim.orders.get(a.providerRef)!.refunds.some((r) => r.id === r2.providerRef && r.status === "pending"))

      const clean = parsed(conektaTransactionsReport, sim.reports.report(period)).map(plain)
      const faulty = parsed(
        conektaTransactionsReport,
        sim.reports.report(period, { unknownCaptures: 2, duplicatedRefunds: [r1.providerRef], changedFees: { [a.providerRef]: "9.99" } })
      ).map(plain)
      assert.strictEqual(faulty.length, clean.length + 3)
      const unknown = faulty.filter((l) => l.kind === "payment" && !clean.some((c) => c.providerRef === l.providerRef))
      assert.strictEqual(new Set(unknown.map((l) => l.providerRef)).size, 2, "two captures of orders nobody created")
      assert.strictEqual(faulty.filter((l) => l.kind === "refund").length, 2, "the refund reported twice")
      assert.deepStrictEqual(faulty.filter((l) => l.kind === "payment" && l.providerRef === a.providerRef).map((l) => l.fee), ["9.99"])
      assert.deepStrictEqual(faulty.filter((l) => l.kind === "payment" && l.providerRef === b.providerRef), clean.filter((l) => l.kind === "payment" && l.providerRef === b.providerRef))
    }))
})

describe("standalone simulators serve their report", () => {
  it.live("POST /_simulator/reports { from, to, faults } answers the report of the period, refusing a period that is not ISO", () =>
    Effect.gen(function*() {
      for (const [standalone, format] of [[DLocalStandalone, dlocalSettlementReport], [EbanxStandalone, ebanxTransactionsReport], [ConektaStandalone, conektaTransactionsReport]] as const) {
        const started = yield* standalone.start
        const route = started.routes?.["POST /_simulator/reports"]
        assert.isDefined(route, standalone.kind)
        const now = yield* DateTime.now
        const answer = (yield* route!(undefined, { from: DateTime.formatIso(DateTime.subtract(now, { hours: 1 })), to: DateTime.formatIso(now), faults: { unknownCaptures: 1 } })) as { report: string }
        const lines = parsed(format, answer.report)
        assert.deepStrictEqual(lines.map((l) => [l.kind, l.normalized]), [["payment", "captured"]], standalone.kind)
        const refused = yield* Effect.flip(route!(undefined, { from: "yesterday", to: DateTime.formatIso(now) }))
        assert.include(refused.message, "from")
      }
    }))
})
