/** Session lifetime, driven by TestClock: a token works for 24 hours and then answers 404. */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Checkout } from "../../core/checkout/Checkout.ts"
import * as Money from "../../core/Money.ts"
import { EngineTest, newScope } from "../support/Engine.ts"

describe("checkout session lifetime", () => {
  it.effect("a session expires 24 hours after creation", () =>
    Effect.gen(function*() {
      const checkout = yield* Checkout
      const { session, token } = yield* checkout.create(yield* newScope(), { amount: Money.decimal("10") })
      yield* TestClock.adjust("23 hours")
      assert.strictEqual((yield* checkout.get(token)).id, session.id)
      yield* TestClock.adjust("1 hour")
      const error = yield* Effect.flip(checkout.get(token))
      assert.strictEqual(error.code, "checkout_session_not_found")
      const select = yield* Effect.flip(checkout.select(token, { paymentMethodId: "sbx_pix" }, undefined))
      assert.strictEqual(select.code, "checkout_session_not_found")
    }).pipe(Effect.provide(EngineTest)))
})
