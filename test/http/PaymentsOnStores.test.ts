/**
 * Pay-ins on every store (memory, PGlite, PostgreSQL when `DATABASE_URL` is set), through the
 * typed client: concurrent requests with one `Idempotency-Key` create one payment, a key answers
 * what it stored even when its request would now fail, and the balance after a batch of payments
 * is the sum of their net amounts and reserves to the cent.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import * as Money from "../../core/Money.ts"
import { adminToken, call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"
import { apiAs, refused, withResponse } from "../support/TypedApi.ts"

const d = Money.decimal

/** Reads a payment until it leaves `pending`, running the host's due work between reads. */
const settled = (bearer: string, id: string) =>
  Effect.flatMap(apiAs(bearer), (api) => eventually(api.payments.get({ params: { id } }), (p) => p.status !== "pending"))

const sandboxMerchant = Effect.map(createMerchant(), (m) => ({ ...m, sk: m.keys.sandbox.secretKey }))

for (const target of storeTargets("payins")) {
  describe(`pay-ins on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("50 concurrent requests with one Idempotency-Key create one payment and all answer it", () =>
        Effect.gen(function*() {
          const { sk } = yield* sandboxMerchant
          const api = yield* apiAs(sk)
          const body = { amount: d("33.33"), paymentMethodId: "sbx_pix", merchantOrderId: "idem-1" }
          const replies = yield* Effect.all(
            Array.from({ length: 50 }, () => api.payments.create({ payload: body, headers: { "idempotency-key": "key-1" }, ...withResponse })),
            { concurrency: "unbounded" }
          )
          assert.isTrue(replies.every(([, r]) => r.status === 201), JSON.stringify(replies.map(([, r]) => r.status)))
          assert.strictEqual(new Set(replies.map(([p]) => p.transactionId)).size, 1)
          assert.isTrue(replies.every(([p]) => JSON.stringify(p) === JSON.stringify(replies[0]![0])))
          // Every answer but the execution's own is a replay, and says so.
          assert.strictEqual(replies.filter(([, r]) => r.headers["idempotent-replayed"] === "true").length, 49)
          const list = yield* api.payments.list({ query: { merchantOrderId: "idem-1" } })
          assert.strictEqual(list.pagination.total, 1)

          const reused = yield* refused(api.payments.create({ payload: { ...body, amount: d("34") }, headers: { "idempotency-key": "key-1" } }))
          assert.strictEqual(httpStatus[reused.code], 409)
          assert.strictEqual(reused.code, "idempotency_key_reused")

          // Errors are not stored: after a failed attempt the same key executes again.
          const failed = yield* refused(api.payments.create({ payload: { amount: d("10"), paymentMethodId: "9999" }, headers: { "idempotency-key": "key-2" } }))
          assert.strictEqual(httpStatus[failed.code], 422)
          const [, retried] = yield* api.payments.create({ payload: { amount: d("10"), paymentMethodId: "sbx_pix" }, headers: { "idempotency-key": "key-2" }, ...withResponse })
          assert.strictEqual(retried.status, 201)
          assert.strictEqual(retried.headers["idempotent-replayed"], undefined)

          // A key is 1 to 255 characters (raw: the typed client does not send a key out of bounds).
          for (const key of ["", "k".repeat(256)]) {
            const refusal = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { ...body, amount: 33.33 }, headers: { "idempotency-key": key } })
            assert.strictEqual(refusal.status, 400, key)
            assert.strictEqual(refusal.body.error.code, "invalid_request")
          }
          const [, longest] = yield* api.payments.create({ payload: { ...body, merchantOrderId: "idem-255" }, headers: { "idempotency-key": "k".repeat(255) }, ...withResponse })
          assert.strictEqual(longest.status, 201)
        }))

      it.effect("a key answers what it stored even when its request would now fail before any payment is written", () =>
        Effect.gen(function*() {
          const merchant = yield* createMerchant()
          const api = yield* apiAs(merchant.keys.sandbox.secretKey)
          const admin = yield* apiAs(adminToken)
          const body = { amount: d("12.5"), paymentMethodId: "sbx_pix", merchantOrderId: "replay-after-change" }
          const pay = (key: string, payload: typeof body = body) => api.payments.create({ payload, headers: { "idempotency-key": key }, ...withResponse })
          const sandboxRoute = (enabled: boolean) =>
            admin.admin.putRoute({ params: { shopId: merchant.shops[0]!.id, providerId: "sandbox" }, payload: { environment: "sandbox", priority: 1, enabled }, ...withResponse })
          const [first, firstReply] = yield* pay("replay-1")
          assert.strictEqual(firstReply.status, 201)
          // The shop loses its only provider: a new request fails before it writes anything.
          const [, disabled] = yield* sandboxRoute(false)
          assert.strictEqual(disabled.status, 200)
          const fresh = yield* refused(pay("replay-2"))
          assert.strictEqual(fresh.code, "cascade_exhausted")
          // The key's retry still answers the payment it created, as a replay.
          const [replay, replayReply] = yield* pay("replay-1")
          assert.strictEqual(replayReply.status, 201)
          assert.strictEqual(replayReply.headers["idempotent-replayed"], "true")
          assert.deepStrictEqual(replay, first)
          // The same key with another request is refused as a reuse, not answered with that request's error.
          const reused = yield* refused(pay("replay-1", { ...body, amount: d("13") }))
          assert.strictEqual(httpStatus[reused.code], 409)
          assert.strictEqual(reused.code, "idempotency_key_reused")
          // The failed key stored nothing: once the shop has its provider again, it executes.
          yield* sandboxRoute(true)
          const [, retried] = yield* pay("replay-2")
          assert.strictEqual(retried.status, 201)
          assert.strictEqual(retried.headers["idempotent-replayed"], undefined)
          const list = yield* api.payments.list({ query: { merchantOrderId: "replay-after-change" } })
          assert.strictEqual(list.pagination.total, 2)
        }))

      it.effect("equals, to the cent, the sum of the net amounts and reserves", () =>
        Effect.gen(function*() {
          const { sk } = yield* sandboxMerchant
          const api = yield* apiAs(sk)
          const amounts = ["10", "19.99", "123.45", "7.77", "250"]
          const created = yield* Effect.all(amounts.map((amount) =>
            api.payments.create({ payload: { amount: d(amount), paymentMethodId: "sbx_pix" }, headers: { "sandbox-simulate": "paid" }, ...withResponse })
          ), { concurrency: 5 })
          assert.isTrue(created.every(([, r]) => r.status === 201))
          for (const [p] of created) assert.strictEqual((yield* settled(sk, p.transactionId)).status, "completed")
          let net = Money.zero
          let reserve = Money.zero
          let fees = Money.zero
          for (const [p] of created) {
            net = BigDecimal.sum(net, BigDecimal.subtract(BigDecimal.subtract(d(String(p.amount)), d(String(p.fees.total))), d(String(p.settlement.reserve))))
            reserve = BigDecimal.sum(reserve, d(String(p.settlement.reserve)))
            fees = BigDecimal.sum(fees, d(String(p.fees.total)))
          }
          const [balance, reply] = yield* api.identity.balance({ query: {}, ...withResponse })
          assert.strictEqual(reply.status, 200)
          assert.strictEqual(balance.balance.pending, Money.toJsonNumber(net))
          assert.strictEqual(balance.balance.reserve, Money.toJsonNumber(reserve))
          assert.strictEqual(balance.balance.available, 0)
          assert.strictEqual(balance.feeSummary.grossVolume, Money.toJsonNumber(amounts.map((a) => d(a)).reduce(BigDecimal.sum)))
          assert.strictEqual(balance.feeSummary.totalFees, Money.toJsonNumber(fees))
          assert.strictEqual(balance.feeSummary.netBalance, Money.toJsonNumber(BigDecimal.sum(net, reserve)))
          assert.strictEqual(balance.movements.length, amounts.length)
          assert.isTrue(balance.movements.every((m) => m.type === "payment.completed"))
        }))
    })
  })
}
