/**
 * Card failover from a real connector: the card vault (its own service, `vault/`), Pagar.me's
 * plugin against its simulator, and a second card acquirer (an in-process test connector that
 * approves). A card Pagar.me's simulator soft-declines (issuer unavailable, ABECS `91`:
 * `providers/pagarme/SimulatorCards.ts`) is presented, by the same vault token, to the second
 * acquirer, which approves it; the payment shows Pagar.me's attempt with its normalized decline.
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

/** Pagar.me's simulator answers this card issuer unavailable (`91`), a soft decline. */
const issuerDown = "4000000000000911"

/** The tokens the second acquirer was asked to charge. */
const charged: Array<string | undefined> = []

const approving: Connector = {
  kind: "approving-card",
  secrets: [],
  paymentProvider: (settings) =>
    Effect.succeed(stubProvider(settings.id, {
      supports: (m) => m.channel === "CREDIT_CARD",
      charge: (request) =>
        Effect.sync(() => {
          charged.push(request.card?.token)
          return { providerRef: `${settings.id}_${request.transactionId}`, status: "pending" as const, paymentFormUrl: "", paymentData: {} }
        })
    }))
}

class Vault extends Context.Service<Vault, { readonly url: string }>()("test/CardFailoverPagarme/Vault") {}

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

describe("card failover from Pagar.me", () => {
  layer(HostWithPagarme, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("Pagar.me's soft decline (issuer unavailable) presents the same vault token to the next acquirer, which approves", () =>
      Effect.gen(function*() {
        const { keys, shops } = yield* createMerchant()
        const bearer = keys.sandbox.secretKey
        yield* routeCards(shops[0]!.id, [["pagarme", true], ["acq-b", true], ["sandbox", false]])
        const card = { token: yield* tokenizeCard(bearer, issuerDown) }
        const buyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }
        const paid = yield* call("POST", "/api/v1/payments", { bearer, body: { amount: 30, paymentMethodId: "1004", ...buyer, card: { token: card.token } } })
        assert.strictEqual(paid.status, 201, JSON.stringify(paid.body))
        assert.deepStrictEqual(charged, [card.token])
        const read = yield* call("GET", `/api/v1/payments/${paid.body.transactionId}`, { bearer })
        assert.deepStrictEqual((read.body.routing.attempts as Array<any>).map((a) => [a.provider, a.outcome, a.decline]), [
          ["pagarme", "failed", "issuer_unavailable"],
          ["acq-b", "accepted", null]
        ])
        assert.notInclude(JSON.stringify(read.body), issuerDown)
      }))
  })
})
