/**
 * Provider reports fetched through the real connectors' `ReportSource` from their
 * simulators over loopback sockets, after payments, refunds and chargebacks made through the real
 * connectors: Mercado Pago's release report (create, poll the list, download) and Pagar.me's
 * payables (paged `GET /payables`). The fetched text parses to lines matching what was done; each
 * injected fault shows; a reports API that fails is `ReportUnavailable`, never a defect. Also the
 * Pagar.me payables parser on a documented fixture (see `fixtures/pagarme/report-payables.md`).
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Duration, Effect, Exit, Option, Redacted, Result } from "effect"
import { readFileSync } from "node:fs"
import * as Money from "../../core/Money.ts"
import type { ReportLine, ReportPeriod, ReportSource } from "../../core/ports/ProviderReports.ts"
import type { ConnectorSettings } from "../../providers/kit/Connector.ts"
import * as Mp from "../../providers/mercadopago/ConformanceHarness.ts"
import { MercadoPagoProvider } from "../../providers/mercadopago/MercadoPagoProvider.ts"
import { MercadoPagoSimulator } from "../../providers/mercadopago/MercadoPagoSimulator.ts"
import * as MpReports from "../../providers/mercadopago/ReportSource.ts"
import * as Pg from "../../providers/pagarme/ConformanceHarness.ts"
import { PagarmeProvider } from "../../providers/pagarme/PagarmeProvider.ts"
import { pagarmePayablesReport } from "../../providers/pagarme/Report.ts"
import { PagarmeReportSource } from "../../providers/pagarme/ReportSource.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"

const text = (a: BigDecimal.BigDecimal | null) => (a === null ? null : Money.toText(a))

/** The parts of a line a test compares. */
const brief = (l: ReportLine) => ({
  kind: l.kind,
  providerRef: l.providerRef,
  reference: l.reference,
  normalized: l.normalized,
  amount: text(l.amount),
  fee: text(l.fee),
  currency: l.currency
})

const parsed = (source: ReportSource, input: string) => {
  const result = source.format.parse(input)
  if (Result.isFailure(result)) return assert.fail(`refused: line ${result.failure.line} ${result.failure.column}: ${result.failure.message}`)
  return result.success
}

/** A period around now, `[now - 1 min, now + 1 min)`. */
const aroundNow = Effect.map(DateTime.now, (now): ReportPeriod => ({
  start: DateTime.subtract(now, { minutes: 1 }),
  end: DateTime.add(now, { minutes: 1 })
}))

const errorOf = <E>(exit: Exit.Exit<unknown, E>) => Option.getOrUndefined(Exit.findErrorOption(exit))

const settings = (id: string, baseUrl: string, secrets: Record<string, string>, values: Record<string, string> = {}): ConnectorSettings => ({
  id,
  environment: "sandbox",
  baseUrl,
  timeoutMs: 2_000,
  secrets: Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, Redacted.make(v)])),
  values
})

