/**
 * The card step's state on the clock, through `cardStep`'s two operations (what
 * `Checkout.holdForCard` and `Checkout.selectCard` are): a return within the vault session's 10
 * minutes goes on to select with the card on the rail of its brand; one after them is refused and
 * selects nothing; so is a state of another trip. `TestClock` moves the time.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Layer, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { paymentMethods } from "../../core/catalog/methods.ts"
import { cardStep } from "../../core/checkout/CheckoutCard.ts"
import type { CheckoutSession } from "../../core/checkout/CheckoutSession.ts"
import type { SelectInput } from "../../core/checkout/CheckoutInput.ts"
import * as Money from "../../core/Money.ts"
import type { Payment } from "../../core/payments/Payment.ts"
import { CardVault, ForwardUnreachable } from "../../core/ports/CardVault.ts"

const rail = (id: string) => paymentMethods.find((m) => m.id === id)!

const session: CheckoutSession = {
  id: "cs_1", token: "hash", environment: "sandbox", merchantId: "mer_1", shopId: "shop_1", mode: "selector",
  status: "awaiting_method", amount: Money.decimal("50"), currency: "USD", country: "BRA", paymentMethodId: null,
  customer: { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: null, documentId: null, address: null },
  customerIp: null, returnUrl: null, merchantOrderId: null, simulate: null, completedTxId: null, cardStep: null,
  expiresAt: DateTime.makeUnsafe("2100-01-01T00:00:00Z"), createdAt: DateTime.makeUnsafe("1970-01-01T00:00:00Z"), version: 1
}

const world = () => {
  let current = session
  const selected: Array<SelectInput> = []
  const ops = cardStep({
    get: () => Effect.succeed(current),
    chosen: (_s, input) =>
      Effect.succeed({
        method: rail(input.paymentMethodId!),
        buyer: { userName: Redacted.make("Ana Souza"), email: Redacted.make("ana@example.com"), documentId: Redacted.make("52998224725"), phone: null, address: null }
      }),
    offered: () => Effect.succeed(["1001", "1004", "1005"].map(rail)),
    select: (_token, input) => Effect.sync(() => (selected.push(input), { id: "tx_1" } as Payment)),
    update: (next) => Effect.sync(() => ((current = next), true)),
    alreadyCompleted: () => {
      throw new Error("not expected")
    },
    secret: Effect.succeed("ccs_state"),
    hash: (s) => Effect.succeed(`sha:${s}`)
  })
  return { ops, selected, current: () => current }
}

const vault = Layer.succeed(CardVault, {
  describe: (merchantId, token) =>
    token === "card_master"
      ? Effect.succeed({ token, merchantId, brand: "mastercard", bin: "555555", last4: "4444", expMonth: 12, expYear: 2031, holderName: "Ana Souza", fingerprint: "fp", securityCodeHeld: true })
      : Effect.fail(new ForwardUnreachable({ message: "unexpected" })),
  forward: () => Effect.die("not used")
})

describe("the card step's state", () => {
  it.effect("a return within 10 minutes selects the rail of the card's brand with the card; the buyer's data is held meanwhile", () =>
    Effect.gen(function*() {
      const { current, ops, selected } = world()
      const { state } = yield* ops.holdForCard("cst_1", { paymentMethodId: "1004" })
      assert.strictEqual(state, "ccs_state")
      assert.strictEqual(current().cardStep?.stateHash, "sha:ccs_state")
      assert.strictEqual(current().customer.documentId, "52998224725")
      yield* TestClock.adjust("9 minutes")
      const payment = yield* ops.selectCard("cst_1", state, "card_master", undefined)
      assert.strictEqual(payment.id, "tx_1")
      assert.deepStrictEqual(selected, [{ paymentMethodId: "1005", card: { token: "card_master" } }])
    }).pipe(Effect.provide(vault)))

  it.effect("a return after 10 minutes, or with another state, is refused and selects nothing", () =>
    Effect.gen(function*() {
      const { ops, selected } = world()
      const { state } = yield* ops.holdForCard("cst_1", { paymentMethodId: "1004" })
      const forged = yield* Effect.flip(ops.selectCard("cst_1", "ccs_other", "card_master", undefined))
      assert.deepInclude(forged, { _tag: "CardStepRefused", reason: "state" })
      yield* TestClock.adjust("10 minutes")
      const late = yield* Effect.flip(ops.selectCard("cst_1", state, "card_master", undefined))
      assert.deepInclude(late, { _tag: "CardStepRefused", reason: "state" })
      assert.deepStrictEqual(selected, [])
    }).pipe(Effect.provide(vault)))

  it.effect("a rail that is not a card starts no card step", () =>
    Effect.gen(function*() {
      const { current, ops } = world()
      const refused = yield* Effect.flip(ops.holdForCard("cst_1", { paymentMethodId: "1001" }))
      assert.strictEqual((refused as { code: string }).code, "invalid_request")
      assert.isNull(current().cardStep)
    }))
})
