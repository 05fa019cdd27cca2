/**
 * The steps of a create, called one by one as `Create.ts` composes them: the checks, the price,
 * the providers chosen, the record written ahead, the cascade's outcome; and the key of a request
 * that answers the create view, which stores that view (the core's, not HTTP bytes) in the
 * payment's last write and replays it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Option, Schema } from "effect"
import { Idempotency } from "../../core/idempotency/Idempotency.ts"
import * as Money from "../../core/Money.ts"
import { checkInput, chooseProviders, newRecord, price } from "../../core/payments/CreateRequest.ts"
import { drive, outcome, writeAhead } from "../../core/payments/CreateRoute.ts"
import { makeCreateServices } from "../../core/payments/CreateServices.ts"
import { makeLifecycle } from "../../core/payments/Lifecycle.ts"
import { Payments } from "../../core/payments/Payments.ts"
import { CreatedView } from "../../core/payments/PaymentView.ts"
import { EngineTest, newScope, routeShopTo, stubProvider } from "../support/Engine.ts"

const codeOf = <A, E>(exit: Exit.Exit<A, E>) => {
  const error = Exit.isFailure(exit) ? exit.cause.reasons.find(Cause.isFailReason)?.error : undefined
  return (error as { readonly code?: string } | undefined)?.code
}

describe("the steps of a create", () => {
  it.effect("each step is called on its own, and together they route the record written ahead", () =>
    Effect.gen(function*() {
      const s = yield* makeCreateServices(yield* makeLifecycle)
      const scope = yield* newScope()
      const needsPhone = stubProvider("needs_phone", { requires: () => ["userPhone"] })
      const takes = stubProvider("takes")
      yield* routeShopTo(scope, [needsPhone, takes], { sandboxLast: false })
      const input = { amount: Money.decimal("30"), paymentMethodId: "sbx_pix" }

      // The checks refuse a country that is not the rail's, before any price.
      assert.strictEqual(codeOf(yield* Effect.exit(checkInput(s, scope, { ...input, country: "MX" }))), "invalid_request")
      const checked = yield* checkInput(s, scope, input)
      assert.strictEqual(checked.method.id, "sbx_pix")
      assert.strictEqual(checked.country, "BRA")

      const priced = yield* price(s, scope, input, checked.method)
      assert.strictEqual(Money.toText(priced.usd), "30")
      assert.strictEqual(priced.localCurrency, "BRL")

      // The provider that needs buyer data the request lacks is passed over, with why.
      const chosen = yield* chooseProviders(s, scope, input, checked, priced)
      assert.deepStrictEqual(chosen.providers.map((r) => r.provider.id), ["takes"])
      assert.deepStrictEqual(chosen.skipped.filter((k) => k.provider === "needs_phone").map((k) => k.reason), ["missing_required_fields"])

      // The record is made, not written, until its write-ahead.
      const record = yield* newRecord(s, scope, input, checked, priced, chosen)
      assert.strictEqual(record.status, "initiated")
      assert.deepStrictEqual(record.attempts.map((a) => [a.provider, a.outcome]), [["takes", "in_flight"]])
      assert.strictEqual(codeOf(yield* Effect.exit(outcome(record))), "provider_outcome_unknown")
      assert.isTrue(Option.isNone(yield* s.store.findById(record.id)))
      yield* writeAhead(s, record, undefined)
      assert.strictEqual(Option.getOrThrow(yield* s.store.findById(record.id)).status, "initiated")

      const routed = yield* drive(s, record, checked.method, chosen.providers, {}, undefined)
      assert.strictEqual(routed.payment.status, "pending")
      assert.strictEqual(routed.stored, undefined, "no key, nothing stored for one")
    }).pipe(Effect.provide(EngineTest)))

  it.effect("a key answering the create view stores the core's view with the pending payment, and replays it", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      const payments = yield* Payments
      const idempotency = yield* Idempotency
      const request = { scope: `sandbox:${scope.merchant.id}`, key: "view-1", fingerprint: "f" }
      const run = idempotency.run(
        request,
        CreatedView,
        (key) => payments.createAnswering(scope, { id: key.resume, amount: Money.decimal("30"), paymentMethodId: "sbx_pix" }, key),
        { claimInWriteAhead: true }
      )
      const first = yield* run
      assert.isFalse(first.replayed)
      assert.strictEqual(first.value.status, "pending")
      const again = yield* run
      assert.isTrue(again.replayed)
      assert.deepStrictEqual(again.value, first.value)
      // The key holds the core's view of the payment, which the first answer was.
      assert.deepStrictEqual(Schema.decodeUnknownSync(CreatedView)(JSON.parse(again.body)), first.value)
    }).pipe(Effect.provide(EngineTest)))
})
