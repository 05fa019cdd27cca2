/**
 * A shop routed to a real connector (Mercado Pago, against its simulator over real sockets) as a
 * merchant rehearses it in sandbox: the built-in sandbox provider does not serve it unless one of
 * its routes names `sandbox`; a provider passed over is on the payment, beside its attempts, with
 * why; and
 * the catalog says what each routed provider needs of the buyer.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { MercadoPagoProvider } from "../../providers/mercadopago/MercadoPagoProvider.ts"
import { MercadoPagoSimulator } from "../../providers/mercadopago/MercadoPagoSimulator.ts"
import { adminToken, connectorInstance, createMerchant, testHost } from "../support/Host.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

const HostWithMercadoPago = Layer.unwrap(Effect.gen(function*() {
  const secrets = { ACCESS_TOKEN: "TEST-2222-skips-token", WEBHOOK_SECRET: "mp-skips-webhook-secret" }
  const sim = yield* MercadoPagoSimulator.start({ accessToken: secrets.ACCESS_TOKEN, webhookSecret: secrets.WEBHOOK_SECRET })
  return testHost(MemoryStore.layer, {
    connectors: [connectorInstance(MercadoPagoProvider.connector, { id: "mercadopago", environment: "sandbox", baseUrl: sim.baseUrl }, secrets)]
  })
}))

/** A sandbox shop with these routes (provider, priority), and its merchant's client. */
const shopRoutedTo = (routes: ReadonlyArray<readonly [string, number]>) =>
  Effect.gen(function*() {
    const admin = yield* apiAs(adminToken)
    const merchant = yield* createMerchant()
    const shopId = merchant.shops[0]!.id
    for (const [providerId, priority] of routes) {
      const [, put] = yield* admin.admin.putRoute({ params: { shopId, providerId }, payload: { environment: "sandbox", priority }, responseMode: "decoded-and-response" })
      assert.strictEqual(put.status, 200)
    }
    return yield* apiAs(merchant.keys.sandbox.secretKey)
  })

/** A boleto (1002) with everything but the buyer's address. */
const boletoWithoutAddress = {
  amount: Money.decimal("30"),
  paymentMethodId: "1002",
  userName: Redacted.make("Ana Souza"),
  userEmail: Redacted.make("ana@example.com"),
  documentId: Redacted.make("52998224725"),
  userPhone: Redacted.make("+5511987654321")
}

describe("a shop routed to a real connector, in sandbox", () => {
  layer(HostWithMercadoPago, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a boleto without the address Mercado Pago needs is refused naming userAddress, not served by the sandbox provider", () =>
      Effect.gen(function*() {
        const api = yield* shopRoutedTo([["mercadopago", 1]])
        const refusal = yield* refused(api.payments.create({ payload: boletoWithoutAddress, headers: {} }))
        assert.strictEqual(refusal.code, "missing_required_fields")
        assert.strictEqual(httpStatus[refusal.code], 422)
        assert.deepStrictEqual(refusal.details["missingFields"], ["userAddress"])
        assert.deepStrictEqual(refusal.details["skipped"], [{ provider: "mercadopago", reason: "missing_required_fields", missingFields: ["userAddress"] }])
        // A rail Mercado Pago does not serve is not routable either: no silent fallback.
        const khipu = (yield* api.catalog.paymentMethods({ query: { country: "CL" } })).methods.find((m) => m.paymentMethodId === "1076")!
        assert.deepInclude(khipu, { routable: false, providers: [] })
        const noProvider = yield* refused(api.payments.create({ payload: { amount: Money.decimal("30"), paymentMethodId: "1076" }, headers: {} }))
        assert.strictEqual(noProvider.code, "cascade_exhausted")
        assert.deepInclude(noProvider.details, { reason: "no_provider_for_method_region" })
        assert.deepStrictEqual(noProvider.details["skipped"], [{ provider: "mercadopago", reason: "method_not_supported" }])
      }))

    it.effect("with sandbox in its routes, the sandbox provider serves it and the skipped Mercado Pago attempt says why", () =>
      Effect.gen(function*() {
        const api = yield* shopRoutedTo([["mercadopago", 1], ["sandbox", 2]])
        const created = yield* api.payments.create({ payload: boletoWithoutAddress, headers: {} })
        assert.strictEqual(created.status, "pending")
        const detail = yield* api.payments.get({ params: { id: created.transactionId } })
        assert.strictEqual(detail.routing.provider, "sandbox")
        assert.deepStrictEqual(detail.routing.attempts.map((a) => [a.provider, a.outcome]), [["sandbox", "accepted"]])
        assert.deepStrictEqual(detail.routing.skipped, [{ provider: "mercadopago", reason: "missing_required_fields", missingFields: ["userAddress"] }])
        const admin = yield* apiAs(adminToken)
        const why = yield* admin.routingAdmin.getPaymentRouting({ params: { id: created.transactionId } })
        assert.deepStrictEqual(why.skipped, detail.routing.skipped)
      }))

    it.effect("the catalog lists what each routed provider needs of the buyer: a boleto on Mercado Pago needs the address", () =>
      Effect.gen(function*() {
        const boletoOf = (api: Effect.Success<ReturnType<typeof shopRoutedTo>>) =>
          Effect.map(api.catalog.paymentMethods({ query: { country: "BR" } }), (c) => c.methods.find((m) => m.paymentMethodId === "1002")!)
        const alone = yield* boletoOf(yield* shopRoutedTo([["mercadopago", 1]]))
        assert.deepInclude(alone, { routable: true })
        assert.include(alone.requiredFields, "userAddress")
        assert.deepStrictEqual(alone.providers.map((p) => p.provider), ["mercadopago"])
        assert.include(alone.providers[0]!.requiredFields, "userAddress")
        const withSandbox = yield* boletoOf(yield* shopRoutedTo([["mercadopago", 1], ["sandbox", 2]]))
        assert.deepStrictEqual(withSandbox.requiredFields, [], "the sandbox provider needs nothing: no field is needed by all")
        assert.deepStrictEqual(withSandbox.providers.map((p) => [p.provider, p.requiredFields.includes("userAddress")]), [["mercadopago", true], ["sandbox", false]])
      }))
  })
})