describe("Mercado Pago release report through the reports API", () => {
  /** Three PIX payments approved; one refunded in part, one charged back. */
  const history = Effect.gen(function*() {
    const { provider, sim } = yield* Mp.setup()
    sim.reports.setFeeRule({ percent: "3.99", flat: "0" })
    const refs: Array<string> = []
    for (const [n, amount] of [[1, "100.00"], [2, "250.50"], [3, "80.00"]] as const) {
      const accepted = yield* provider.charge({ ...defaultChargeRequest(provider, Mp.pix, `TXN-MPR-${n}`), amount: Money.decimal(amount) })
      yield* sim.complete(accepted.providerRef)
      refs.push(accepted.providerRef)
    }
    yield* provider.refund({
      transactionId: "TXN-MPR-1",
      providerRef: refs[0]!,
      refundId: "TXN-MPR-1-R1",
      idempotencyKey: "TXN-MPR-1-R1:mercadopago",
      amount: Money.decimal("40.00"),
      currency: "BRL"
    })
    yield* sim.setStatus(refs[2]!, "charged_back")
    const source = yield* MercadoPagoProvider.connector.reportSource!(
      settings("mercadopago", sim.baseUrl, { ACCESS_TOKEN: Mp.accessToken, WEBHOOK_SECRET: Mp.webhookSecret }, { ACCOUNT_CURRENCY: "BRL" })
    )
    return { provider, sim, refs, source, period: yield* aroundNow }
  }).pipe(Effect.provide(Mp.Live))

  it.live("the fetched report parses to what was done: each release, the refund paid, the chargeback, fees per the rule", () =>
    Effect.gen(function*() {
      const { period, refs, sim, source } = yield* history
      const lines = parsed(source, yield* source.fetch(period))
      assert.deepStrictEqual(lines.map(brief), [
        { kind: "payment", providerRef: refs[0]!, reference: "TXN-MPR-1", normalized: "settled", amount: "100", fee: "3.99", currency: "BRL" },
        { kind: "payment", providerRef: refs[1]!, reference: "TXN-MPR-2", normalized: "settled", amount: "250.5", fee: "9.99", currency: "BRL" },
        { kind: "payment", providerRef: refs[2]!, reference: "TXN-MPR-3", normalized: "settled", amount: "80", fee: "3.19", currency: "BRL" },
        { kind: "refund", providerRef: refs[0]!, reference: "TXN-MPR-1", normalized: "refunded", amount: "40", fee: "0", currency: "BRL" },
        { kind: "chargeback", providerRef: refs[2]!, reference: "TXN-MPR-3", normalized: "charged_back", amount: "80", fee: "0", currency: "BRL" }
      ])
      const calls = sim.requests.filter((r) => r.path.startsWith("/v1/account/release_report")).map((r) => `${r.method} ${r.path.replace(/\/release-report-.*$/, "/<file>")}`)
      assert.deepStrictEqual([calls[0], calls.at(-1)], ["POST /v1/account/release_report", "GET /v1/account/release_report/<file>"])
      assert.isTrue(calls.includes("GET /v1/account/release_report/list"))
      assert.isTrue(sim.requests.every((r) => r.authorized))
    }))

  it.live("each injected fault appears: a capture nobody asked for, a refund paid twice, a fee changed", () =>
    Effect.gen(function*() {
      const { period, refs, sim, source } = yield* history
      const refundId = sim.charges.get(refs[0]!)!.refunds[0]!.id
      sim.reports.setFaults({ unknownCaptures: 2, duplicatedRefunds: [refundId], changedFees: { [refs[1]!]: "12.34" } })
      const lines = parsed(source, yield* source.fetch(period)).map(brief)
      const unknown = lines.filter((l) => l.kind === "payment" && !refs.includes(l.providerRef!))
      assert.deepStrictEqual(unknown.map((l) => [l.reference, l.amount]), [[null, "11.9"], [null, "12.9"]])
      assert.strictEqual(lines.filter((l) => l.kind === "refund" && l.providerRef === refs[0]).length, 2)
      assert.strictEqual(lines.find((l) => l.kind === "payment" && l.providerRef === refs[1])!.fee, "12.34")
      // The simulator's own report of the same period says the same.
      const direct = parsed(source, sim.reports.report(period, { unknownCaptures: 2, duplicatedRefunds: [refundId], changedFees: { [refs[1]!]: "12.34" } }))
      assert.deepStrictEqual(direct.map(brief), lines)
    }))

  it.live("polls the list until the file is there; a report never ready in the budget, or an API down, is ReportUnavailable", () =>
    Effect.gen(function*() {
      const sim = yield* MercadoPagoSimulator.start({ accessToken: Mp.accessToken, webhookSecret: Mp.webhookSecret, reportReadyMs: 400 })
      const period = yield* aroundNow
      const make = (maxWait: Duration.Input) =>
        MpReports.make({ id: "mercadopago", baseUrl: sim.baseUrl, accessToken: Redacted.make(Mp.accessToken), accountCurrency: "BRL", pollInterval: "50 millis", maxWait })
      const patient = yield* make("5 seconds")
      assert.include(yield* patient.fetch(period), "DATE,SOURCE_ID,EXTERNAL_REFERENCE")
      assert.isAbove(sim.requests.filter((r) => r.path === "/v1/account/release_report/list").length, 1)
      const hasty = yield* make("150 millis")
      const late = errorOf(yield* Effect.exit(hasty.fetch(period)))
      assert.deepStrictEqual([late?._tag, late?.reason.startsWith("not_ready")], ["ReportUnavailable", true])
      yield* sim.setMode("unavailable")
      const down = errorOf(yield* Effect.exit(patient.fetch(period)))
      assert.deepStrictEqual([down?._tag, down?.provider, down?.reason.startsWith("upstream_unavailable")], ["ReportUnavailable", "mercadopago", true])
      const wrongCurrency = yield* MpReports.make({ id: "mercadopago", baseUrl: sim.baseUrl, accessToken: Redacted.make(Mp.accessToken), accountCurrency: "MXN" })
      yield* sim.setMode("ok")
      const mismatch = errorOf(yield* Effect.exit(wrongCurrency.fetch(period)))
      assert.isTrue(mismatch?.reason.startsWith("currency_mismatch"))
    }).pipe(Effect.provide(Mp.Live)))

  it("the connector names its format and setting; a JSON-string download is unwrapped, a CSV kept", () => {
    const s = settings("mercadopago", "http://127.0.0.1:1", { ACCESS_TOKEN: "x", WEBHOOK_SECRET: "y" }, { ACCOUNT_CURRENCY: "mxn" })
    assert.deepStrictEqual(MercadoPagoProvider.connector.reportFormats!(s).map((f) => f.name), ["release-report-csv"])
    assert.include(MercadoPagoProvider.connector.settings!, "ACCOUNT_CURRENCY")
    assert.strictEqual(MpReports.accountCurrencyOf(s), "MXN")
    assert.strictEqual(MpReports.unwrapJsonText("application/json", JSON.stringify("A,B\n1,2\n")), "A,B\n1,2\n")
    assert.strictEqual(MpReports.unwrapJsonText("text/csv", "\"A\",\"B\"\n"), "\"A\",\"B\"\n")
    assert.strictEqual(MpReports.unwrapJsonText("application/json", "\"A\",\"B\"\n"), "\"A\",\"B\"\n")
  })
})

