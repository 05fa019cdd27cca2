/**
 * Credentials covering several shops (spec 1.8): a payment created for shop B with `shopId` is
 * readable, refundable and listed under `shopId=B`; naming a shop the credential does not cover is
 * a 404, never another shop's data. Requests go through the typed client (TypedApi.ts).
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { createMerchant, eventually, testHost } from "../support/Host.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

/** With the raw response beside the decoded answer, for its status. */
const withResponse = { responseMode: "decoded-and-response" } as const

describe("credentials covering several shops", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a payment of shop B is readable, refundable and listed under shopId=B", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant({ shops: [{ name: "Shop A" }, { name: "Shop B" }] })
        const api = yield* apiAs(m.keys.sandbox.secretKey)
        const [a, b] = m.shops
        // A managed inbox registered with the merchant-wide credential (it is managed from shop A).
        const [hook, hookReply] = yield* api.webhooks.create({ payload: { events: ["payment.completed"] }, headers: {}, ...withResponse })
        assert.strictEqual(hookReply.status, 201, JSON.stringify(hook))
        const [created, createdReply] = yield* api.payments.create({
          payload: { amount: Money.decimal("50"), paymentMethodId: "sbx_pix", shopId: b!.id },
          headers: { "sandbox-simulate": "paid" },
          ...withResponse
        })
        assert.strictEqual(createdReply.status, 201, JSON.stringify(created))
        const id = created.transactionId
        const [read, readReply] = yield* eventually(api.payments.get({ params: { id }, ...withResponse }), ([p]) => p.status === "completed")
        assert.strictEqual(readReply.status, 200, JSON.stringify(read))

        const listB = yield* api.payments.list({ query: { shopId: b!.id } })
        assert.deepStrictEqual(listB.data.map((p) => p.id), [id])
        const listA = yield* api.payments.list({ query: { shopId: a!.id } })
        assert.strictEqual(listA.pagination.total, 0)
        const other = yield* createMerchant()
        const foreign = yield* refused(api.payments.list({ query: { shopId: other.shops[0]!.id } }))
        assert.strictEqual(httpStatus[foreign.code], 404)

        const [refund, refundReply] = yield* api.claims.refund({ params: { id }, payload: { amount: Money.decimal("10") }, headers: {}, ...withResponse })
        assert.strictEqual(refundReply.status, 201, JSON.stringify(refund))
        // Its events say which merchant and shop they are about.
        const events = yield* (yield* OutboxStore).list("sandbox", b!.id)
        assert.isAbove(events.length, 0)
        for (const e of events) assert.deepInclude(e.data as object, { merchantId: m.merchant.id, shopId: b!.id })
        // The webhook receives shop B's events too.
        const inbox = yield* eventually(api.webhooks.inbox({ params: { id: hook.id }, query: {} }), (r) => JSON.stringify(r).includes(id))
        assert.include(JSON.stringify(inbox), id)
        // Another merchant's credential still cannot see it.
        const stranger = yield* apiAs(other.keys.sandbox.secretKey)
        assert.strictEqual(httpStatus[(yield* refused(stranger.payments.get({ params: { id } }))).code], 404)
      }))
  })
})
