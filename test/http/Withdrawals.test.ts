/**
 * Withdrawals of the USD pay-in balance as a merchant and the operator call them: the fee on top,
 * funds held while processing, completion and failure (funds and fee returned), every refusal,
 * and racing withdrawals that never overdraw, on every store. Requests go through the typed client
 * (TypedApi.ts); `call` stays for destinations it would not send and a merchant key on the admin route.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect, Schema } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { ApiError } from "../../core/ApiError.ts"
import * as Money from "../../core/Money.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import type { PayoutAction } from "../../core/payouts/Payout.ts"
import { adminToken, call, createMerchant, testHost } from "../support/Host.ts"
import { narrative } from "../support/Narrative.ts"
import { storeTargets } from "../support/Stores.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

/** The code of a refusal's error envelope, read from an answer the typed client does not decode. */
const RefusalCode = Schema.Struct({ error: Schema.Struct({ code: Schema.String }) })

const d = Money.decimal

const destination = { accountHolder: "Tienda Sol SA de CV", bankName: "BBVA México", accountNumber: "0321 8000 0118 3597 19", swiftCode: "bcmrmxmm" }

/** With the raw response beside the decoded answer, for its status. */
const withResponse = { responseMode: "decoded-and-response" } as const

/** The refusal has the status and code expected. */
const expectRefusal = (refusal: ApiError, status: number, code: string) => {
  assert.strictEqual(httpStatus[refusal.code], status, JSON.stringify(refusal))
  assert.strictEqual(refusal.code, code)
}

