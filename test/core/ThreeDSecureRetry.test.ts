/**
 * The `authentication_required` retry through the provider port, as a provider team's plugin
 * sees it: the engine asks the same provider once more with `threeDSecure: "required"` and an
 * upstream key of its own (`<transactionId>:<providerId>:3ds`), both attempts written on the
 * record, and every card charge names the engine's return page; a second refusal moves the
 * cascade on, never a third call.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import * as Money from "../../core/Money.ts"
import { type CardDescription, CardVault, ForwardUnreachable } from "../../core/ports/CardVault.ts"
import { type ChargeRequest, ProviderError } from "../../core/ports/PaymentProvider.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { Payments } from "../../core/payments/Payments.ts"
import { EngineTest, newScope, routeShopTo, stubProvider } from "../support/Engine.ts"

const card = (merchantId: string): CardDescription => ({
  token: "card_threedsaaaaaaaaaaaaaaaa",
  merchantId,
  brand: "visa",
  bin: "411111",
  last4: "1111",
  expMonth: 7,
  expYear: 2099,
  holderName: "ANA SOUZA",
  fingerprint: "fp_threeds",
  securityCodeHeld: true
})
const vault = Layer.succeed(CardVault, {
  describe: (merchantId) => Effect.succeed(card(merchantId)),
  forward: () => Effect.fail(new ForwardUnreachable({ message: "not in this test" }))
})

const buyer = { userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com"), documentId: Redacted.make("52998224725") }
const authenticationRequired = (providerId: string) =>
  ProviderError.failed({ providerId, code: "authentication_required", message: "the issuer asks for 3-D Secure" })

describe("3-D Secure retry (library)", () => {
  it.effect("authentication_required: the same provider once more with threeDSecure and the key <id>:<provider>:3ds; the challenge is kept", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      const requests: Array<ChargeRequest> = []
      yield* routeShopTo(scope, [stubProvider("acq-3ds", {
        charge: (request) => {
          requests.push(request)
          return request.threeDSecure === "required"
            ? Effect.succeed({
              providerRef: `ref_${request.transactionId}`,
              status: "pending",
              paymentFormUrl: "",
              paymentData: {},
              nextAction: { type: "redirect_to_url", url: "https://issuer.example/challenge/1" }
            })
            : Effect.fail(authenticationRequired("acq-3ds"))
        }
      })])
      const payment = yield* (yield* Payments).create(scope, { amount: Money.decimal("10"), paymentMethodId: "sbx_card", ...buyer, card: { token: "card_threedsaaaaaaaaaaaaaaaa" } })
      assert.deepStrictEqual(requests.map((r) => [r.idempotencyKey, r.threeDSecure]), [
        [`${payment.id}:acq-3ds`, undefined],
        [`${payment.id}:acq-3ds:3ds`, "required"]
      ])
      for (const r of requests) assert.match(r.returnUrl ?? "", new RegExp(`/3ds/return/${payment.id}$`))
      const stored = Option.getOrThrow(yield* (yield* PaymentStore).find("sandbox", scope.shop.id, payment.id))
      assert.deepStrictEqual(stored.attempts.map((a) => [a.provider, a.outcome, a.reason, a.threeDSecure]), [
        ["acq-3ds", "failed", "authentication_required", undefined],
        ["acq-3ds", "accepted", null, "required"]
      ])
      assert.strictEqual(stored.status, "pending")
      assert.deepStrictEqual(stored.nextAction, { type: "redirect_to_url", url: "https://issuer.example/challenge/1" })
    }).pipe(Effect.provide(EngineTest.pipe(Layer.provide(vault)))))

  it.effect("refused again with 3-D Secure: no third call; the cascade moves to the next provider", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      const requests: Array<ChargeRequest> = []
      yield* routeShopTo(scope, [stubProvider("acq-stubborn", {
        charge: (request) => {
          requests.push(request)
          return Effect.fail(authenticationRequired("acq-stubborn"))
        }
      }), stubProvider("acq-next")])
      const payment = yield* (yield* Payments).create(scope, { amount: Money.decimal("10"), paymentMethodId: "sbx_card", ...buyer, card: { token: "card_threedsaaaaaaaaaaaaaaaa" } })
      assert.strictEqual(requests.length, 2)
      assert.deepStrictEqual(payment.attempts.map((a) => [a.provider, a.outcome, a.threeDSecure]), [
        ["acq-stubborn", "failed", undefined],
        ["acq-stubborn", "failed", "required"],
        ["acq-next", "accepted", undefined]
      ])
      // A pix payment's charge names no return page.
      const pix: Array<ChargeRequest> = []
      const other = yield* newScope()
      yield* routeShopTo(other, [stubProvider("acq-pix", { charge: (r) => (pix.push(r), Effect.succeed({ providerRef: "p", status: "pending", paymentFormUrl: "", paymentData: {} })) })])
      yield* (yield* Payments).create(other, { amount: Money.decimal("10"), paymentMethodId: "sbx_pix", ...buyer })
      assert.isUndefined(pix[0]?.returnUrl)
    }).pipe(Effect.provide(EngineTest.pipe(Layer.provide(vault)))))

  it.effect("a 3-D Secure retry left unknown (a timeout) is asked again with the retry's own key", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      const requests: Array<ChargeRequest> = []
      yield* routeShopTo(scope, [stubProvider("acq-slow", {
        charge: (request) => {
          requests.push(request)
          if (request.threeDSecure !== "required") return Effect.fail(authenticationRequired("acq-slow"))
          return requests.length === 2
            ? Effect.fail(ProviderError.outcomeUnknown({ providerId: "acq-slow", code: "timeout", message: "no answer" }))
            : Effect.succeed({ providerRef: "ref_slow", status: "pending", paymentFormUrl: "", paymentData: {} })
        }
      })])
      const payments = yield* Payments
      const input = { amount: Money.decimal("10"), paymentMethodId: "sbx_card", ...buyer, card: { token: "card_threedsaaaaaaaaaaaaaaaa" } }
      const first = yield* Effect.flip(payments.create(scope, input))
      assert.strictEqual(first.code, "provider_outcome_unknown")
      const id = (first.details as { transactionId: string }).transactionId
      const resumed = yield* payments.create(scope, { ...input, id })
      assert.strictEqual(resumed.status, "pending")
      assert.deepStrictEqual(requests.map((r) => r.idempotencyKey), [`${id}:acq-slow`, `${id}:acq-slow:3ds`, `${id}:acq-slow:3ds`])
    }).pipe(Effect.provide(EngineTest.pipe(Layer.provide(vault)))))
})
