/**
 * The payout and withdrawal stores in the storage contract, on every store adapter: a row is
 * found in its own shop and environment only, a duplicate id is refused (a defect, as a primary
 * key refuses it), an update wins only over the version it read, and lists are newest first with
 * their filters.
 */
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect, Exit, Option } from "effect"
import * as Money from "../../../core/Money.ts"
import type { Withdrawal } from "../../../core/balances/Withdrawal.ts"
import type { Payout } from "../../../core/payouts/Payout.ts"
import { PayoutStore } from "../../../core/ports/PayoutStore.ts"
import { WithdrawalStore } from "../../../core/ports/WithdrawalStore.ts"
import { storeTargets } from "../../support/Stores.ts"

const t0 = DateTime.makeUnsafe("2026-03-01T00:00:00Z")
const uid = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 10)}`

const payout = (shopId: string, seconds: number, overrides: Partial<Payout> = {}): Payout => ({
  id: uid("po-"), environment: "production", merchantId: "mer_1", shopId, methodId: "po_mx_spei", methodName: "SPEI",
  rail: "spei", country: "MX", currency: "MXN", amount: Money.decimal("150.25"), status: "processing", provider: "dlocal",
  providerRef: null, debited: true, recipient: { name: "Ana", account: "032180000118359719" }, failureReason: null,
  createdAt: DateTime.add(t0, { seconds }), updatedAt: DateTime.add(t0, { seconds }), completedAt: null, version: 1,
  ...overrides
})

const withdrawal = (shopId: string, seconds: number, overrides: Partial<Withdrawal> = {}): Withdrawal => ({
  id: uid("wd-"), environment: "production", merchantId: "mer_1", shopId, amount: Money.decimal("100"), fee: Money.decimal("5"),
  status: "processing", destination: { accountHolder: "Ana", bankName: "Banco", accountNumber: "12345678", swiftCode: null },
  failureReason: null, createdAt: DateTime.add(t0, { seconds }), updatedAt: DateTime.add(t0, { seconds }), completedAt: null, version: 1,
  ...overrides
})

for (const target of storeTargets("payouts")) {
  describe(`payout and withdrawal stores on ${target.name}`, () => {
    layer(target.layer(), { timeout: 60_000 })((it) => {
      it.effect("payouts: scoped reads, duplicate ids refused, versioned updates, newest-first lists", () =>
        Effect.gen(function*() {
          const store = yield* PayoutStore
          const shopId = uid("shop_")
          const [a, b] = [payout(shopId, 1), payout(shopId, 2, { status: "completed", methodId: "po_br_pix" })]
          yield* store.insert(a)
          yield* store.insert(b)
          assert.isTrue(Exit.isFailure(yield* Effect.exit(store.insert({ ...a, amount: Money.decimal("1") }))), "a duplicate id is refused")
          assert.strictEqual(Money.toText(Option.getOrThrow(yield* store.findById(a.id)).amount), "150.25", "and changes nothing")
          assert.isTrue(Option.isNone(yield* store.find("sandbox", shopId, a.id)))
          assert.isTrue(Option.isNone(yield* store.find("production", uid("shop_"), a.id)))
          assert.isTrue(yield* store.update({ ...a, providerRef: "PO-1", version: 2 }))
          assert.isFalse(yield* store.update({ ...a, providerRef: "PO-stale", version: 2 }), "a writer of an old version loses")
          assert.strictEqual(Option.getOrThrow(yield* store.find("production", shopId, a.id)).providerRef, "PO-1")
          const all = yield* store.list("production", shopId, {}, { limit: 10, offset: 0 })
          assert.deepStrictEqual([all.rows.map((p) => p.id), all.total], [[b.id, a.id], 2])
          assert.deepStrictEqual((yield* store.list("production", shopId, { status: "processing" }, { limit: 10, offset: 0 })).rows.map((p) => p.id), [a.id])
          assert.deepStrictEqual((yield* store.list("production", shopId, { methodId: "po_br_pix" }, { limit: 10, offset: 0 })).rows.map((p) => p.id), [b.id])
        }))

      it.effect("withdrawals: scoped reads, duplicate ids refused, versioned updates, newest-first lists", () =>
        Effect.gen(function*() {
          const store = yield* WithdrawalStore
          const shopId = uid("shop_")
          const [a, b] = [withdrawal(shopId, 1), withdrawal(shopId, 2, { status: "failed", failureReason: "closed" })]
          yield* store.insert(a)
          yield* store.insert(b)
          assert.isTrue(Exit.isFailure(yield* Effect.exit(store.insert({ ...a, fee: Money.decimal("0") }))), "a duplicate id is refused")
          assert.strictEqual(Money.toText(Option.getOrThrow(yield* store.findById(a.id)).fee), "5")
          assert.isTrue(Option.isNone(yield* store.find("sandbox", shopId, a.id)))
          assert.isTrue(yield* store.update({ ...a, status: "completed", version: 2 }))
          assert.isFalse(yield* store.update({ ...a, status: "failed", version: 2 }))
          assert.strictEqual(Option.getOrThrow(yield* store.find("production", shopId, a.id)).status, "completed")
          const all = yield* store.list("production", shopId, {}, { limit: 10, offset: 0 })
          assert.deepStrictEqual([all.rows.map((w) => w.id), all.total], [[b.id, a.id], 2])
          assert.deepStrictEqual((yield* store.list("production", shopId, { status: "failed" }, { limit: 10, offset: 0 })).rows.map((w) => w.id), [b.id])
        }))
    })
  })
}
