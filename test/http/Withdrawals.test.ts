/**
 * Withdrawals of the USD pay-in balance as a merchant and the operator call them: the fee on top,
 * funds held while processing, completion and failure (funds and fee returned), every refusal,
 * and racing withdrawals that never overdraw, on every store.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { adminToken, call, createMerchant, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const destination = { accountHolder: "Tienda Sol SA de CV", bankName: "BBVA México", accountNumber: "0321 8000 0118 3597 19", swiftCode: "bcmrmxmm" }

for (const target of storeTargets("withdrawals")) {
  describe(`withdrawals on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("fee on top, held while processing, completed or failed (funds and fee back), operator resolve, refusals", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant() // starter tier: withdrawalFeeUsd 5
          const sk = m.keys.sandbox.secretKey
          const shopId = m.shops[0]!.id
          yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 100 } })
          const available = () => Effect.map(call("GET", "/api/v1/me/balance", { bearer: sk }), (r) => r.body.balance.available)
          const withdraw = (amount: number, headers: Record<string, string> = {}, dest: unknown = destination) =>
            call("POST", "/api/v1/me/withdrawals", { bearer: sk, body: { amount, destination: dest }, headers })

          const first = yield* withdraw(50, { "idempotency-key": "w-1" })
          assert.strictEqual(first.status, 201, JSON.stringify(first.body))
          assert.match(first.body.withdrawal.id, /^wdr_/)
          assert.deepInclude(first.body.withdrawal, { currency: "USD", amount: 50, fee: 5, totalDebited: 55, status: "processing", completedAt: null, failureReason: null })
          assert.deepStrictEqual(first.body.withdrawal.destination, { accountHolder: "Tienda Sol SA de CV", bankName: "BBVA México", accountNumber: "****9719", swiftCode: "BCMRMXMM" })
          assert.deepStrictEqual((yield* withdraw(50, { "idempotency-key": "w-1" })).body, first.body)
          assert.strictEqual(yield* available(), 45)

          const refused = (reply: { status: number; body: any }, status: number, code: string) => {
            assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
            assert.strictEqual(reply.body.error.code, code)
          }
          refused(yield* withdraw(9.99), 422, "amount_invalid")
          refused(yield* withdraw(10.001), 422, "amount_invalid")
          const badDest = yield* withdraw(10, {}, { accountHolder: " ", bankName: "BBVA", accountNumber: "12", swiftCode: "XX" })
          refused(badDest, 400, "invalid_request")
          assert.deepStrictEqual(badDest.body.error.details.issues.map((i: { path: string }) => i.path), [
            "destination.accountHolder",
            "destination.accountNumber",
            "destination.swiftCode"
          ])
          refused(yield* withdraw(10, {}, { bankName: "BBVA" }), 400, "invalid_request")
          const short = yield* withdraw(41)
          refused(short, 422, "balance_insufficient")
          assert.deepStrictEqual(short.body.error.details, { currency: "USD", requested: 46, available: 45, shortfall: 1, fee: 5 })

          const simulate = (id: string, action: string, bearer = sk) => call("POST", `/api/v1/me/withdrawals/${id}/simulate`, { bearer, body: { action } })
          const done = yield* simulate(first.body.withdrawal.id, "completed")
          assert.deepInclude(done.body.withdrawal, { status: "completed", failureReason: null })
          assert.isString(done.body.withdrawal.completedAt)
          refused(yield* simulate(first.body.withdrawal.id, "failed"), 400, "invalid_request")
          assert.strictEqual(yield* available(), 45)

          const second = (yield* withdraw(20)).body.withdrawal
          assert.strictEqual(yield* available(), 20)
          assert.deepInclude((yield* simulate(second.id, "processing")).body.withdrawal, { status: "processing" })
          const failed = (yield* simulate(second.id, "returned")).body.withdrawal
          assert.deepInclude(failed, { status: "failed", failureReason: "simulated: returned", completedAt: null })
          assert.strictEqual(yield* available(), 45)

          const third = (yield* withdraw(10)).body.withdrawal
          assert.strictEqual(yield* available(), 30)
          const resolve = (id: string, body: unknown) => call("POST", `/admin/v1/withdrawals/${id}/resolve`, { bearer: adminToken, body })
          refused(yield* call("POST", `/admin/v1/withdrawals/${third.id}/resolve`, { bearer: sk, body: { status: "completed" } }), 401, "invalid_api_key")
          assert.strictEqual((yield* resolve(third.id, { status: "completed" })).body.withdrawal.status, "completed")
          refused(yield* resolve(third.id, { status: "failed", failureReason: "late" }), 400, "invalid_request")
          refused(yield* resolve("wdr_missing", { status: "completed" }), 404, "not_found")
          refused(yield* simulate("wdr_missing", "completed"), 404, "not_found")
          refused(yield* simulate(third.id, "completed", m.keys.production.secretKey), 400, "simulate_sandbox_only")
          refused(yield* call("GET", `/api/v1/me/withdrawals/${third.id}`, { bearer: m.keys.production.secretKey }), 404, "not_found")

          const list = (yield* call("GET", "/api/v1/me/withdrawals", { bearer: sk })).body
          assert.deepStrictEqual(list.data.map((w: { status: string }) => w.status), ["completed", "failed", "completed"])
          assert.strictEqual((yield* call("GET", "/api/v1/me/withdrawals?status=failed", { bearer: sk })).body.pagination.total, 1)
          assert.deepStrictEqual((yield* call("GET", `/api/v1/me/withdrawals/${failed.id}`, { bearer: sk })).body.withdrawal, failed)

          const events = (yield* (yield* OutboxStore).list("sandbox", shopId)).filter((e) => e.type.startsWith("withdrawal."))
          assert.deepStrictEqual(events.map((e) => e.type), ["withdrawal.completed", "withdrawal.failed", "withdrawal.completed"])
          // Two completed withdrawals: 60 USD sent out and 10 USD of fees; the failed one left nothing behind.
          const ledger = yield* LedgerStore
          assert.strictEqual(BigDecimal.format(yield* ledger.balance("sandbox", shopId, "external", "USD")), "60")
          assert.strictEqual(BigDecimal.format(yield* ledger.balance("sandbox", shopId, "fees_withdrawal", "USD")), "10")
          assert.isTrue(BigDecimal.isZero(yield* ledger.balance("sandbox", shopId, "withdrawals_in_flight", "USD")))
          const sums = yield* ledger.postingSums("sandbox", shopId)
          assert.isTrue(BigDecimal.isZero(sums.filter((s) => s.currency === "USD").map((s) => s.balance).reduce(BigDecimal.sum)))
        }))

      it.effect("20 racing withdrawals never overdraw the balance", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 100 } })
          const replies = yield* Effect.forEach(
            Array.from({ length: 20 }, (_, i) => i),
            () => call("POST", "/api/v1/me/withdrawals", { bearer: sk, body: { amount: 10, destination } }),
            { concurrency: 20 }
          )
          assert.strictEqual(replies.filter((r) => r.status === 201).length, 6) // 6 × (10 + 5) = 90
          assert.isTrue(replies.every((r) => r.status === 201 || r.body.error.code === "balance_insufficient"))
          assert.strictEqual((yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body.balance.available, 10)
        }))
    })
  })
}
