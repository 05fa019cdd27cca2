/**
 * Reconciliation from outside (issue 30): payments and refunds through the host's real dLocal and
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
import { BigDecimal, Context, DateTime, Effect, Layer } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { findMethod } from "../../core/catalog/methods.ts"
import { credentials } from "../../providers/dlocal/ConformanceHarness.ts"
import { DLocalProvider } from "../../providers/dlocal/DLocalProvider.ts"
import { DLocalSimulator } from "../../providers/dlocal/DLocalSimulator.ts"
import { MercadoPagoProvider } from "../../providers/mercadopago/MercadoPagoProvider.ts"
import { MercadoPagoSimulator } from "../../providers/mercadopago/MercadoPagoSimulator.ts"
import { adminToken, baseUrl, call, connectorInstance, createMerchant, eventually, testHost } from "../support/Host.ts"

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

const admin = (method: "GET" | "POST", path: string, body?: unknown) => call(method, path, { bearer: adminToken, ...(body === undefined ? {} : { body }) })

/** Uploads a file as the operator does (`curl --data-binary @file`). */
const upload = (query: string, file: string) =>
  Effect.gen(function*() {
    const url = `${yield* baseUrl}/admin/v1/reconciliation/reports?${query}`
    const response = yield* Effect.promise(async () => {
      const r = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "text/csv" },
        body: file
      })
      return { status: r.status, body: await r.json() }
    })
    return response as { status: number; body: any }
  })

/** A shop routed to `provider` only, and its secret key. */
const shopOn = (provider: string) =>
  Effect.gen(function*() {
    const merchant = yield* createMerchant()
    const shopId = merchant.shops[0]!.id
    for (const [id, priority, enabled] of [[provider, 1, true], ["sandbox", 2, false]] as const) {
      const routed = yield* call("PUT", `/admin/v1/shops/${shopId}/routes/${id}`, { bearer: adminToken, body: { environment: "sandbox", priority, enabled } })
      assert.strictEqual(routed.status, 200)
    }
    return merchant.keys.sandbox.secretKey
  })

/** `n` PIX payments completed at the provider (`complete`), every seventh refunded in full. */
const history = (sk: string, n: number, chargeOf: (transactionId: string) => string, complete: (charge: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const created = yield* Effect.forEach(Array.from({ length: n }, (_, i) => i), (i) =>
      Effect.map(call("POST", "/api/v1/payments", {
        bearer: sk,
        body: { amount: 20 + (i % 97), paymentMethodId: "1001", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }
      }), (r) => {
        assert.strictEqual(r.status, 201, JSON.stringify(r.body))
        return r.body.transactionId as string
      }), { concurrency: 8 })
    yield* Effect.forEach(created, (id) => complete(chargeOf(id)), { concurrency: 8 })
    const statusOf = (id: string) => Effect.map(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body)
    const payments = yield* Effect.forEach(created, (id) => eventually(statusOf(id), (p) => p.status === "completed"), { concurrency: 8 })
    assert.isTrue(payments.every((p) => p.status === "completed"))
    const refunded = created.filter((_, i) => i % 7 === 3)
    const refundIds = yield* Effect.forEach(refunded, (id) =>
      Effect.map(call("POST", `/api/v1/payments/${id}/refund`, { bearer: sk }), (r) => {
        assert.include([200, 201], r.status, JSON.stringify(r.body))
        return r.body.refundId as string
      }), { concurrency: 8 })
    const refunds = yield* Effect.forEach(refundIds, (id) =>
      eventually(Effect.map(call("GET", `/api/v1/claims/${id}`, { bearer: sk }), (r) => r.body), (c) => c.status === "approved"), { concurrency: 8 })
    assert.isTrue(refunds.every((r) => r.status === "approved"), "every refund paid")
    return { payments, refunds }
  })

/** The rail's contract fee: percent of the USD amount plus a flat USD amount. */
const pixFee = findMethod("1001")!.fee

const discrepancies = (reportId: string) =>
  Effect.map(admin("GET", `/admin/v1/reconciliation/discrepancies?environment=sandbox&reportId=${reportId}&limit=100`), (r) => r.body.data as Array<any>)