for (const target of storeTargets("withdrawals")) {
  describe(`withdrawals on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("fee on top, held while processing, completed or failed (funds and fee back), operator resolve, refusals", () =>
        narrative((step) => Effect.gen(function*() {
          yield* step("a funded sandbox merchant on the starter tier")
          const m = yield* createMerchant() // starter tier: withdrawalFeeUsd 5
          const sk = m.keys.sandbox.secretKey
          const shopId = m.shops[0]!.id
          const api = yield* apiAs(sk)
          const admin = yield* apiAs(adminToken)
          const live = yield* apiAs(m.keys.production.secretKey)
          yield* api.identity.fundSandbox({ payload: { currency: "USD", amount: d("100") } })
          const available = () => Effect.map(api.identity.balance({ query: {} }), (r) => r.balance.available)
          const withdraw = (amount: string, headers: { readonly "idempotency-key"?: string } = {}) =>
            api.withdrawals.create({ payload: { amount: d(amount), destination }, headers, ...withResponse })
          // Raw: destinations the typed client would not send.
          const withdrawRaw = (dest: unknown) => call("POST", "/api/v1/me/withdrawals", { bearer: sk, body: { amount: 10, destination: dest } })

          yield* step("a first withdrawal of 50 with its fee on top, replayed by its key")
          const [first, firstReply] = yield* withdraw("50", { "idempotency-key": "w-1" })
          assert.strictEqual(firstReply.status, 201, JSON.stringify(first))
          assert.match(first.withdrawal.id, /^wdr_/)
          assert.deepInclude(first.withdrawal, { currency: "USD", amount: 50, fee: 5, totalDebited: 55, status: "processing", completedAt: null, failureReason: null })
          assert.deepStrictEqual(first.withdrawal.destination, { accountHolder: "Tienda Sol SA de CV", bankName: "BBVA México", accountNumber: "****9719", swiftCode: "BCMRMXMM" })
          assert.deepStrictEqual((yield* withdraw("50", { "idempotency-key": "w-1" }))[0], first)
          assert.strictEqual(yield* available(), 45)

          yield* step("refusals: amounts, destinations, the balance with its fee")
          const rawRefused = (reply: { status: number; body: unknown }, status: number, code: string) => {
            assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
            assert.strictEqual(Schema.decodeUnknownSync(RefusalCode)(reply.body).error.code, code)
          }
          expectRefusal(yield* refused(withdraw("9.99")), 422, "amount_invalid")
          expectRefusal(yield* refused(withdraw("10.001")), 422, "amount_invalid")
          const badDest = yield* withdrawRaw({ accountHolder: " ", bankName: "BBVA", accountNumber: "12", swiftCode: "XX" })
          rawRefused(badDest, 400, "invalid_request")
          assert.deepStrictEqual(badDest.body.error.details.issues.map((i: { path: string }) => i.path), [
            "destination.accountHolder",
            "destination.accountNumber",
            "destination.swiftCode"
          ])
          rawRefused(yield* withdrawRaw({ bankName: "BBVA" }), 400, "invalid_request")
          const short = yield* refused(withdraw("41"))
          expectRefusal(short, 422, "balance_insufficient")
          assert.deepStrictEqual(short.details, { currency: "USD", requested: 46, available: 45, shortfall: 1, fee: 5 })

          yield* step("the first withdrawal completed, then no longer failable")
          const simulate = (id: string, action: PayoutAction, as = api) => Effect.map(as.withdrawals.simulate({ params: { id }, payload: { action } }), (r) => r.withdrawal)
          const done = yield* simulate(first.withdrawal.id, "completed")
          assert.deepInclude(done, { status: "completed", failureReason: null })
          assert.isString(done.completedAt)
          expectRefusal(yield* refused(simulate(first.withdrawal.id, "failed")), 400, "invalid_request")
          assert.strictEqual(yield* available(), 45)

          yield* step("a second withdrawal returned: its amount and fee back")
          const second = (yield* withdraw("20"))[0].withdrawal
          assert.strictEqual(yield* available(), 20)
          assert.deepInclude(yield* simulate(second.id, "processing"), { status: "processing" })
          const failed = yield* simulate(second.id, "returned")
          assert.deepInclude(failed, { status: "failed", failureReason: "simulated: returned", completedAt: null })
          assert.strictEqual(yield* available(), 45)

          yield* step("a third resolved by the operator, and the refusals of resolve and simulate")
          const third = (yield* withdraw("10"))[0].withdrawal
          assert.strictEqual(yield* available(), 30)
          const resolve = (id: string, payload: { readonly status: "completed" | "failed"; readonly failureReason?: string }) =>
            Effect.map(admin.withdrawalAdmin.resolve({ params: { id }, payload }), (r) => r.withdrawal)
          // Raw: the admin route called with a merchant's key.
          rawRefused(yield* call("POST", `/admin/v1/withdrawals/${third.id}/resolve`, { bearer: sk, body: { status: "completed" } }), 401, "invalid_api_key")
          assert.strictEqual((yield* resolve(third.id, { status: "completed" })).status, "completed")
          expectRefusal(yield* refused(resolve(third.id, { status: "failed", failureReason: "late" })), 400, "invalid_request")
          expectRefusal(yield* refused(resolve("wdr_missing", { status: "completed" })), 404, "not_found")
          expectRefusal(yield* refused(simulate("wdr_missing", "completed")), 404, "not_found")
          expectRefusal(yield* refused(simulate(third.id, "completed", live)), 400, "simulate_sandbox_only")
          expectRefusal(yield* refused(live.withdrawals.get({ params: { id: third.id } })), 404, "not_found")

          yield* step("the list, its filter and a read")
          const list = yield* api.withdrawals.list({ query: {} })
          assert.deepStrictEqual(list.data.map((w) => w.status), ["completed", "failed", "completed"])
          assert.strictEqual((yield* api.withdrawals.list({ query: { status: "failed" } })).pagination.total, 1)
          assert.deepStrictEqual((yield* api.withdrawals.get({ params: { id: failed.id } })).withdrawal, failed)

          yield* step("one event per outcome, and the books: sent, fees, nothing in flight, balanced")
          const events = (yield* (yield* OutboxStore).list("sandbox", shopId)).filter((e) => e.type.startsWith("withdrawal."))
          assert.deepStrictEqual(events.map((e) => e.type), ["withdrawal.completed", "withdrawal.failed", "withdrawal.completed"])
          // Two completed withdrawals: 60 USD sent out and 10 USD of fees; the failed one left nothing behind.
          const ledger = yield* LedgerStore
          assert.strictEqual(BigDecimal.format(yield* ledger.balance("sandbox", shopId, "external", "USD")), "60")
          assert.strictEqual(BigDecimal.format(yield* ledger.balance("sandbox", shopId, "fees_withdrawal", "USD")), "10")
          assert.isTrue(BigDecimal.isZero(yield* ledger.balance("sandbox", shopId, "withdrawals_in_flight", "USD")))
          const sums = yield* ledger.postingSums("sandbox", shopId)
          assert.isTrue(BigDecimal.isZero(sums.filter((s) => s.currency === "USD").map((s) => s.balance).reduce(BigDecimal.sum)))
        })))

      it.effect("20 racing withdrawals never overdraw the balance", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const api = yield* apiAs(m.keys.sandbox.secretKey)
          yield* api.identity.fundSandbox({ payload: { currency: "USD", amount: d("100") } })
          const replies = yield* Effect.forEach(
            Array.from({ length: 20 }, (_, i) => i),
            () =>
              api.withdrawals.create({ payload: { amount: d("10"), destination }, headers: {}, ...withResponse }).pipe(
                Effect.catchTag("ApiError", (e) => Effect.succeed(e))
              ),
            { concurrency: 20 }
          )
          assert.strictEqual(replies.filter((r) => !(r instanceof ApiError) && r[1].status === 201).length, 6) // 6 × (10 + 5) = 90
          assert.isTrue(replies.every((r) => r instanceof ApiError ? r.code === "balance_insufficient" : r[1].status === 201))
          assert.strictEqual((yield* api.identity.balance({ query: {} })).balance.available, 10)
        }))
    })
  })
}
