/**
 * Card failover between two real card connectors through the real vault (`vault/`): Pagar.me's
 * plugin and Mercado Pago's, each against its simulator. Pagar.me soft-declines the card (issuer
 * unavailable, ABECS `91`: `providers/pagarme/SimulatorCards.ts`); the cascade presents the same
 * vault token to Mercado Pago, whose card token the vault fills with the same security code (the
 * code is bound to the payment, `securityCodeUse`), and Mercado Pago approves. A later payment
 * with the same token has no code (it was collected for the first one): Pagar.me, which charges
 * with it, declines it before any call.
 */
import { assert, describe, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Option, Redacted } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { readConnectors } from "../../host/Connectors.ts"
import mercadopago from "../../providers/mercadopago/Standalone.ts"
import pagarme from "../../providers/pagarme/Standalone.ts"
import { startForTest } from "../../vault/index.ts"
import { adminToken, call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { routeCards, tokenizeCard } from "../support/Cards.ts"
import { testConfig as vaultConfig } from "../vault/VaultFixtures.ts"

/** Pagar.me's simulator answers this card issuer unavailable (`91`), a soft decline; Mercado Pago's approves any Luhn-valid number. */
const issuerDown = "4000000000000911"

const sessionSecret = "session-secret-for-tests-0123456789abcdef"

const TwoAcquirers = Layer.unwrap(Effect.gen(function*() {
  const first = yield* pagarme.start
  const second = yield* mercadopago.start
  const env: Record<string, string> = {
    ...Object.fromEntries(first.environment),
    ...Object.fromEntries(second.environment),
    CONNECTORS: "pagarme,mercadopago"
  }
  const hosts = [env["PAGARME_BASE_URL"]!, env["MERCADOPAGO_BASE_URL"]!].map((url) => new URL(url).host)
  const vault = yield* startForTest(vaultConfig({ forwardHosts: hosts, allowHttpLoopback: true, sessionSecret: Redacted.make(sessionSecret) }))
  const connectors = yield* readConnectors().pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)))
  return testHost(MemoryStore.layer, {
    connectors,
    vault: Option.some({ url: vault.url, engineKey: Redacted.make(vault.engineKey), sessionSecret: Redacted.make(sessionSecret) })
  })
}))

describe("card failover through the vault", () => {
  layer(TwoAcquirers, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("Pagar.me soft-declines, Mercado Pago approves the same token with the same security code; a later payment with the token has no code and is declined before any call", () =>
      Effect.gen(function*() {
        const { keys, shops } = yield* createMerchant()
        const bearer = keys.sandbox.secretKey
        yield* routeCards(shops[0]!.id, [["pagarme", true], ["mercadopago", true], ["sandbox", false]])
        const card = { token: yield* tokenizeCard(bearer, issuerDown) }
        const buyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }
        const paid = yield* call("POST", "/api/v1/payments", { bearer, body: { amount: 30, paymentMethodId: "1004", ...buyer, card: { token: card.token } } })
        assert.strictEqual(paid.status, 201, JSON.stringify(paid.body))
        const read = yield* call("GET", `/api/v1/payments/${paid.body.transactionId}`, { bearer })
        assert.deepStrictEqual((read.body.routing.attempts as Array<any>).map((a) => [a.provider, a.outcome, a.decline]), [
          ["pagarme", "failed", "issuer_unavailable"],
          ["mercadopago", "accepted", null]
        ], JSON.stringify(read.body.routing))
        assert.strictEqual(read.body.status, "completed", JSON.stringify(read.body))
        // The operator's connector report counts Pagar.me's refusal by its normalized decline.
        const health = yield* eventually(call("GET", "/admin/v1/providers/health?environment=sandbox&hours=1", { bearer: adminToken }), (r) =>
          (r.body.rails ?? []).some((rail: { providerId: string }) => rail.providerId === "pagarme"))
        assert.deepStrictEqual(health.body.rails.find((r: { providerId: string }) => r.providerId === "pagarme").declines, [{ decline: "issuer_unavailable", count: 1 }])
        assert.deepStrictEqual(health.body.rails.find((r: { providerId: string }) => r.providerId === "mercadopago").declines, [])

        // The code was held for that payment: a second payment with the token is charged by neither.
        const again = yield* call("POST", "/api/v1/payments", { bearer, body: { amount: 31, paymentMethodId: "1004", ...buyer, card: { token: card.token } } })
        assert.deepStrictEqual([again.status, again.body.error.details.reason], [422, "provider_declined"], JSON.stringify(again.body))
        assert.deepStrictEqual(
          (again.body.error.details.attempts as Array<any>).map((a) => [a.provider, a.outcome, a.reason]),
          [["pagarme", "declined", "security_code_required"]]
        )
      }))
  })
})
