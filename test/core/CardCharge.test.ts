/**
 * A card payment through the library: the token's description (from the engine's `CardVault`)
 * is what the connector's `ChargeRequest.card` carries, the holder's name still `Redacted`, and
 * what the record keeps; a rail that is not a card rail never asks the vault.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import * as Money from "../../core/Money.ts"
import { type CardDescription, CardTokenNotFound, CardVault, ForwardUnreachable } from "../../core/ports/CardVault.ts"
import type { ChargeRequest } from "../../core/ports/PaymentProvider.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { Payments } from "../../core/payments/Payments.ts"
import { EngineTest, newScope, routeShopTo, stubProvider } from "../support/Engine.ts"

const described: Array<string> = []
const card = (merchantId: string): CardDescription => ({
  token: "card_libraryaaaaaaaaaaaaaaaa",
  merchantId,
  brand: "visa",
  bin: "411111",
  last4: "1111",
  expMonth: 7,
  expYear: 2099,
  holderName: "ANA SOUZA",
  fingerprint: "fp_library",
  securityCodeHeld: true
})
const vault = Layer.succeed(CardVault, {
  describe: (merchantId, token) => {
    described.push(token)
    return token === "card_libraryaaaaaaaaaaaaaaaa" ? Effect.succeed(card(merchantId)) : Effect.fail(new CardTokenNotFound({ token }))
  },
  forward: () => Effect.fail(new ForwardUnreachable({ message: "not in this test" }))
})

const buyer = { userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com"), documentId: Redacted.make("52998224725") }

describe("card charges (library)", () => {
  it.effect("the connector gets the card as the vault described it; the record keeps it, holder name Redacted", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      const requests: Array<ChargeRequest> = []
      yield* routeShopTo(scope, [stubProvider("cards-stub", {
        charge: (request) => {
          requests.push(request)
          return Effect.succeed({ providerRef: `ref_${request.transactionId}`, status: "pending", paymentFormUrl: "", paymentData: {} })
        }
      })])
      const payments = yield* Payments
      const payment = yield* payments.create(scope, { amount: Money.decimal("10"), paymentMethodId: "sbx_card", ...buyer, card: { token: "card_libraryaaaaaaaaaaaaaaaa" } })
      const sent = requests[0]?.card
      assert.isDefined(sent)
      const expected = card(scope.merchant.id)
      assert.deepStrictEqual({ ...sent!, holderName: Redacted.value(sent!.holderName) }, expected)
      assert.isTrue(Redacted.isRedacted(sent!.holderName))
      const stored = Option.getOrThrow(yield* (yield* PaymentStore).find("sandbox", scope.shop.id, payment.id))
      assert.strictEqual(stored.card?.fingerprint, "fp_library")
      assert.strictEqual(Redacted.value(stored.card!.holderName), "ANA SOUZA")
      assert.notInclude(JSON.stringify(stored.card), "ANA SOUZA")
      // PIX without a card asks the vault nothing.
      const before = described.length
      yield* payments.create(scope, { amount: Money.decimal("10"), paymentMethodId: "sbx_pix", ...buyer })
      assert.strictEqual(described.length, before)
    }).pipe(Effect.provide(EngineTest.pipe(Layer.provide(vault)))))
})