describe("Pagar.me payables through GET /payables", () => {
  const history = Effect.gen(function*() {
    const { provider, sim } = yield* Pg.setup()
    sim.reports.setFeeRule({ percent: "1.19", flat: "0" })
    const refs: Array<string> = []
    for (const [n, amount] of [[1, "100.00"], [2, "250.50"], [3, "80.00"]] as const) {
      const accepted = yield* provider.charge({ ...Pg.chargeRequestFor(provider)(`TXN-PGR-${n}`), amount: Money.decimal(amount) })
      yield* sim.complete(accepted.providerRef)
      refs.push(accepted.providerRef)
    }
    yield* provider.refund({
      transactionId: "TXN-PGR-1",
      providerRef: refs[0]!,
      refundId: "TXN-PGR-1-R1",
      idempotencyKey: "TXN-PGR-1-R1:pagarme",
      amount: Money.decimal("40.00"),
      currency: "BRL"
    })
    yield* sim.setStatus(refs[2]!, "chargedback")
    const source = yield* PagarmeProvider.connector.reportSource!(settings("pagarme", sim.baseUrl, { SECRET_KEY: Pg.secretKey }))
    return { sim, refs, source, period: yield* aroundNow }
  }).pipe(Effect.provide(Pg.Live))

  it.live("the fetched payables parse to what was done: credits, the refund paid, the chargeback, fees per the rule", () =>
    Effect.gen(function*() {
      const { period, refs, sim, source } = yield* history
      const lines = parsed(source, yield* source.fetch(period)).map(brief)
      const expected = [
        { kind: "payment", providerRef: refs[0]!, reference: null, normalized: "captured", amount: "100", fee: "1.19", currency: "BRL" },
        { kind: "payment", providerRef: refs[1]!, reference: null, normalized: "captured", amount: "250.5", fee: "2.98", currency: "BRL" },
        { kind: "payment", providerRef: refs[2]!, reference: null, normalized: "captured", amount: "80", fee: "0.95", currency: "BRL" },
        { kind: "refund", providerRef: refs[0]!, reference: null, normalized: "refunded", amount: "40", fee: "0", currency: "BRL" },
        { kind: "chargeback", providerRef: refs[2]!, reference: null, normalized: "charged_back", amount: "80", fee: "0", currency: "BRL" }
      ]
      const byRef = (a: { providerRef: string | null; kind: string }, b: { providerRef: string | null; kind: string }) =>
        `${a.kind}${a.providerRef}`.localeCompare(`${b.kind}${b.providerRef}`)
      assert.deepStrictEqual([...lines].sort(byRef), [...expected].sort(byRef) as ReadonlyArray<unknown>)
      assert.isTrue(sim.requests.filter((r) => r.path === "/payables").every((r) => r.authorized))
    }))

  it.live("pages through forward cursors; each injected fault appears", () =>
    Effect.gen(function*() {
      const { period, refs, sim } = yield* history
      const refundId = sim.charges.get(refs[0]!)!.transactions.find((t) => t.kind === "refund")!.id
      sim.reports.setFaults({ unknownCaptures: 2, duplicatedRefunds: [refundId], changedFees: { [refs[1]!]: "9.99" } })
      const source = yield* PagarmeReportSource.make({ id: "pagarme", baseUrl: sim.baseUrl, secretKey: Redacted.make(Pg.secretKey), pageSize: 2 })
      const lines = parsed(source, yield* source.fetch(period)).map(brief)
      assert.strictEqual(lines.length, 8)
      assert.strictEqual(sim.requests.filter((r) => r.path === "/payables").length, 4)
      const unknown = lines.filter((l) => l.kind === "payment" && !refs.includes(l.providerRef!))
      assert.deepStrictEqual(unknown.map((l) => l.amount), ["11.9", "12.9"])
      assert.strictEqual(lines.filter((l) => l.kind === "refund" && l.providerRef === refs[0]).length, 2)
      assert.strictEqual(lines.find((l) => l.kind === "payment" && l.providerRef === refs[1])!.fee, "9.99")
    }).pipe(Effect.provide(Pg.Live)))

  it.live("the payables API failing is ReportUnavailable, not a defect", () =>
    Effect.gen(function*() {
      const { period, sim, source } = yield* history
      yield* sim.setMode("unavailable")
      const down = errorOf(yield* Effect.exit(source.fetch(period)))
      assert.deepStrictEqual([down?._tag, down?.provider, down?.reason.startsWith("upstream_unavailable")], ["ReportUnavailable", "pagarme", true])
    }))
})

