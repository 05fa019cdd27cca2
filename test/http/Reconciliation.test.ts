/**
 * Reconciliation from outside: payments and refunds through the host's real dLocal and
 * Mercado Pago connectors against their simulators, then the providers' own reports of what they
 * did, with faults injected at the provider (captures the engine never heard about, a refund paid
 * twice, a fee changed), uploaded by the operator (dLocal: its settlement CSV) or fetched by a run
 * (Mercado Pago: its release report API). Each injected fault is found as its kind and no false
 * one; the same report twice changes nothing; a malformed upload is refused whole with its line
 * and column.
 *
 * `RECONCILIATION_PAYMENTS` sets the history's size (default 1000 payments, 1146 report
 * lines, about 9 s; `RECONCILIATION_PAYMENTS=2500 npx vitest run test/http/Reconciliation.test.ts`:
 * 2863 lines in about 25 s).
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Context, DateTime, Effect, Layer, Redacted } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { findMethod } from "../../core/catalog/methods.ts"
import { credentials } from "../../providers/dlocal/ConformanceHarness.ts"
import { DLocalProvider } from "../../providers/dlocal/DLocalProvider.ts"
import { DLocalSimulator } from "../../providers/dlocal/DLocalSimulator.ts"
import { MercadoPagoProvider } from "../../providers/mercadopago/MercadoPagoProvider.ts"
import { MercadoPagoSimulator } from "../../providers/mercadopago/MercadoPagoSimulator.ts"
import * as Money from "../../core/Money.ts"
import { adminToken, baseUrl, connectorInstance, createMerchant, eventually, testHost } from "../support/Host.ts"
import { narrative } from "../support/Narrative.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

const size = Number(process.env["RECONCILIATION_PAYMENTS"] ?? "1000")

class Sims extends Context.Service<Sims, { readonly dlocal: DLocalSimulator; readonly mercadopago: MercadoPagoSimulator }>()("test/ReconciliationSims") {}

const mp = { ACCESS_TOKEN: "TEST-1111-reconciliation-token", WEBHOOK_SECRET: "mp-reconciliation-secret" }

const HostWithProviders = Layer.unwrap(Effect.gen(function*() {
  const dlocal = yield* DLocalSimulator.start(credentials)
  const mercadopago = yield* MercadoPagoSimulator.start({ accessToken: mp.ACCESS_TOKEN, webhookSecret: mp.WEBHOOK_SECRET })
  const connectors = [
    connectorInstance(DLocalProvider.connector, { id: "dlocal", environment: "sandbox", baseUrl: dlocal.baseUrl }, {
      LOGIN: credentials.login,
      TRANS_KEY: credentials.transKey,
      SECRET_KEY: credentials.secretKey
    }),
    connectorInstance(MercadoPagoProvider.connector, { id: "mercadopago", environment: "sandbox", baseUrl: mercadopago.baseUrl }, mp)
  ]
  return Layer.merge(testHost(MemoryStore.layer, { connectors }), Layer.succeed(Sims, { dlocal, mercadopago }))
}))

const admin = apiAs(adminToken)

/** Uploads a file as the operator does (`curl --data-binary @file`): its text as sent, `text/csv`. */
const upload = (file: string) =>
  Effect.flatMap(admin, (api) =>
    api.reconciliationAdmin.upload({
      query: { environment: "sandbox", provider: "dlocal", format: "settlement-cross-border-csv" },
      payload: file,
      responseMode: "decoded-and-response"
    }))

/** A shop routed to `provider` only, and its secret key. */
const shopOn = (provider: string) =>
  Effect.gen(function*() {
    const merchant = yield* createMerchant()
    const shopId = merchant.shops[0]!.id
    for (const [id, priority, enabled] of [[provider, 1, true], ["sandbox", 2, false]] as const) {
      const [, routed] = yield* (yield* admin).admin.putRoute({ params: { shopId, providerId: id }, payload: { environment: "sandbox", priority, enabled }, responseMode: "decoded-and-response" })
      assert.strictEqual(routed.status, 200)
    }
    return merchant.keys.sandbox.secretKey
  })

