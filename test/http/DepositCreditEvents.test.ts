/**
 * `payment.captured` is the sandbox simulator's alias of `payment.completed` (spec 6): a bank
 * transfer credited to a deposit account fires `payment.completed` and `deposit.credited`, never
 * `payment.captured`; a payment the sandbox provider completes still fires both.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { call, createMerchant, eventually, testHost } from "../support/Host.ts"

describe("events of a deposit credit", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a deposit credit: payment.completed and deposit.credited, no payment.captured; a sandbox card payment: completed and captured", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const events = (relatedId: string) =>
          Effect.map(call("GET", `/api/v1/events?relatedId=${encodeURIComponent(relatedId)}`, { bearer: sk }), (r) =>
            (r.body.data as ReadonlyArray<{ type: string }>).map((e) => e.type).sort())

        const account = (yield* call("POST", "/api/v1/me/deposit-accounts", {
          bearer: sk,
          body: { endUserRef: "u-1", name: "María López", email: "maria@example.com" }
        })).body.account
        const credited = yield* call("POST", `/api/v1/me/deposit-accounts/${account.id}/simulate-deposit`, {
          bearer: sk,
          body: { amount: 1850, payerName: "Juan Pérez", trackingKey: "MBAN01002411220001" }
        })
        assert.strictEqual(credited.status, 201)
        const transactionId = credited.body.deposit.transactionId
        assert.deepStrictEqual(yield* events(transactionId), ["deposit.credited", "payment.completed"])

        const card = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          headers: { "sandbox-simulate": "paid" },
          body: { amount: 100, paymentMethodId: "sbx_card", userName: "Ana Souza", userEmail: "ana@example.com" }
        })
        assert.strictEqual(card.status, 201)
        yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 1 } })
        const paid = yield* eventually(events(card.body.transactionId), (t) => t.includes("payment.completed"))
        assert.deepStrictEqual(paid, ["payment.captured", "payment.completed"])
      }))
  })
})
