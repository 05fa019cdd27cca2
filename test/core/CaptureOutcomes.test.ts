/**
 * Capture and void through the library, with scripted providers: a provider that gives no answer
 * about a capture leaves it `unknown` (503 provider_outcome_unknown) and the next call asks the
 * same provider again with the same upstream key, never a new capture, while a void waits; a
 * refusal leaves the payment authorized; a provider without capture cannot authorize only.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import * as Money from "../../core/Money.ts"
import { type CaptureRequest, ProviderError } from "../../core/ports/PaymentProvider.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { Payments } from "../../core/payments/Payments.ts"
import { EngineTest, newScope, routeShopTo, stubProvider } from "../support/Engine.ts"

const buyer = { userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com"), documentId: Redacted.make("52998224725") }
const authorizing = (id: string, capture: (request: CaptureRequest) => Effect.Effect<{ providerRef: string; status: "succeeded" }, ProviderError>) =>
  stubProvider(id, {
    charge: (request) => Effect.succeed({ providerRef: `${id}_${request.transactionId}`, status: request.capture === false ? "authorized" : "pending", paymentFormUrl: "", paymentData: {} }),
    capture,
    void: (request) => Effect.succeed({ providerRef: `${id}_void_${request.idempotencyKey}`, status: "succeeded" })
  })

describe("capture outcomes (library)", () => {
  it.effect("no answer about a capture: unknown, the key kept; the next call asks again with the same key and completes once; a void meanwhile is 409", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      const keys: Array<string> = []
      const provider = authorizing("flaky", (request) => {
        keys.push(request.idempotencyKey)
        return keys.length === 1
          ? Effect.fail(ProviderError.outcomeUnknown({ providerId: "flaky", code: "timeout", message: "no answer in time" }))
          : Effect.succeed({ providerRef: `cap_${request.idempotencyKey}`, status: "succeeded" as const })
      })
      yield* routeShopTo(scope, [provider], { sandboxLast: false })
      const payments = yield* Payments
      const p = yield* payments.create(scope, { amount: Money.decimal("25"), paymentMethodId: "sbx_card", ...buyer, capture: false })
      assert.strictEqual(p.status, "authorized")
      const first = yield* Effect.flip(payments.capture(scope, p.id, undefined, undefined))
      assert.strictEqual(first._tag === "ApiError" ? first.code : first._tag, "provider_outcome_unknown")
      const held = Option.getOrThrow(yield* (yield* PaymentStore).findById(p.id))
      assert.strictEqual(held.status, "authorized")
      assert.strictEqual(held.authorization?.operation?.outcome, "unknown")
      const voided = yield* Effect.flip(payments.void(scope, p.id, undefined))
      assert.deepStrictEqual(voided._tag === "ApiError" ? [voided.code, voided.details["operation"]] : [], ["payment_not_authorized", "capture"])
      const done = yield* payments.capture(scope, p.id, undefined, undefined)
      assert.strictEqual(done.status, "completed")
      assert.strictEqual(keys.length, 2)
      assert.strictEqual(keys[0], keys[1])
      const again = yield* Effect.flip(payments.capture(scope, p.id, undefined, undefined))
      assert.strictEqual(again._tag === "ApiError" ? again.code : again._tag, "payment_not_authorized")
      assert.strictEqual(keys.length, 2)
    }).pipe(Effect.provide(EngineTest)))

  it.effect("a refused capture leaves the payment authorized (capture_declined); a provider without capture makes capture:false 422 capture_not_supported", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      const refusing = authorizing("refusing", () => Effect.fail(ProviderError.declined({ providerId: "refusing", code: "not_authorized", message: "refused" })))
      yield* routeShopTo(scope, [refusing], { sandboxLast: false })
      const payments = yield* Payments
      const p = yield* payments.create(scope, { amount: Money.decimal("25"), paymentMethodId: "sbx_card", ...buyer, capture: false })
      const refused = yield* Effect.flip(payments.capture(scope, p.id, undefined, undefined))
      assert.deepStrictEqual(refused._tag === "ApiError" ? [refused.code, refused.details["providerCode"]] : [], ["capture_declined", "not_authorized"])
      assert.strictEqual(Option.getOrThrow(yield* (yield* PaymentStore).findById(p.id)).status, "authorized")

      const other = yield* newScope()
      yield* routeShopTo(other, [stubProvider("plain")], { sandboxLast: false })
      const unsupported = yield* Effect.flip(payments.create(other, { amount: Money.decimal("25"), paymentMethodId: "sbx_card", ...buyer, capture: false }))
      assert.strictEqual(unsupported.code, "capture_not_supported")
      assert.strictEqual((yield* (yield* PaymentStore).list("sandbox", other.shop.id, {}, { limit: 10, offset: 0 })).total, 0)
    }).pipe(Effect.provide(EngineTest)))
})
