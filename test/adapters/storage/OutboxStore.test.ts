/**
 * The outbox's event list on every store: a shop's events newest first, filtered by type and by
 * the object they are about, paged with the total; one event by id within its environment; an
 * event appended in a transaction that rolled back is never listed.
 */
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import { type OutboxEvent, OutboxStore } from "../../../core/ports/OutboxStore.ts"
import { Transactions } from "../../../core/ports/Transactions.ts"
import { newShop, storeTargets } from "../../support/Stores.ts"

const t0 = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
let seq = 0
const uid = (prefix: string) => `${prefix}${(++seq).toString().padStart(4, "0")}_${Math.random().toString(36).slice(2, 8)}`

const shop = Effect.map(newShop, (s) => s.shopId)

const event = (shopId: string, second: number, type: string, relatedId: string | null, environment: OutboxEvent["environment"] = "sandbox"): OutboxEvent => {
  const id = uid("evt_")
  return { id, environment, shopId, type, data: { id, type }, relatedTxId: relatedId, relatedId, createdAt: DateTime.add(t0, { seconds: second }) }
}

for (const target of storeTargets("outbox")) {
  describe(`OutboxStore on ${target.name}`, () => {
    layer(target.layer(), { timeout: 60_000 })((it) => {
      it.effect("pages a shop's events newest first, by type and by related object, with the total", () =>
        Effect.gen(function*() {
          const outbox = yield* OutboxStore
          const shopId = yield* shop
          const other = yield* shop
          const e1 = event(shopId, 1, "payment.completed", "TXN-A")
          const e2 = event(shopId, 2, "payment.refunded", "TXN-A")
          const e3 = event(shopId, 3, "payout.completed", "po-1")
          const e4 = event(shopId, 4, "payment.completed", "TXN-B")
          for (const e of [e1, e2, e3, e4, event(other, 5, "payment.completed", "TXN-A"), event(shopId, 6, "payment.completed", "TXN-A", "production")]) {
            yield* outbox.append(e)
          }
          const ids = (page: { readonly rows: ReadonlyArray<OutboxEvent> }) => page.rows.map((e) => e.id)
          const all = yield* outbox.page("sandbox", shopId, {}, { limit: 10, offset: 0 })
          assert.deepStrictEqual(ids(all), [e4.id, e3.id, e2.id, e1.id])
          assert.strictEqual(all.total, 4)
          const second = yield* outbox.page("sandbox", shopId, {}, { limit: 2, offset: 2 })
          assert.deepStrictEqual([ids(second), second.total], [[e2.id, e1.id], 4])
          const completed = yield* outbox.page("sandbox", shopId, { types: ["payment.completed", "payout.completed"] }, { limit: 10, offset: 0 })
          assert.deepStrictEqual(ids(completed), [e4.id, e3.id, e1.id])
          const aboutA = yield* outbox.page("sandbox", shopId, { relatedId: "TXN-A" }, { limit: 1, offset: 0 })
          assert.deepStrictEqual([ids(aboutA), aboutA.total], [[e2.id], 2])
          const both = yield* outbox.page("sandbox", shopId, { relatedId: "TXN-A", types: ["payment.completed"] }, { limit: 10, offset: 0 })
          assert.deepStrictEqual(ids(both), [e1.id])
          assert.deepStrictEqual(yield* outbox.page("sandbox", shopId, { relatedId: "nothing" }, { limit: 10, offset: 0 }), { rows: [], total: 0 })

          const found = yield* outbox.find("sandbox", e3.id)
          assert.deepStrictEqual(Option.map(found, (e) => [e.id, e.shopId, e.type, e.relatedId, e.data]), Option.some([e3.id, shopId, "payout.completed", "po-1", { id: e3.id, type: "payout.completed" }]))
          assert.isTrue(Option.isNone(yield* outbox.find("production", e3.id)), "another environment's id is not found")
        }))

      it.effect("an event appended in a transaction that rolled back is never listed", () =>
        Effect.gen(function*() {
          const outbox = yield* OutboxStore
          const tx = yield* Transactions
          const shopId = yield* shop
          const kept = event(shopId, 1, "payment.completed", "TXN-K")
          const lost = event(shopId, 2, "payment.completed", "TXN-K")
          yield* outbox.append(kept)
          yield* tx.run(Effect.andThen(outbox.append(lost), Effect.fail("boom"))).pipe(Effect.ignore)
          const page = yield* outbox.page("sandbox", shopId, { relatedId: "TXN-K" }, { limit: 10, offset: 0 })
          assert.deepStrictEqual([page.rows.map((e) => e.id), page.total], [[kept.id], 1])
          assert.isTrue(Option.isNone(yield* outbox.find("sandbox", lost.id)))
        }))
    })
  })
}
