/**
 * The claim store on every store: a claim round-trips exactly (amounts to the digit); it is found
 * by id, and within its environment and shop only; a payment's claims come oldest first; a
 * duplicate id is refused, never an overwrite; an update applies only over the version it read,
 * and of racing writers exactly one wins.
 */
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect, Exit, Option } from "effect"
import type { Claim } from "../../../core/refunds/Claim.ts"
import * as Money from "../../../core/Money.ts"
import { RefundStore } from "../../../core/ports/RefundStore.ts"
import { storeTargets } from "../../support/Stores.ts"

const t0 = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
let seq = 0
const uid = (prefix: string) => `${prefix}${++seq}_${Math.random().toString(36).slice(2, 8)}`
const claim = (transactionId: string, second: number, overrides: Partial<Claim> = {}): Claim => ({
  id: uid("CLM-"), environment: "sandbox", merchantId: "mer_1", shopId: "shop_1", transactionId, kind: "user_dispute",
  status: "open", amount: Money.decimal("123.45"), currency: "BRL", amountUsd: Money.decimal("22.41"), feeUsd: Money.decimal("0"),
  reason: "requested_by_customer", resolution: null, resolvedBy: null, providerRef: null,
  createdAt: DateTime.add(t0, { seconds: second }), resolvedAt: null, version: 1,
  ...overrides
})
const text = (c: Claim) => [c.id, Money.toText(c.amount), Money.toText(c.amountUsd), c.status, c.version]

for (const target of storeTargets("claims")) {
  describe(`RefundStore on ${target.name}`, () => {
    layer(target.layer(), { timeout: 60_000 })((it) => {
      it.effect("finds by id and within its shop, lists a payment's claims oldest first, refuses a duplicate id", () =>
        Effect.gen(function*() {
          const store = yield* RefundStore
          const tx = uid("TXN-")
          const later = claim(tx, 20)
          const first = claim(tx, 10, { kind: "chargeback", feeUsd: Money.decimal("15") })
          yield* store.insert(later)
          yield* store.insert(first)
          yield* store.insert(claim(uid("TXN-"), 5))
          assert.deepStrictEqual((yield* store.forPayment(tx)).map((c) => c.id), [first.id, later.id])
          const found = Option.getOrThrow(yield* store.findById(first.id))
          assert.deepStrictEqual(text(found), text(first))
          assert.strictEqual(Money.toText(found.feeUsd), "15")
          assert.isTrue(Option.isSome(yield* store.find("sandbox", "shop_1", first.id)))
          assert.isTrue(Option.isNone(yield* store.find("production", "shop_1", first.id)), "another environment")
          assert.isTrue(Option.isNone(yield* store.find("sandbox", "shop_2", first.id)), "another shop")

          const duplicate = yield* Effect.exit(store.insert({ ...first, amount: Money.decimal("1") }))
          assert.isTrue(Exit.isFailure(duplicate))
          assert.strictEqual(Money.toText(Option.getOrThrow(yield* store.findById(first.id)).amount), "123.45")
        }))

      it.effect("updates only over the version read; of racing writers exactly one wins", () =>
        Effect.gen(function*() {
          const store = yield* RefundStore
          const c = claim(uid("TXN-"), 1)
          yield* store.insert(c)
          assert.isFalse(yield* store.update({ ...c, status: "approved", version: 3 }))
          const wins = yield* Effect.forEach(
            (["approved", "rejected", "approved", "rejected", "approved", "rejected"] as const).map((status, i) => ({
              ...c,
              status,
              resolution: `writer-${i}`,
              version: 2
            })),
            (next) => store.update(next),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(wins.filter((w) => w).length, 1)
          const stored = Option.getOrThrow(yield* store.findById(c.id))
          assert.deepStrictEqual([stored.version, stored.resolution], [2, `writer-${wins.indexOf(true)}`])
        }))
    })
  })
}