/** `n` PIX payments completed at the provider (`complete`), every seventh refunded in full. */
const history = (sk: string, n: number, chargeOf: (transactionId: string) => string, complete: (charge: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const api = yield* apiAs(sk)
    const created = yield* Effect.forEach(Array.from({ length: n }, (_, i) => i), (i) =>
      Effect.map(api.payments.create({
        payload: { amount: Money.decimal(String(20 + (i % 97))), paymentMethodId: "1001", userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com"), documentId: Redacted.make("52998224725") },
        headers: {},
        responseMode: "decoded-and-response"
      }), ([payment, response]) => {
        assert.strictEqual(response.status, 201)
        return payment.transactionId
      }), { concurrency: 8 })
    yield* Effect.forEach(created, (id) => complete(chargeOf(id)), { concurrency: 8 })
    const statusOf = (id: string) => api.payments.get({ params: { id } })
    const payments = yield* Effect.forEach(created, (id) => eventually(statusOf(id), (p) => p.status === "completed"), { concurrency: 8 })
    assert.isTrue(payments.every((p) => p.status === "completed"))
    const refunded = created.filter((_, i) => i % 7 === 3)
    const refundIds = yield* Effect.forEach(refunded, (id) =>
      Effect.map(api.claims.refund({ params: { id }, payload: {}, headers: {}, responseMode: "decoded-and-response" }), ([refund, response]) => {
        assert.include([200, 201], response.status)
        return refund.refundId
      }), { concurrency: 8 })
    const refunds = yield* Effect.forEach(refundIds, (id) =>
      eventually(api.claims.get({ params: { id } }), (c) => c.status === "approved"), { concurrency: 8 })
    assert.isTrue(refunds.every((r) => r.status === "approved"), "every refund paid")
    return { payments, refunds }
  })

/** The rail's contract fee: percent of the USD amount plus a flat USD amount. */
const pixFee = findMethod("1001")!.fee

const discrepancies = (reportId: string) =>
  Effect.flatMap(admin, (api) => Effect.map(api.reconciliationAdmin.listDiscrepancies({ query: { environment: "sandbox", reportId, limit: 100 } }), (r) => r.data))

describe("reconciliation from outside", () => {
  layer(HostWithProviders, { timeout: 240_000, excludeTestServices: true })((it) => {
    it.effect(`dLocal: ${size} payments and their refunds, the settlement report with faults uploaded: each fault found, no false one`, () =>
      narrative((step) => Effect.gen(function*() {
        yield* step("payments and refunds through the dLocal connector")
        const { dlocal } = yield* Sims
        const sk = yield* shopOn("dlocal")
        yield* dlocal.setCallbackTarget(`${yield* baseUrl}/api/v1/providers/dlocal/callbacks`)
        const start = DateTime.subtract(yield* DateTime.now, { seconds: 1 })
        const chargeOf = (id: string) => [...dlocal.charges.values()].find((c) => c.orderId === id)!.id
        const { payments, refunds } = yield* history(sk, size, chargeOf, dlocal.complete)
        const period = { start, end: DateTime.add(yield* DateTime.now, { seconds: 1 }) }
        // dLocal's contract: the rail's fee, on the local amount converted at the payment's own rate.
        const rate = BigDecimal.divideUnsafe(BigDecimal.fromNumberUnsafe(payments[0]!.amountLocal), BigDecimal.fromNumberUnsafe(payments[0]!.amount))
        dlocal.reports.setFeeRule({ percent: pixFee.percent, flat: pixFee.flat, localPerUsd: BigDecimal.format(rate) })

        yield* step("the clean settlement report: every line matched")
        const clean = dlocal.reports.report(period)
        const [cleanUpload, cleanResponse] = yield* upload(clean)
        assert.strictEqual(cleanResponse.status, 200)
        assert.deepStrictEqual(cleanUpload.counts.discrepancies, {}, "the provider's honest report agrees with the engine")
        assert.strictEqual(cleanUpload.counts.matched, size + refunds.length)

        yield* step("the report with faults: each discrepancy found once")
        const refundPaidTwice = refunds[1]!.providerRef!
        const feeChanged = chargeOf(payments[5]!.id)
        const faulty = dlocal.reports.report(period, { unknownCaptures: 2, duplicatedRefunds: [refundPaidTwice], changedFees: { [feeChanged]: "9.99" } })
        const [imported, importedResponse] = yield* upload(faulty)
        assert.strictEqual(importedResponse.status, 200)
        assert.isTrue(imported.imported)
        assert.strictEqual(imported.counts.lines, size + refunds.length + 3)
        assert.deepStrictEqual(imported.counts.discrepancies, { unknown_to_engine: 2, duplicate: 1, fee_differs: 1 })
        const found = yield* discrepancies(imported.id)
        const byKind = (kind: string) => found.filter((d) => d.kind === kind)
        assert.strictEqual(byKind("fee_differs")[0]!.engineSide!.id, payments[5]!.id)
        assert.strictEqual(byKind("fee_differs")[0]!.providerSide!.fee, "9.99")
        assert.strictEqual(byKind("duplicate")[0]!.providerSide!.providerRef, refundPaidTwice)
        assert.deepStrictEqual(byKind("unknown_to_engine").map((d) => d.engineSide), [null, null])

        yield* step("the clearing explained per currency")
        // The clearing explained, per currency: the engine's side = the provider's + pending + discrepancies.
        for (const c of imported.clearing.byCurrency) {
          const sum = [c.providerReported, c.pendingAtProvider, c.discrepancies].map((x) => BigDecimal.fromStringUnsafe(x))
          assert.strictEqual(BigDecimal.format(BigDecimal.normalize(BigDecimal.sumAll(sum))), c.engineExpects, c.currency)
        }

        yield* step("the same file again imports nothing new")
        // The same file again: the same report, nothing new.
        const [again, againResponse] = yield* upload(faulty)
        assert.deepStrictEqual([againResponse.status, again.id, again.imported], [200, imported.id, false])
        const api = yield* admin
        const all = yield* api.reconciliationAdmin.listDiscrepancies({ query: { environment: "sandbox", provider: "dlocal", status: "open" } })
        assert.strictEqual(all.pagination.total, 4)

        yield* step("a malformed file refused whole, naming its line and column")
        // A malformed file is refused whole, naming the line and the column.
        const broken = faulty.split("\n").map((l, i) => i === 10 ? l.replace(/,BRL,/, ",BRLX,") : l).join("\n")
        const malformed = yield* refused(upload(broken))
        assert.strictEqual(httpStatus[malformed.code], 400)
        assert.strictEqual(malformed.code, "report_malformed")
        assert.deepStrictEqual([malformed.details["line"], malformed.details["column"]], [11, "LOCAL_CURRENCY"])
        const reports = yield* api.reconciliationAdmin.listReports({ query: { environment: "sandbox", provider: "dlocal" } })
        assert.strictEqual(reports.pagination.total, 2, "nothing of the malformed file was imported")

        yield* step("a discrepancy resolved once, with a note and a write-off")
        // Resolving: a note, a write-off on the fee, once.
        const fee = byKind("fee_differs")[0]!
        const resolve = (payload: Parameters<typeof api.reconciliationAdmin.resolve>[0]["payload"]) =>
          api.reconciliationAdmin.resolve({ params: { id: fee.id }, query: { environment: "sandbox" }, payload, responseMode: "decoded-and-response" })
        const [resolved, resolvedResponse] = yield* resolve({
          note: "dLocal applied last month's tariff; credit note requested",
          resolvedBy: "finance@platform.test",
          writeOffUsd: 9.5
        })
        assert.strictEqual(resolvedResponse.status, 200)
        assert.strictEqual(resolved.status, "resolved")
        assert.match(resolved.resolution?.adjustmentEntryId ?? "", /^jnl_/)
        const twice = yield* refused(resolve({ note: "again", resolvedBy: "x" }))
        assert.deepStrictEqual([httpStatus[twice.code], twice.code], [409, "discrepancy_resolved"])
      })))

    it.effect("Mercado Pago: the run fetches the release report through its reports API; a second run changes nothing", () =>
      Effect.gen(function*() {
        const { mercadopago } = yield* Sims
        const sk = yield* shopOn("mercadopago")
        yield* mercadopago.setCallbackTarget(`${yield* baseUrl}/api/v1/providers/mercadopago/callbacks`)
        const start = DateTime.subtract(yield* DateTime.now, { seconds: 1 })
        const chargeOf = (id: string) => [...mercadopago.charges.values()].find((c) => c.reference === id)!.id
        const { payments } = yield* history(sk, 30, chargeOf, mercadopago.complete)
        const end = DateTime.add(yield* DateTime.now, { seconds: 1 })
        // Mercado Pago reports fees in the account's currency: the rail's fee at the payment's rate.
        const rate = BigDecimal.divideUnsafe(BigDecimal.fromNumberUnsafe(payments[0]!.amountLocal), BigDecimal.fromNumberUnsafe(payments[0]!.amount))
        mercadopago.reports.setFeeRule({ percent: pixFee.percent, flat: BigDecimal.format(BigDecimal.multiply(BigDecimal.fromStringUnsafe(pixFee.flat), rate)) })
        const api = yield* admin
        const runFor = (provider: string) =>
          api.reconciliationAdmin.run({ query: { environment: "sandbox" }, payload: { provider, periodStart: start, periodEnd: end }, responseMode: "decoded-and-response" })
        const [run, runResponse] = yield* runFor("mercadopago")
        assert.strictEqual(runResponse.status, 200)
        assert.deepInclude(run, { source: "fetch", format: "release-report-csv", imported: true })
        assert.deepStrictEqual(run.counts.discrepancies, {})
        const [again] = yield* runFor("mercadopago")
        assert.deepStrictEqual([again.id, again.imported], [run.id, false])
        const noApi = yield* refused(runFor("dlocal"))
        assert.deepStrictEqual([httpStatus[noApi.code], noApi.code], [422, "report_source_unavailable"])
      }))
  })
})
