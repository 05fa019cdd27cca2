/**
 * A card rail is routable in production only where a provider serves it and the host has a card
 * vault: the engine charges cards only by the vault's tokens. Other rails, and sandbox, are as before.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { ReferenceHttpProvider } from "../../providers/reference-http/ReferenceHttpProvider.ts"
import { adminToken, connectorInstance, createMerchant, testHost } from "../support/Host.ts"
import { apiAs } from "../support/TypedApi.ts"

const production = connectorInstance(ReferenceHttpProvider.connector, { id: "ref-live", environment: "production", baseUrl: "http://127.0.0.1:9" }, {
  API_KEY: "upstream-api-key",
  CALLBACK_SECRET: "upstream-callback-secret"
})
const vault = { url: "http://127.0.0.1:9", engineKey: Redacted.make("engine-key"), sessionSecret: Redacted.make("vault-session-secret-0123456789abcdef") }

/** The production listing of a new merchant's shop routed to the production connector: Visa (1004) and PIX (1001). */
const listing = Effect.gen(function*() {
  const merchant = yield* createMerchant()
  const admin = yield* apiAs(adminToken)
  yield* admin.admin.putRoute({ params: { shopId: merchant.shops[0]!.id, providerId: "ref-live" }, payload: { environment: "production", priority: 1, enabled: true } })
  const catalog = yield* (yield* apiAs(merchant.keys.production.secretKey)).catalog.paymentMethods({ query: { country: "BR" } })
  const byId = (id: string) => catalog.methods.find((m) => m.paymentMethodId === id)!
  return { visa: byId("1004"), pix: byId("1001") }
})

describe("card rails' routability", () => {
  layer(testHost(MemoryStore.layer, { connectors: [production] }), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("without a card vault: a served card rail is not routable (card_vault_not_configured); PIX is", () =>
      Effect.gen(function*() {
        const { pix, visa } = yield* listing
        assert.deepInclude(pix, { routable: true, unroutableReason: null })
        assert.deepInclude(visa, { routable: false, unroutableReason: "card_vault_not_configured" })
      }))
  })

  layer(testHost(MemoryStore.layer, { connectors: [production], vault: Option.some(vault) }), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("with a card vault: the served card rail is routable", () =>
      Effect.gen(function*() {
        const { pix, visa } = yield* listing
        assert.deepInclude(pix, { routable: true, unroutableReason: null })
        assert.deepInclude(visa, { routable: true, unroutableReason: null })
      }))
  })
})
