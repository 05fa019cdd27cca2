/**
 * Buyer data a provider needs for a rail (`PaymentProvider.requires`): a charge that lacks it is
 * never sent to that provider (it could only be declined); with no provider left it is refused
 * with 422 `missing_required_fields` before anything is written; the catalog names what every
 * provider of the rail needs; hosted checkout collects it. Driven as an embedder would, with
 * provider plugins that record what they were asked.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Redacted } from "effect"
import { Catalog } from "../../core/catalog/Catalog.ts"
import { Checkout } from "../../core/checkout/Checkout.ts"
import * as Money from "../../core/Money.ts"
import type { BuyerAddress, ChargeRequest, PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import { Payments } from "../../core/payments/Payments.ts"
import type { ShopScope } from "../../core/tenancy/Scopes.ts"
import { EngineTest, newScope, routeShopTo, stubProvider } from "../support/Engine.ts"
import { clear } from "../../providers/kit/Buyer.ts"

const address: BuyerAddress = {
  street: "Avenida Paulista",
  number: "1000",
  district: "Bela Vista",
  city: "São Paulo",
  state: "SP",
  postalCode: "01310-100",
  country: "BR"
}

/** A provider that records its charges and needs `needs` on every rail. */
const recording = (id: string, needs: ReadonlyArray<"userAddress" | "userPhone">) => {
  const calls: Array<ChargeRequest> = []
  const provider = stubProvider(id, {
    requires: () => needs,
    charge: (request) =>
      Effect.sync(() => {
        calls.push(request)
        return { providerRef: `${id}_${request.transactionId}`, status: "pending" as const, paymentFormUrl: "https://pay.example/x", paymentData: {} }
      })
  })
  return { provider, calls }
}

/** A shop routed to `providers`, in that order, and not to the sandbox provider. */
const shopWith = (...providers: ReadonlyArray<PaymentProvider>) =>
  Effect.gen(function*() {
    const scope = yield* newScope()
    yield* routeShopTo(scope, providers, { sandboxLast: false })
    return scope
  })

const failureOf = <A, E>(exit: Exit.Exit<A, E>) => Exit.isFailure(exit) ? exit.cause.reasons.find(Cause.isFailReason)?.error : undefined

const requiredFieldsOf = (scope: ShopScope, methodId: string) =>
  Effect.gen(function*() {
    const { entries } = yield* (yield* Catalog).listing(scope.environment, scope.shop.id, {})
    return entries.find((e) => e.method.id === methodId)?.requiredFields
  })

describe("buyer data a provider needs", () => {
  it.effect("a charge without it is refused before any provider is asked or anything is written", () =>
    Effect.gen(function*() {
      const boleto = recording(`needs_address_${Math.random()}`, ["userAddress"])
      const scope = yield* shopWith(boleto.provider)
      const payments = yield* Payments
      const refused = yield* Effect.exit(payments.create(scope, { amount: Money.decimal("20"), paymentMethodId: "sbx_pix", userName: Redacted.make("Ana Souza") }))
      const error = failureOf(refused) as { code?: string; details?: { missingFields?: ReadonlyArray<string> } } | undefined
      assert.strictEqual(error?.code, "missing_required_fields")
      assert.deepStrictEqual(error?.details?.missingFields, ["userAddress"])
      assert.strictEqual(boleto.calls.length, 0)
      assert.strictEqual((yield* payments.list(scope, {}, { limit: 10, offset: 0 })).total, 0)
      assert.deepStrictEqual(yield* requiredFieldsOf(scope, "sbx_pix"), ["userAddress"])

      // A Brazilian address names its bairro: a boleto prints it.
      const { district: _, ...withoutDistrict } = address
      const noDistrict = failureOf(yield* Effect.exit(payments.create(scope, { amount: Money.decimal("20"), paymentMethodId: "sbx_pix", userAddress: Redacted.make(withoutDistrict) }))) as
        | { details?: { missingFields?: ReadonlyArray<string> } }
        | undefined
      assert.deepStrictEqual(noDistrict?.details?.missingFields, ["userAddress.district"])
      assert.strictEqual(boleto.calls.length, 0)

      const created = yield* payments.create(scope, { amount: Money.decimal("20"), paymentMethodId: "sbx_pix", userAddress: Redacted.make(address) })
      assert.strictEqual(created.status, "pending")
      assert.deepStrictEqual(boleto.calls.map((c) => clear(c.customer.address)), [address])
    }).pipe(Effect.provide(EngineTest)))

  it.effect("a provider that needs it is passed over for one that does not; the catalog asks only for what all need", () =>
    Effect.gen(function*() {
      const first = recording(`needs_address_phone_${Math.random()}`, ["userAddress", "userPhone"])
      const second = recording(`needs_phone_${Math.random()}`, ["userPhone"])
      const scope = yield* shopWith(first.provider, second.provider)
      assert.deepStrictEqual(yield* requiredFieldsOf(scope, "sbx_pix"), ["userPhone"])
      const payments = yield* Payments
      const created = yield* payments.create(scope, { amount: Money.decimal("20"), paymentMethodId: "sbx_pix", userPhone: Redacted.make("+5511987654321") })
      assert.strictEqual(created.provider, second.provider.id)
      assert.strictEqual(first.calls.length, 0)
      assert.strictEqual(second.calls.length, 1)
      // Neither can charge without a phone: named as the first choice of routing needs it.
      const refused = failureOf(yield* Effect.exit(payments.create(scope, { amount: Money.decimal("20"), paymentMethodId: "sbx_pix" }))) as
        | { details?: { missingFields?: ReadonlyArray<string> } }
        | undefined
      assert.deepStrictEqual(refused?.details?.missingFields, ["userAddress", "userPhone"])
    }).pipe(Effect.provide(EngineTest)))

  it.effect("hosted checkout waits for it, then forwards it and keeps none of it", () =>
    Effect.gen(function*() {
      const boleto = recording(`needs_address_${Math.random()}`, ["userAddress"])
      const scope = yield* shopWith(boleto.provider)
      const checkout = yield* Checkout
      const buyer = { userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com"), documentId: Redacted.make("52998224725") }
      const created = yield* checkout.create(scope, { amount: Money.decimal("20"), paymentMethodId: "sbx_pix", ...buyer })
      assert.strictEqual(created.session.status, "awaiting_details")
      assert.deepStrictEqual(created.missingFields, ["userAddress"])
      assert.strictEqual(boleto.calls.length, 0)

      const missing = failureOf(yield* Effect.exit(checkout.select(created.token, {}, undefined))) as { code?: string } | undefined
      assert.strictEqual(missing?.code, "missing_required_fields")
      const payment = yield* checkout.select(created.token, { customer: { address: Redacted.make(address) } }, undefined)
      assert.strictEqual(payment.status, "pending")
      assert.deepStrictEqual(boleto.calls.map((c) => clear(c.customer.address)), [address])
      assert.strictEqual((yield* checkout.get(created.token)).customer.address, null, "forwarded, never kept")

      // Given at creation (the customer block), the transaction is created at once.
      const oneShot = yield* checkout.create(scope, { amount: Money.decimal("20"), paymentMethodId: "sbx_pix", ...buyer, customer: { address: Redacted.make(address) } })
      assert.strictEqual(oneShot.session.status, "pending")
      assert.strictEqual(oneShot.session.customer.address, null)
    }).pipe(Effect.provide(EngineTest)))
})