describe("reconciliation from outside", () => {
  layer(HostWithProviders, { timeout: 240_000, excludeTestServices: true })((it) => {
    it.effect(`dLocal: ${size} payments and their refunds, the settlement report with faults uploaded: each fault found, no false one`, () =>
      Effect.gen(function*() {
        const { dlocal } = yield* Sims
        const sk = yield* shopOn("dlocal")
        yield* dlocal.setCallbackTarget(`${yield* baseUrl}/api/v1/providers/dlocal/callbacks`)
        const start = DateTime.subtract(yield* DateTime.now, { seconds: 1 })
        const chargeOf = (id: string) => [...dlocal.charges.values()].find((c) => c.orderId === id)!.id
        const { payments, refunds } = yield* history(sk, size, chargeOf, dlocal.complete)
        const period = { start, end: DateTime.add(yield* DateTime.now, { seconds: 1 }) }
        // dLocal's contract: the rail's fee, on the local amount converted at the payment's own rate.
        const rate = BigDecimal.divideUnsafe(BigDecimal.fromNumberUnsafe(payments[0].amountLocal), BigDecimal.fromNumberUnsafe(payments[0].amount))
        dlocal.reports.setFeeRule({ percent: pixFee.percent, flat: pixFee.flat, localPerUsd: BigDecimal.format(rate) })

        const clean = dlocal.reports.report(period)
        const cleanUpload = yield* upload("environment=sandbox&provider=dlocal&format=settlement-cross-border-csv", clean)
        assert.strictEqual(cleanUpload.status, 200, JSON.stringify(cleanUpload.body))
        assert.deepStrictEqual(cleanUpload.body.counts.discrepancies, {}, "the provider's honest report agrees with the engine")
        assert.strictEqual(cleanUpload.body.counts.matched, size + refunds.length)

        const refundPaidTwice = refunds[1].providerRef as string
        const feeChanged = chargeOf((payments[5].id ?? payments[5].transactionId))
        const faulty = dlocal.reports.report(period, { unknownCaptures: 2, duplicatedRefunds: [refundPaidTwice], changedFees: { [feeChanged]: "9.99" } })
        const imported = yield* upload("environment=sandbox&provider=dlocal&format=settlement-cross-border-csv", faulty)
        assert.strictEqual(imported.status, 200, JSON.stringify(imported.body))
        assert.isTrue(imported.body.imported)
        assert.strictEqual(imported.body.counts.lines, size + refunds.length + 3)
        assert.deepStrictEqual(imported.body.counts.discrepancies, { unknown_to_engine: 2, duplicate: 1, fee_differs: 1 })
        const found = yield* discrepancies(imported.body.id)
        const byKind = (kind: string) => found.filter((d) => d.kind === kind)
        assert.strictEqual(byKind("fee_differs")[0].engineSide.id, (payments[5].id ?? payments[5].transactionId))
        assert.strictEqual(byKind("fee_differs")[0].providerSide.fee, "9.99")
        assert.strictEqual(byKind("duplicate")[0].providerSide.providerRef, refundPaidTwice)
        assert.deepStrictEqual(byKind("unknown_to_engine").map((d) => d.engineSide), [null, null])

        // The clearing explained, per currency: the engine's side = the provider's + pending + discrepancies.
        for (const c of imported.body.clearing.byCurrency) {
          const sum = [c.providerReported, c.pendingAtProvider, c.discrepancies].map((x: string) => BigDecimal.fromStringUnsafe(x))
          assert.strictEqual(BigDecimal.format(BigDecimal.normalize(BigDecimal.sumAll(sum))), c.engineExpects, c.currency)
        }

        // The same file again: the same report, nothing new.
        const again = yield* upload("environment=sandbox&provider=dlocal&format=settlement-cross-border-csv", faulty)
        assert.deepStrictEqual([again.status, again.body.id, again.body.imported], [200, imported.body.id, false])
        const all = yield* admin("GET", "/admin/v1/reconciliation/discrepancies?environment=sandbox&provider=dlocal&status=open")
        assert.strictEqual(all.body.pagination.total, 4)

        // A malformed file is refused whole, naming the line and the column.
        const broken = faulty.split("\n").map((l, i) => i === 10 ? l.replace(/,BRL,/, ",BRLX,") : l).join("\n")
        const refused = yield* upload("environment=sandbox&provider=dlocal&format=settlement-cross-border-csv", broken)
        assert.strictEqual(refused.status, 400)
        assert.strictEqual(refused.body.error.code, "report_malformed")
        assert.deepStrictEqual([refused.body.error.details.line, refused.body.error.details.column], [11, "LOCAL_CURRENCY"])
        const reports = yield* admin("GET", "/admin/v1/reconciliation/reports?environment=sandbox&provider=dlocal")
        assert.strictEqual(reports.body.pagination.total, 2, "nothing of the malformed file was imported")

        // Resolving: a note, a write-off on the fee, once.
        const fee = byKind("fee_differs")[0]
        const resolved = yield* admin("POST", `/admin/v1/reconciliation/discrepancies/${fee.id}/resolve?environment=sandbox`, {
          note: "dLocal applied last month's tariff; credit note requested",
          resolvedBy: "finance@platform.test",
          writeOffUsd: 9.5
        })
        assert.strictEqual(resolved.status, 200, JSON.stringify(resolved.body))
        assert.strictEqual(resolved.body.status, "resolved")
        assert.match(resolved.body.resolution.adjustmentEntryId, /^jnl_/)
        const twice = yield* admin("POST", `/admin/v1/reconciliation/discrepancies/${fee.id}/resolve?environment=sandbox`, { note: "again", resolvedBy: "x" })
        assert.deepStrictEqual([twice.status, twice.body.error.code], [409, "discrepancy_resolved"])
      }))

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
        const rate = BigDecimal.divideUnsafe(BigDecimal.fromNumberUnsafe(payments[0].amountLocal), BigDecimal.fromNumberUnsafe(payments[0].amount))
        mercadopago.reports.setFeeRule({ percent: pixFee.percent, flat: BigDecimal.format(BigDecimal.multiply(BigDecimal.fromStringUnsafe(pixFee.flat), rate)) })
        const body = { provider: "mercadopago", periodStart: DateTime.formatIso(start), periodEnd: DateTime.formatIso(end) }
        const run = yield* admin("POST", "/admin/v1/reconciliation/runs?environment=sandbox", body)
        assert.strictEqual(run.status, 200, JSON.stringify(run.body))
        assert.deepInclude(run.body, { source: "fetch", format: "release-report-csv", imported: true })
        assert.deepStrictEqual(run.body.counts.discrepancies, {})
        const again = yield* admin("POST", "/admin/v1/reconciliation/runs?environment=sandbox", body)
        assert.deepStrictEqual([again.body.id, again.body.imported], [run.body.id, false])
        const noApi = yield* admin("POST", "/admin/v1/reconciliation/runs?environment=sandbox", { ...body, provider: "dlocal" })
        assert.deepStrictEqual([noApi.status, noApi.body.error.code], [422, "report_source_unavailable"])
      }))
  })
})
