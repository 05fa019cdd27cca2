/**
 * Matching a provider's report with the engine's records : on a history of
 * thousands of lines with faults injected at random (a capture the engine never heard about, a
 * refund paid twice, a fee changed, an amount changed, a payment the engine has as failed that
 * the provider captured, a line missing), every injected fault is found, as its own kind, and no
 * false one; the same report matched twice gives the same outcomes.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime } from "effect"
import * as Money from "../../core/Money.ts"
import type { ReportLine } from "../../core/ports/ProviderReports.ts"
import { type DiscrepancyKind, type EngineRecord, match } from "../../core/reconciliation/Matching.ts"
import { prng } from "../support/Random.ts"

const periodStart = DateTime.makeUnsafe("2026-11-01T00:00:00Z")
const periodEnd = DateTime.makeUnsafe("2026-11-02T00:00:00Z")

const payment = (n: number, amount: string): EngineRecord => ({
  kind: "payment",
  id: `TXN-${String(n).padStart(6, "0")}`,
  providerRef: `D-${n}`,
  reference: `TXN-${String(n).padStart(6, "0")}:dlocal`,
  moved: true,
  status: "completed",
  amount: Money.decimal(amount),
  currency: "BRL",
  shopId: "shop_1",
  paymentId: null,
  fee: { usd: Money.decimal("0.25"), localPerUsd: Money.decimal("5") },
  clearingUsd: Money.decimal("-1"),
  movedAt: DateTime.add(periodStart, { minutes: n % 1400 })
})

const lineOf = (r: EngineRecord, line: number): ReportLine => ({
  line,
  kind: r.kind,
  providerRef: r.providerRef,
  reference: r.reference,
  status: r.kind === "payment" ? "PAID" : "REFUNDED",
  normalized: r.kind === "payment" ? "captured" : "refunded",
  amount: r.amount,
  currency: r.currency,
  fee: r.fee === null ? null : BigDecimal.multiply(r.fee.usd, r.fee.localPerUsd),
  feeCurrency: r.fee === null ? null : "BRL",
  occurredAt: r.movedAt
})

describe("report matching", () => {
  for (const seed of [7, 8, 9]) {
    it(`seed ${seed}: 3000 lines with injected faults: each found as its kind, no false one`, () => {
      const random = prng(seed)
      const records: Array<EngineRecord> = []
      for (let n = 1; n <= 2500; n++) records.push(payment(n, (1 + random() * 900).toFixed(2)))
      for (let n = 1; n <= 500; n++) {
        const paid = records[Math.floor(random() * 2500)]!
        records.push({
          kind: "refund",
          id: `CLM-${String(n).padStart(6, "0")}`,
          providerRef: `R-${n}`,
          reference: `CLM-${String(n).padStart(6, "0")}`,
          moved: true,
          status: "approved",
          amount: BigDecimal.divideUnsafe(paid.amount, Money.decimal("2")),
          currency: "BRL",
          shopId: "shop_1",
          paymentId: paid.id,
          fee: null,
          clearingUsd: Money.decimal("1"),
          movedAt: paid.movedAt
        })
      }
      const lines: Array<ReportLine> = records.map((r, i) => lineOf(r, i + 2))
      const expected = new Map<string, DiscrepancyKind>()
      const pickLine = () => Math.floor(random() * lines.length)
      const faulty = new Set<number>()
      const fresh = () => {
        for (;;) {
          const i = pickLine()
          if (!faulty.has(i)) return (faulty.add(i), i)
        }
      }
      for (let k = 0; k < 10; k++) {
        // A capture the engine never heard about.
        lines.push({ ...lineOf(payment(900_000 + k, "12.00"), lines.length + 2), providerRef: `X-${k}`, reference: `TXN-X${k}:dlocal` })
        expected.set(`X-${k}`, "unknown_to_engine")
        // A fee changed.
        const f = fresh()
        lines[f] = { ...lines[f]!, fee: lines[f]!.fee === null ? null : BigDecimal.sum(lines[f]!.fee!, Money.decimal("0.05")) }
        if (lines[f]!.fee !== null) expected.set(lines[f]!.providerRef!, "fee_differs")
        // An amount changed.
        const a = fresh()
        lines[a] = { ...lines[a]!, amount: BigDecimal.sum(lines[a]!.amount, Money.decimal("1")) }
        expected.set(lines[a]!.providerRef!, "amount_differs")
        // The engine has it failed; the provider captured it.
        const s = fresh()
        const failed = records.findIndex((r) => r.providerRef === lines[s]!.providerRef)
        if (records[failed]!.kind === "payment") {
          records[failed] = { ...records[failed]!, moved: false, status: "failed" }
          expected.set(lines[s]!.providerRef!, "status_differs")
        } else faulty.delete(s)
      }
      // A refund paid twice, and a line missing.
      const refundLines = lines.map((l, i) => [l, i] as const).filter(([l, i]) => l.kind === "refund" && !faulty.has(i))
      const [twice, twiceAt] = refundLines[0]!
      faulty.add(twiceAt)
      lines.push({ ...twice, line: lines.length + 2 })
      expected.set(`dup:${twice.providerRef}`, "duplicate")
      const missingAt = refundLines[1]![1]
      const missing = lines[missingAt]!
      lines.splice(missingAt, 1)
      expected.set(missing.providerRef!, "missing_from_report")

      const outcomes = match(lines, records, { periodStart, periodEnd })
      const found = new Map<string, DiscrepancyKind>()
      for (const o of outcomes) {
        if (o._tag === "matched") continue
        const key = o.kind === "duplicate" ? `dup:${o.line!.providerRef}` : (o.line?.providerRef ?? o.record!.providerRef)!
        assert.isFalse(found.has(key), `${key} reported twice`)
        found.set(key, o.kind)
      }
      assert.deepStrictEqual(Object.fromEntries([...found].sort()), Object.fromEntries([...expected].sort()))
      const matched = outcomes.filter((o) => o._tag === "matched").length
      assert.strictEqual(matched + found.size - [...expected.values()].filter((k) => k === "unknown_to_engine" || k === "duplicate").length, records.length)
      // Matching is a function of its inputs: the same report twice, the same outcomes.
      assert.deepStrictEqual(match(lines, records, { periodStart, periodEnd }), outcomes)
    })
  }

  it("a record outside the report's period is not missing from it; a pending line is no status difference", () => {
    const late = { ...payment(1, "10.00"), movedAt: periodEnd }
    const early = { ...payment(2, "10.00"), movedAt: DateTime.subtract(periodStart, { seconds: 1 }) }
    assert.deepStrictEqual(match([], [late, early], { periodStart, periodEnd }), [])
    const pending = payment(3, "10.00")
    const outcomes = match([{ ...lineOf(pending, 2), status: "PENDING", normalized: "pending" }], [{ ...pending, moved: false, status: "pending" }], { periodStart, periodEnd })
    assert.deepStrictEqual(outcomes.map((o) => o._tag), ["matched"])
  })
  it("a fee in the local currency is the booked USD fee at the payment's rate, give or take the roundings (a minor unit; a whole USD cent below, the booked fee rounding up; half a cent above)", () => {
    const p = payment(4, "100.00") // fee 0.25 USD at 5 BRL per USD: 1.25 BRL, from 0.01 + 0.05 below to 0.01 + 0.025 above
    const at = (fee: string) => match([{ ...lineOf(p, 2), fee: Money.decimal(fee) }], [p], { periodStart, periodEnd }).map((o) => o._tag === "matched" ? "matched" : o.kind)[0]
    assert.deepStrictEqual(
      [at("1.25"), at("1.28"), at("1.22"), at("1.19"), at("1.29"), at("1.18")],
      ["matched", "matched", "matched", "matched", "fee_differs", "fee_differs"]
    )
    const inUsd = (fee: string) => match([{ ...lineOf(p, 2), fee: Money.decimal(fee), feeCurrency: "USD" }], [p], { periodStart, periodEnd })[0]!._tag
    assert.deepStrictEqual([inUsd("0.25"), inUsd("0.26"), inUsd("0.27")], ["matched", "matched", "discrepancy"])
    const otherCurrency = match([{ ...lineOf(p, 2), fee: Money.decimal("99"), feeCurrency: "EUR" }], [p], { periodStart, periodEnd })
    assert.deepStrictEqual(otherCurrency.map((o) => o._tag), ["matched"])
  })
  it("a refund's line written with its payment's references is that payment's refund of the same amount; a second one is a duplicate", () => {
    const p = payment(5, "90.00")
    const refund = (n: number, amount: string): EngineRecord => ({
      ...p,
      kind: "refund",
      id: `CLM-${n}`,
      paymentId: p.id,
      providerRef: `R-${n}`,
      reference: `CLM-${n}`,
      amount: Money.decimal(amount),
      fee: null
    })
    const [small, large] = [refund(1, "10.00"), refund(2, "30.00")]
    const asPayments = (amount: string, line: number): ReportLine => ({ ...lineOf(p, line), kind: "refund", status: "REFUNDED", normalized: "refunded", amount: Money.decimal(amount), fee: null })
    const outcomes = match([asPayments("30.00", 2), asPayments("10.00", 3), asPayments("10.00", 4)], [p, small, large], { periodStart, periodEnd })
    assert.deepStrictEqual(outcomes.map((o) => [o._tag === "matched" ? "matched" : o.kind, o.record?.id]), [
      ["matched", "CLM-2"],
      ["matched", "CLM-1"],
      ["duplicate", "CLM-1"],
      ["missing_from_report", "TXN-000005"]
    ])
  })
})
