/**
 * Credentials covering several shops (spec 1.8): a payment created for shop B with `shopId` is
 * readable, refundable and listed under `shopId=B`; naming a shop the credential does not cover is
 * a 404, never another shop's data.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { call, createMerchant, eventually, testHost } from "../support/Host.ts"


describe("credentials covering several shops", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a payment of shop B is readable, refundable and listed under shopId=B", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant({ shops: [{ name: "Shop A" }, { name: "Shop B" }] })
        const sk = m.keys.sandbox.secretKey
        const [a, b] = m.shops
        // A managed inbox registered with the merchant-wide credential (it is managed from shop A).
        const hook = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { events: ["payment.completed"] } })
        assert.strictEqual(hook.status, 201, JSON.stringify(hook.body))
        const created = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          headers: { "sandbox-simulate": "paid" },
          body: { amount: 50, paymentMethodId: "sbx_pix", shopId: b!.id }
        })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const id = created.body.transactionId
        const read = yield* eventually(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body.status === "completed")
        assert.strictEqual(read.status, 200, JSON.stringify(read.body))

        const listB = yield* call("GET", `/api/v1/payments?shopId=${b!.id}`, { bearer: sk })
        assert.deepStrictEqual(listB.body.data.map((p: { id: string }) => p.id), [id])
        const listA = yield* call("GET", `/api/v1/payments?shopId=${a!.id}`, { bearer: sk })
        assert.strictEqual(listA.body.pagination.total, 0)
        const other = yield* createMerchant()
        const foreign = yield* call("GET", `/api/v1/payments?shopId=${other.shops[0]!.id}`, { bearer: sk })
        assert.strictEqual(foreign.status, 404)

        const refund = yield* call("POST", `/api/v1/payments/${id}/refund`, { bearer: sk, body: { amount: 10 } })
        assert.strictEqual(refund.status, 201, JSON.stringify(refund.body))
        // Its events say which merchant and shop they are about.
        const events = yield* (yield* OutboxStore).list("sandbox", b!.id)
        assert.isAbove(events.length, 0)
        for (const e of events) assert.deepInclude(e.data as object, { merchantId: m.merchant.id, shopId: b!.id })
        // The webhook receives shop B's events too.
        const inbox = yield* eventually(
          call("GET", `/api/v1/webhooks/${hook.body.id}/inbox`, { bearer: sk }),
          (r) => JSON.stringify(r.body).includes(id)
        )
        assert.include(JSON.stringify(inbox.body), id)
        // Another merchant's credential still cannot see it.
        assert.strictEqual((yield* call("GET", `/api/v1/payments/${id}`, { bearer: other.keys.sandbox.secretKey })).status, 404)
      }))
  })
})
