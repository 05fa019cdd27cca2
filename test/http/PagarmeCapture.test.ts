/**
 * Authorize on Pagar.me, capture later, through the API as a merchant calls it: the card vault
 * (its own service, `vault/`), Pagar.me's plugin against its simulator (`auth_only`,
 * `POST /charges/{id}/capture`, `DELETE /charges/{id}`: `providers/pagarme/CardCapture.ts`). What
 * Pagar.me holds is read back from the simulator's own API (`GET /orders?code=`), as Pagar.me
 * would answer it.
 */
import { assert, describe, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer, Option, Redacted } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { readConnectors } from "../../host/Connectors.ts"
import { secretKey } from "../../providers/pagarme/ConformanceHarness.ts"
import pagarme from "../../providers/pagarme/Standalone.ts"
import { startForTest } from "../../vault/index.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"
import { routeCards, tokenizeCard } from "../support/Cards.ts"
import { testConfig as vaultConfig } from "../vault/VaultFixtures.ts"

class Upstream extends Context.Service<Upstream, { readonly baseUrl: string }>()("test/PagarmeCapture/Upstream") {}

const sessionSecret = "session-secret-for-tests-0123456789abcdef"

const HostWithPagarme = Layer.unwrap(Effect.gen(function*() {
  const sim = yield* pagarme.start
  const env: Record<string, string> = { ...Object.fromEntries(sim.environment), CONNECTORS: "pagarme" }
  const vault = yield* startForTest(vaultConfig({ forwardHosts: [new URL(env["PAGARME_BASE_URL"]!).host], allowHttpLoopback: true, sessionSecret: Redacted.make(sessionSecret) }))
  const connectors = yield* readConnectors().pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)))
  return Layer.merge(
    testHost(MemoryStore.layer, {
      connectors,
      vault: Option.some({ url: vault.url, engineKey: Redacted.make(vault.engineKey), sessionSecret: Redacted.make(sessionSecret) })
    }),
    Layer.succeed(Upstream, { baseUrl: env["PAGARME_BASE_URL"]! })
  )
}))

const buyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }

/** The order Pagar.me holds for a payment, as its API answers it. */
const upstreamCharge = (transactionId: string) =>
  Effect.gen(function*() {
    const { baseUrl } = yield* Upstream
    return yield* Effect.promise(async () => {
      const answer = await fetch(`${baseUrl}/orders?code=${encodeURIComponent(transactionId)}`, {
        headers: { authorization: `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}` }
      })
      const list = await answer.json() as { data: Array<{ charges: Array<{ id: string; status: string; paid_amount?: number; last_transaction: { status: string } }> }> }
      return list.data[0]!.charges[0]!
    })
  })

/** A merchant routed to Pagar.me only, and an authorization of a new card token (`4000000000000010`, approved). */
const authorizeOnPagarme = (amount: number) =>
  Effect.gen(function*() {
    const { keys, shops } = yield* createMerchant()
    const bearer = keys.sandbox.secretKey
    yield* routeCards(shops[0]!.id, [["pagarme", true], ["sandbox", false]], { static: false })
    const card = { token: yield* tokenizeCard(bearer, "4000000000000010") }
    const created = yield* call("POST", "/api/v1/payments", { bearer, body: { amount, paymentMethodId: "1004", ...buyer, capture: false, card: { token: card.token } } })
    assert.strictEqual(created.status, 201, JSON.stringify(created.body))
    return { bearer, created: created.body }
  })

describe("authorize on Pagar.me, capture later", () => {
  layer(HostWithPagarme, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("capture:false is authorized on Pagar.me (held 4 days); a partial capture completes it for what was captured, once per key", () =>
      Effect.gen(function*() {
        const { bearer, created } = yield* authorizeOnPagarme(30)
        assert.strictEqual(created.status, "authorized")
        const id = created.transactionId as string
        const read = yield* call("GET", `/api/v1/payments/${id}`, { bearer })
        assert.strictEqual(read.body.status, "authorized")
        const heldMs = Date.parse(created.authorizationExpiresAt) - Date.parse(read.body.timestamps.created)
        assert.isTrue(heldMs >= 4 * 86_400_000 && heldMs < 4 * 86_400_000 + 60_000, String(heldMs))
        const held = yield* upstreamCharge(id)
        assert.deepStrictEqual([held.status, held.last_transaction.status], ["pending", "authorized_pending_capture"])

        const authorizedLocal = Number(created.amountLocal)
        const half = Math.floor(authorizedLocal * 50) / 100
        const captured = yield* call("POST", `/api/v1/payments/${id}/capture`, { bearer, body: { amount: half }, headers: { "idempotency-key": `cap-${id}` } })
        assert.strictEqual(captured.status, 200, JSON.stringify(captured.body))
        assert.deepStrictEqual([captured.body.status, captured.body.amountLocal, captured.body.authorization.amountLocal], ["completed", half, created.amountLocal])
        const again = yield* call("POST", `/api/v1/payments/${id}/capture`, { bearer, body: { amount: half }, headers: { "idempotency-key": `cap-${id}` } })
        assert.deepStrictEqual(again.body, captured.body)
        const paid = yield* upstreamCharge(id)
        assert.deepStrictEqual([paid.status, paid.paid_amount, paid.last_transaction.status], ["paid", Math.round(half * 100), "captured"])
      }))

    it.effect("a void releases the authorization on Pagar.me (charge canceled, transaction voided); the payment is voided", () =>
      Effect.gen(function*() {
        const { bearer, created } = yield* authorizeOnPagarme(20)
        const id = created.transactionId as string
        const voided = yield* call("POST", `/api/v1/payments/${id}/void`, { bearer, headers: { "idempotency-key": `void-${id}` } })
        assert.strictEqual(voided.status, 200, JSON.stringify(voided.body))
        assert.strictEqual(voided.body.status, "voided")
        const released = yield* upstreamCharge(id)
        assert.deepStrictEqual([released.status, released.last_transaction.status, released.paid_amount ?? 0], ["canceled", "voided", 0])
      }))
  })
})
