/**
 * The checkout session store on every store: a session round-trips by its token exactly (amount
 * to the digit, times, buyer data); a second session with the same token is refused, never an
 * overwrite; an update applies only over the version it read, and of two racing writers exactly
 * one wins.
 */
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect, Exit, Option } from "effect"
import type { CheckoutSession } from "../../../core/checkout/CheckoutSession.ts"
import * as Money from "../../../core/Money.ts"
import { CheckoutSessionStore } from "../../../core/ports/CheckoutSessionStore.ts"
import { storeTargets } from "../../support/Stores.ts"

const t0 = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
let seq = 0
const session = (overrides: Partial<CheckoutSession> = {}): CheckoutSession => {
  const n = `${++seq}_${Math.random().toString(36).slice(2, 8)}`
  return {
    id: `cs_${n}`, token: `cst_${n}`, environment: "sandbox", merchantId: "mer_1", shopId: "shop_1", mode: "selector",
    status: "awaiting_method", amount: Money.decimal("1234.56"), currency: "BRL", country: "BRA", paymentMethodId: null,
    customer: {
      firstName: "Ana", lastName: "Souza", email: "ana@x.test", phone: null, documentId: "52998224725",
      address: { street: "Av. Paulista", number: "1000", district: "Bela Vista", city: "São Paulo", state: "SP", postalCode: "01310-100", country: "BR" }
    },
    customerIp: "10.0.0.1", returnUrl: "https://shop.example/back?order=1", merchantOrderId: "order-1", simulate: null, cardStep: null,
    completedTxId: null, expiresAt: DateTime.add(t0, { hours: 24 }), createdAt: t0, version: 1,
    ...overrides
  }
}

for (const target of storeTargets("checkout_sessions")) {
  describe(`CheckoutSessionStore on ${target.name}`, () => {
    layer(target.layer(), { timeout: 60_000 })((it) => {
      it.effect("round-trips by token, refuses a duplicate token, and updates only over the version read", () =>
        Effect.gen(function*() {
          const store = yield* CheckoutSessionStore
          const s = session()
          yield* store.insert(s)
          const found = Option.getOrThrow(yield* store.findByToken(s.token))
          assert.strictEqual(Money.toText(found.amount), "1234.56")
          assert.deepStrictEqual({ ...found, amount: null }, { ...s, amount: null })
          assert.isTrue(Option.isNone(yield* store.findByToken("cst_unknown")))

          const duplicate = yield* Effect.exit(store.insert(session({ token: s.token, amount: Money.decimal("1") })))
          assert.isTrue(Exit.isFailure(duplicate), "a second session with the same token is refused")
          assert.strictEqual(Money.toText(Option.getOrThrow(yield* store.findByToken(s.token)).amount), "1234.56", "and the first one stays")

          const completed = { ...s, status: "completed" as const, completedTxId: "TXN-1", version: 2 }
          assert.isTrue(yield* store.update(completed))
          assert.isFalse(yield* store.update({ ...s, status: "completed", completedTxId: "TXN-2", version: 2 }), "a stale writer loses")
          assert.isFalse(yield* store.update({ ...completed, version: 4 }), "a version gap is refused")
          assert.strictEqual(Option.getOrThrow(yield* store.findByToken(s.token)).completedTxId, "TXN-1")
        }))

      it.effect("of racing writers over the same version, exactly one wins", () =>
        Effect.gen(function*() {
          const store = yield* CheckoutSessionStore
          const s = session()
          yield* store.insert(s)
          const wins = yield* Effect.forEach(
            Array.from({ length: 8 }, (_, i) => ({ ...s, status: "completed" as const, completedTxId: `TXN-${i}`, version: 2 })),
            (next) => store.update(next),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(wins.filter((w) => w).length, 1)
          const winner = wins.indexOf(true)
          assert.strictEqual(Option.getOrThrow(yield* store.findByToken(s.token)).completedTxId, `TXN-${winner}`)
        }))
    })
  })
}
