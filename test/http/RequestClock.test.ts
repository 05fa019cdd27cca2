/**
 * A sandbox request runs on the clock of the shop it acts on, however the shop was chosen: named
 * in the body, named in the query, or the shop of the record the path names (a merchant-wide key
 * acting on a payment of its second shop). The shop is resolved once, by the handler that knows
 * which one the request acts on.
 */
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { createMerchant, eventually, testHost } from "../support/Host.ts"
import { apiAs } from "../support/TypedApi.ts"

const day = 86_400
const d = (n: number) => Money.decimal(String(n))
/** How far ahead of the real clock an ISO time of the answer is, in whole days. */
const daysAhead = (iso: string) => Math.round((DateTime.toEpochMillis(DateTime.makeUnsafe(iso)) - Date.now()) / (day * 1000))

describe("request clock", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a merchant-wide key acting on its second shop's payment refunds it on that shop's clock", () =>
      Effect.gen(function*() {
        const multi = yield* createMerchant({ shops: [{ name: "North" }, { name: "South" }] })
        const [north, south] = [multi.shops[0]!.id, multi.shops[1]!.id]
        const api = yield* apiAs(multi.keys.sandbox.secretKey)
        const moved = yield* api.sandbox.advance({ payload: { seconds: 10 * day, shopId: south }, headers: {} })
        assert.strictEqual(moved.offsetSeconds, 10 * day)

        // Named in the body: the payment is South's, on South's clock.
        const created = yield* api.payments.create({
          payload: { amount: d(100), paymentMethodId: "sbx_pix", shopId: south },
          headers: { "sandbox-simulate": "paid" }
        })
        const paid = yield* eventually(api.payments.get({ params: { id: created.transactionId } }), (p) => p.status === "completed")
        assert.strictEqual(paid.status, "completed")
        assert.strictEqual(daysAhead(paid.timestamps.created), 10)

        // Named by the path only: the refund acts on South's payment, so on South's clock, not on
        // the clock of North (the key's default shop).
        const refund = yield* api.claims.refund({ params: { id: created.transactionId }, payload: { amount: d(10) }, headers: {} })
        assert.strictEqual(daysAhead(refund.createdAt), 10)

        // North's clock did not move.
        const northClock = yield* api.sandbox.clock({ query: { shopId: north } })
        assert.strictEqual(northClock.offsetSeconds, 0)
      }))
  })
})
