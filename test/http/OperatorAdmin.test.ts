/**
 * The operator's lists on every store: merchants with their shops (paged), every shop's payouts
 * stuck in processing, open chargebacks and waiting withdrawals, and routing health per provider
 * and rail. Bad filters are 400 invalid_request naming the field; unknown fields are refused; the
 * admin token is required.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { adminToken, call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const spei = { name: "Ana María López", documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719", email: "ana@example.com" }
const destination = { accountHolder: "Tienda Sol SA de CV", bankName: "BBVA México", accountNumber: "0321 8000 0118 3597 19", swiftCode: "bcmrmxmm" }
const admin = (path: string) => call("GET", path, { bearer: adminToken })
/** The part of a refusal's error envelope this test reads. */
const Refusal = Schema.Struct({ error: Schema.Struct({ code: Schema.String, details: Schema.Record(Schema.String, Schema.Unknown) }) })
const refused = (reply: { status: number; body: unknown }, field: string) => {
  assert.strictEqual(reply.status, 400, JSON.stringify(reply.body))
  const { error } = Schema.decodeUnknownSync(Refusal)(reply.body)
  assert.strictEqual(error.code, "invalid_request")
  assert.include(JSON.stringify(error.details), field)
}

for (const target of storeTargets("operator-admin")) {
  describe(`operator lists on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("merchants newest first with their shops, paged; the admin token is required", () =>
        Effect.gen(function*() {
          const older = yield* createMerchant({ name: "Older", shops: [{ name: "Uno" }, { name: "Dos" }] })
          const newer = yield* createMerchant({ name: "Newer" })
          const page = yield* admin("/admin/v1/merchants?limit=1")
          assert.strictEqual(page.status, 200)
          assert.strictEqual(page.body.pagination.limit, 1)
          assert.isAtLeast(page.body.pagination.total, 2)
          assert.deepInclude(page.body.data[0], { id: newer.merchant.id, name: "Newer", email: "ops@acme.test", tier: "starter" })
          assert.deepStrictEqual(page.body.data[0].shops, newer.shops)
          const all = (yield* admin("/admin/v1/merchants?limit=500")).body
          assert.strictEqual(all.pagination.limit, 100, "limit clamped")
          const found = all.data.find((m: { id: string }) => m.id === older.merchant.id)
          assert.deepStrictEqual(found.shops.map((s: { name: string }) => s.name), ["Uno", "Dos"])
          const second = (yield* admin("/admin/v1/merchants?limit=1&offset=1")).body
          assert.notStrictEqual(second.data[0].id, newer.merchant.id)

          assert.strictEqual((yield* call("GET", "/admin/v1/merchants", { bearer: newer.keys.sandbox.secretKey })).status, 401)
          refused(yield* admin("/admin/v1/merchants?limit=abc"), "limit")
          refused(yield* admin("/admin/v1/merchants?colour=blue"), "colour")
        }))

      it.effect("payouts stuck in processing, open chargebacks and waiting withdrawals across shops", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          const shopId = m.shops[0]!.id
          const payout = yield* call("POST", "/api/v1/me/payout/send", { bearer: sk, body: { methodId: "sbx_po_mx_spei", amount: 100, recipient: spei } })
          assert.strictEqual(payout.status, 201, JSON.stringify(payout.body))
          const stuck = (yield* admin("/admin/v1/payouts?status=processing&olderThanMinutes=0&environment=sandbox&limit=100")).body
          assert.deepInclude(stuck.data.find((p: { id: string }) => p.id === payout.body.payout.id), { status: "processing", shopId, environment: "sandbox" })
          const recent = (yield* admin("/admin/v1/payouts?status=processing&olderThanMinutes=60&environment=sandbox&limit=100")).body
          assert.isUndefined(recent.data.find((p: { id: string }) => p.id === payout.body.payout.id), "not past its window yet")
          assert.strictEqual((yield* admin("/admin/v1/payouts?environment=production&status=processing&olderThanMinutes=0&limit=100")).body.data
            .filter((p: { shopId: string }) => p.shopId === shopId).length, 0)
          refused(yield* admin("/admin/v1/payouts?olderThanMinutes=-1"), "olderThanMinutes")
          refused(yield* admin("/admin/v1/payouts?status=stuck"), "status")

          const payment = yield* call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "chargeback" }, body: { amount: 100, paymentMethodId: "sbx_card" } })
          yield* eventually(call("GET", `/api/v1/payments/${payment.body.transactionId}`, { bearer: sk }), (r) => r.body.status === "chargeback")
          const open = (yield* admin("/admin/v1/claims?kind=chargeback&status=open&environment=sandbox&limit=100")).body
          const claim = open.data.find((c: { transactionId: string }) => c.transactionId === payment.body.transactionId)
          assert.deepInclude(claim, { kind: "chargeback", status: "open", shopId, environment: "sandbox" })
          assert.strictEqual((yield* call("POST", `/admin/v1/claims/${claim.id}/resolve`, { bearer: adminToken, body: { outcome: "won" } })).status, 200)
          const after = (yield* admin("/admin/v1/claims?kind=chargeback&status=open&environment=sandbox&limit=100")).body
          assert.isUndefined(after.data.find((c: { id: string }) => c.id === claim.id), "resolved: no longer open")
          const won = (yield* admin("/admin/v1/claims?kind=chargeback&status=won&limit=100")).body
          assert.isDefined(won.data.find((c: { id: string }) => c.id === claim.id))
          refused(yield* admin("/admin/v1/claims?kind=dispute"), "kind")

          yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 100 } })
          const withdrawal = yield* call("POST", "/api/v1/me/withdrawals", { bearer: sk, body: { amount: 20, destination } })
          assert.strictEqual(withdrawal.status, 201, JSON.stringify(withdrawal.body))
          const waiting = (yield* admin("/admin/v1/withdrawals?status=processing&environment=sandbox&limit=100")).body
          assert.deepInclude(waiting.data.find((w: { id: string }) => w.id === withdrawal.body.withdrawal.id), { status: "processing", shopId })
          refused(yield* admin("/admin/v1/withdrawals?status=waiting"), "status")
        }))

      it.effect("routing health per provider and rail: circuit, attempts, conversion and latency per hour", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          for (let i = 0; i < 3; i++) {
            assert.strictEqual((yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10 + i, paymentMethodId: "sbx_card" } })).status, 201)
          }
          const health = yield* eventually(admin("/admin/v1/providers/health?environment=sandbox&hours=3"), (r) =>
            (r.body.rails ?? []).some((rail: { providerId: string; attempts: number }) => rail.providerId === "sandbox" && rail.attempts >= 3))
          assert.strictEqual(health.status, 200)
          assert.deepInclude(health.body, { environment: "sandbox", hours: 3 })
          const rail = health.body.rails.find((r: { providerId: string }) => r.providerId === "sandbox")
          assert.strictEqual(rail.circuit.state, "closed")
          assert.strictEqual(rail.hours.length, 3)
          const now = rail.hours[2]
          assert.isAtLeast(now.attempts, 3)
          assert.isNotNull(now.p50LatencyMs)
          assert.isAtLeast(now.p95LatencyMs, now.p50LatencyMs)
          assert.isTrue(Date.parse(rail.hours[1].hour) - Date.parse(rail.hours[0].hour) === 3_600_000)
          assert.deepStrictEqual((yield* admin("/admin/v1/providers/health?environment=production")).body.rails, [])
          refused(yield* admin("/admin/v1/providers/health?environment=sandbox&hours=0"), "hours")
          refused(yield* admin("/admin/v1/providers/health?environment=sandbox&hours=1.5"), "hours")
          refused(yield* admin("/admin/v1/providers/health"), "environment")
        }))
    })
  })
}
