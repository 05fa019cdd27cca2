/**
 * 3-D Secure asked of Pagar.me, through the API: the card vault (its own service), Pagar.me's
 * plugin against its simulator, and a second card acquirer (an in-process test connector that
 * approves). The issuer asks for authentication (ABECS `1A`, the simulator's `4000000000001018`):
 * the engine retries Pagar.me once with 3-D Secure, which Pagar.me's connector refuses before any
 * call (`three_d_secure_unsupported`: its 3DS runs only in its browser script), and the cascade
 * moves the same vault token to the next acquirer.
 */
import { assert, describe, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer, Option, Redacted } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { readConnectors } from "../../host/Connectors.ts"
import type { Connector } from "../../providers/kit/Connector.ts"
import pagarme from "../../providers/pagarme/Standalone.ts"
import { startForTest } from "../../vault/index.ts"
import { stubProvider } from "../support/Engine.ts"
import { call, connectorInstance, createMerchant, testHost } from "../support/Host.ts"
import { routeCards, tokenizeCard } from "../support/Cards.ts"
import { testConfig as vaultConfig } from "../vault/VaultFixtures.ts"

/** Pagar.me's simulator answers this card "authentication required" (`1A`). */
const wantsAuthentication = "4000000000001018"

/** The tokens the second acquirer was asked to charge. */
const charged: Array<{ readonly token: string | undefined; readonly threeDSecure: string | undefined }> = []

const approving: Connector = {
  kind: "approving-card",
  secrets: [],
  paymentProvider: (settings) =>
    Effect.succeed(stubProvider(settings.id, {
      supports: (m) => m.channel === "CREDIT_CARD",
      charge: (request) =>
        Effect.sync(() => {
          charged.push({ token: request.card?.token, threeDSecure: request.threeDSecure })
          return { providerRef: `${settings.id}_${request.transactionId}`, status: "pending" as const, paymentFormUrl: "", paymentData: {} }
        })
    }))
}

class Vault extends Context.Service<Vault, { readonly url: string }>()("test/PagarmeCaptureThreeDSecure/Vault") {}

const sessionSecret = "session-secret-for-tests-0123456789abcdef"

const HostWithPagarme = Layer.unwrap(Effect.gen(function*() {
  const sim = yield* pagarme.start
  const env: Record<string, string> = { ...Object.fromEntries(sim.environment), CONNECTORS: "pagarme" }
  const vault = yield* startForTest(vaultConfig({ forwardHosts: [new URL(env["PAGARME_BASE_URL"]!).host], allowHttpLoopback: true, sessionSecret: Redacted.make(sessionSecret) }))
  const connectors = yield* readConnectors().pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)))
  return Layer.merge(
    testHost(MemoryStore.layer, {
      connectors: [...connectors, connectorInstance(approving, { id: "acq-b", environment: "sandbox", baseUrl: "http://127.0.0.1:9" }, {})],
      vault: Option.some({ url: vault.url, engineKey: Redacted.make(vault.engineKey), sessionSecret: Redacted.make(sessionSecret) })
    }),
    Layer.succeed(Vault, { url: vault.url })
  )
}))

describe("3-D Secure asked of Pagar.me", () => {
  layer(HostWithPagarme, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("authentication required on Pagar.me: its retry with 3-D Secure is refused before any call, and the next acquirer gets the token", () =>
      Effect.gen(function*() {
        const { keys, shops } = yield* createMerchant()
        const bearer = keys.sandbox.secretKey
        yield* routeCards(shops[0]!.id, [["pagarme", true], ["acq-b", true], ["sandbox", false]])
        const card = { token: yield* tokenizeCard(bearer, wantsAuthentication) }
        const buyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }
        const paid = yield* call("POST", "/api/v1/payments", { bearer, body: { amount: 30, paymentMethodId: "1004", ...buyer, card: { token: card.token } } })
        assert.strictEqual(paid.status, 201, JSON.stringify(paid.body))
        assert.deepStrictEqual(charged.map((c) => c.token), [card.token])
        const read = yield* call("GET", `/api/v1/payments/${paid.body.transactionId}`, { bearer })
        const attempts = (read.body.routing.attempts as Array<any>).map((a) => [a.provider, a.outcome, a.decline ?? a.reason ?? null])
        assert.deepStrictEqual(attempts[0], ["pagarme", "failed", "authentication_required"], JSON.stringify(read.body.routing.attempts))
        assert.deepStrictEqual(attempts.at(-1), ["acq-b", "accepted", null], JSON.stringify(read.body.routing.attempts))
        assert.include(JSON.stringify(read.body.routing.attempts), "three_d_secure_unsupported")
        assert.notInclude(JSON.stringify(read.body), wantsAuthentication)
      }))
  })
})