describe("Pagar.me payables format", () => {
  const fixture = readFileSync(new URL("./fixtures/pagarme/report-payables.json", import.meta.url), "utf8")

  it("reads the documented payable fields (https://docs.pagar.me/reference/recebíveis)", () => {
    const result = pagarmePayablesReport.parse(fixture)
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual(result.success.map((l) => ({ ...brief(l), line: l.line, status: l.status, at: l.occurredAt && DateTime.formatIso(l.occurredAt) })), [
      { line: 1, kind: "payment", providerRef: "ch_pXy4Dbp1t0T6Zq8N", reference: null, status: "waiting_funds", normalized: "captured", amount: "100", fee: "5", currency: "BRL", at: "2020-09-23T21:02:29.860Z" },
      { line: 2, kind: "refund", providerRef: "ch_pXy4Dbp1t0T6Zq8N", reference: null, status: "paid", normalized: "refunded", amount: "40", fee: "0", currency: "BRL", at: "2020-09-30T12:00:00.000Z" },
      { line: 3, kind: "payment", providerRef: "ch_Q2w3E4r5T6y7U8i9", reference: null, status: "paid", normalized: "settled", amount: "25.5", fee: "1.65", currency: "BRL", at: "2020-10-25T15:30:00.000Z" },
      { line: 4, kind: "chargeback", providerRef: "ch_Q2w3E4r5T6y7U8i9", reference: null, status: "paid", normalized: "charged_back", amount: "25.5", fee: "0", currency: "BRL", at: "2020-11-02T10:00:00.000Z" }
    ])
  })

  it("refuses a malformed file whole, naming the item (1-based) and the field", () => {
    const refusal = (input: string) => {
      const result = pagarmePayablesReport.parse(input)
      return Result.isSuccess(result) ? "accepted" : [result.failure.line, result.failure.column]
    }
    const doc = JSON.parse(fixture) as { data: Array<Record<string, unknown>> }
    const edit = (n: number, field: string, value: unknown) =>
      JSON.stringify({ ...doc, data: doc.data.map((item, i) => (i === n - 1 ? { ...item, [field]: value } : item)) })
    assert.deepStrictEqual(refusal(edit(2, "amount", 40.5)), [2, "amount"])
    assert.deepStrictEqual(refusal(edit(3, "amount", "2550")), [3, "amount"])
    assert.deepStrictEqual(refusal(edit(4, "type", "transfer")), [4, "type"])
    assert.deepStrictEqual(refusal(edit(1, "status", "unknown")), [1, "status"])
    assert.deepStrictEqual(refusal(edit(3, "created_at", "2020-02-30T10:00:00Z")), [3, "created_at"])
    assert.deepStrictEqual(refusal(edit(1, "id", null)), [1, "id"])
    assert.deepStrictEqual(refusal(edit(2, "fee", 1.5)), [2, "fee"])
    assert.deepStrictEqual(refusal("{\"data\": [ {\"id\": 1"), [0, ""])
    assert.deepStrictEqual(refusal("{\"paging\": {}}"), [0, "data"])
    assert.deepStrictEqual(refusal("[1]"), [1, ""])
    assert.strictEqual(refusal("{\"data\": []}"), "accepted")
  })
})
