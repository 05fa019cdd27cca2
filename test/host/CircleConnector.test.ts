/**
 * The Circle settlement payout connector in the reference host, configured as `CONNECTORS` and
 * its variables configure it, against the Circle simulator over real sockets: the host starts,
 * the instance is registered in `SettlementPayoutProviders` for its own environment and chains
 * only, and a payout through the registry reaches Circle with the configured key and wallet.
 * A missing wallet or key stops the host at start; the environment `npm run simulator -- circle`
 * prints configures a working instance.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { BigDecimal, ConfigProvider, Context, Effect, Layer } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { SettlementPayoutProviders } from "../../core/ports/SettlementPayoutProvider.ts"
import { HostConfig } from "../../host/Config.ts"
import { knownConnectors, settlementPayoutProvidersLayer } from "../../host/Connectors.ts"
import { idempotencyKeyOf } from "../../providers/circle/CirclePayouts.ts"
import { CircleSimulator } from "../../providers/circle/CircleSimulator.ts"
import CircleStandalone from "../../providers/circle/Standalone.ts"
import { adminToken, call, createMerchant, testHost } from "../support/Host.ts"

const credentials = { apiKey: "SAND_API_KEY:host-test:4d1c8b2a9e7f", walletId: "1000216185" }
const address = "0x8381470ED67C3802402dbbFa0058E8871F017A6F"

class Upstream extends Context.Service<Upstream, CircleSimulator>()("test/host/CircleUpstream") {}

const withEnv = (env: Record<string, string>) => Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env))

/** The variables of a `circle-sandbox` instance against `sim`, as an operator would set them. */
const circleSandboxEnv = (sim: CircleSimulator): Record<string, string> => ({
  CONNECTORS: "circle-sandbox=circle",
  CIRCLE_SANDBOX_ENVIRONMENT: "sandbox",
  CIRCLE_SANDBOX_BASE_URL: sim.baseUrl,
  CIRCLE_SANDBOX_TIMEOUT_MS: "2000",
  CIRCLE_SANDBOX_API_KEY: credentials.apiKey,
  CIRCLE_SANDBOX_WALLET_ID: credentials.walletId,
  CIRCLE_SANDBOX_CHAINS: "ETH, SOL",
  CIRCLE_SANDBOX_SNS_CERT_URL_PREFIX: sim.certUrlPrefix
})

const HostWithCircle = Layer.unwrap(Effect.gen(function*() {
  const sim = yield* CircleSimulator.start(credentials)
  const config = yield* HostConfig.pipe(withEnv(circleSandboxEnv(sim)))
  return Layer.merge(testHost(MemoryStore.layer, { connectors: config.connectors }), Layer.succeed(Upstream, sim))
}))

describe("Circle connector in the host", () => {
  layer(HostWithCircle, { timeout: 20_000, excludeTestServices: true })((it) => {
    it.effect("CONNECTORS=circle-sandbox=circle: the host starts with Circle registered for sandbox ETH and SOL only", () =>
      Effect.gen(function*() {
        const merchant = yield* createMerchant()
        assert.strictEqual((yield* call("GET", "/api/v1/me", { bearer: merchant.keys.sandbox.secretKey })).status, 200, "the host serves")
        const registry = yield* SettlementPayoutProviders
        const circle = registry.forChain("sandbox", "ETH")
        assert.strictEqual(circle?.id, "circle-sandbox")
        assert.deepStrictEqual([circle?.environments, circle?.chains], [["sandbox"], ["ETH", "SOL"]])
        assert.strictEqual(registry.forChain("sandbox", "SOL")?.id, "circle-sandbox")
        assert.strictEqual(registry.byId("circle-sandbox"), circle)
        assert.isUndefined(registry.forChain("production", "ETH"), "a sandbox account never pays production batches")
        assert.isUndefined(registry.forChain("sandbox", "BASE"), "a chain outside CIRCLE_SANDBOX_CHAINS")
      }))

    it.effect("a schedule to an ETH address: entered in Circle's address book and shown pending; closes keep the batch open until the administrator approves it, then pay it", () =>
      Effect.gen(function*() {
        const sim = yield* Upstream
        const m = yield* createMerchant()
        const shopId = m.shops[0]!.id as string
        const sk = m.keys.sandbox.secretKey as string
        const payee = "0x4444444444444444444444444444444444444444"
        const schedulePath = `/admin/v1/shops/${shopId}/settlement-schedule?environment=sandbox`
        const put = (address: string) =>
          call("PUT", schedulePath, { bearer: adminToken, body: { frequency: "daily", time: "00:00", destination: { kind: "usdc", chain: "ETH", address } } })
        const set = yield* put(payee)
        assert.strictEqual(set.status, 200, JSON.stringify(set.body))
        assert.deepInclude(set.body.destinationApproval, { provider: "circle-sandbox", status: "pending", detail: "pending_verification" })
        const reference = set.body.destinationApproval.reference as string
        assert.strictEqual(sim.recipients.get(reference)?.address, payee)

        assert.strictEqual((yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 100 } })).status, 200)
        const advanceDay = call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 86_400 } })
        const toPayee = () => [...sim.transfers.values()].filter((t) => t.destination["address"] === payee)
        assert.strictEqual((yield* advanceDay).status, 200)
        const held = (yield* call("GET", "/api/v1/me/settlements", { bearer: sk })).body.data as ReadonlyArray<{ status: string }>
        assert.deepStrictEqual(held.map((b) => b.status), ["open"], "not approved: the close keeps the batch open")
        assert.strictEqual(toPayee().length, 0, "nothing sent")
        assert.strictEqual((yield* call("GET", schedulePath, { bearer: adminToken })).body.destinationApproval.status, "pending")

        yield* sim.approveAddress(reference)
        assert.deepInclude((yield* call("GET", schedulePath, { bearer: adminToken })).body.destinationApproval, { status: "approved", reference, detail: "active" })
        assert.strictEqual((yield* advanceDay).status, 200)
        const paying = (yield* call("GET", "/api/v1/me/settlements", { bearer: sk })).body.data as ReadonlyArray<{ status: string; net: number }>
        assert.deepStrictEqual(paying.map((b) => b.status), ["open", "paying"])
        assert.strictEqual(toPayee().length, 1)
        assert.deepInclude(JSON.parse(toPayee()[0]!.rawBody), { destination: { type: "verified_blockchain", addressId: reference }, amount: { amount: "100.00", currency: "USD" } })

        // An address Circle will not enter: refused, nothing saved.
        const refused = yield* put("0x12345678")
        assert.strictEqual(refused.status, 422, JSON.stringify(refused.body))
        assert.deepInclude(refused.body.error, { code: "settlement_destination_refused" })
        assert.strictEqual((yield* call("GET", schedulePath, { bearer: adminToken })).body.destination.address, payee)
      }))

    it.effect("a payout through the registry reaches Circle with the configured key and wallet", () =>
      Effect.gen(function*() {
        const sim = yield* Upstream
        const circle = (yield* SettlementPayoutProviders).forChain("sandbox", "ETH")!
        const entry = yield* circle.destination!("sandbox", { chain: "ETH", address })
        assert.deepInclude(entry, { status: "pending", detail: "pending_verification" })
        yield* sim.approveAddress(entry.reference!)
        const sent = yield* circle.send({
          batchId: "STL-host-1",
          idempotencyKey: "STL-host-1:circle-sandbox",
          environment: "sandbox",
          amountUsd: BigDecimal.fromStringUnsafe("250.5"),
          destination: { chain: "ETH", address }
        })
        assert.deepInclude(sent, { batchId: "STL-host-1", status: "pending" })
        const transfer = sim.transfers.get(sent.providerRef)!
        assert.deepStrictEqual(JSON.parse(transfer.rawBody), {
          idempotencyKey: yield* idempotencyKeyOf("STL-host-1:circle-sandbox"),
          source: { type: "wallet", id: credentials.walletId },
          destination: { type: "verified_blockchain", addressId: entry.reference },
          amount: { amount: "250.50", currency: "USD" }
        })
        assert.isTrue(sim.calls.every((c) => c.accepted), "the configured API key is accepted")
        yield* sim.complete(sent.providerRef, "0xabc")
        assert.deepInclude(yield* circle.status(sent.providerRef), { status: "complete", transactionHash: "0xabc" })
      }))
  })

  it.live("a missing WALLET_ID or API_KEY stops the host at start, naming the variable (never a value)", () =>
    Effect.scoped(Effect.gen(function*() {
      const sim = yield* CircleSimulator.start(credentials)
      const env = circleSandboxEnv(sim)
      const failure = (drop: string) => {
        const { [drop]: _dropped, ...rest } = env
        return HostConfig.pipe(withEnv(rest), Effect.flip, Effect.map((e) => String(e.message)))
      }
      const noWallet = yield* failure("CIRCLE_SANDBOX_WALLET_ID")
      assert.include(noWallet, "CIRCLE_SANDBOX_WALLET_ID")
      assert.notInclude(noWallet, credentials.apiKey)
      assert.include(yield* failure("CIRCLE_SANDBOX_API_KEY"), "CIRCLE_SANDBOX_API_KEY")
      assert.include(yield* HostConfig.pipe(withEnv({ ...env, CIRCLE_SANDBOX_WALLET_ID: " " }), Effect.flip, Effect.map((e) => String(e.message))), "CIRCLE_SANDBOX_WALLET_ID")
    })))

  it.live("an instance registers for its own environment only; no Circle instance, no settlement payout provider", () =>
    Effect.gen(function*() {
      const sim = yield* CircleSimulator.start(credentials)
      const env = {
        ...circleSandboxEnv(sim),
        CONNECTORS: "circle-sandbox=circle,circle-live=circle",
        CIRCLE_LIVE_ENVIRONMENT: "production",
        CIRCLE_LIVE_BASE_URL: sim.baseUrl,
        CIRCLE_LIVE_API_KEY: credentials.apiKey,
        CIRCLE_LIVE_WALLET_ID: credentials.walletId,
        SANDBOX_CALLBACK_SECRET: "circle-test-sandbox-callback-secret",
        DEPOSIT_CALLBACK_SECRET: "circle-test-deposit-callback-secret"
      }
      const config = yield* HostConfig.pipe(withEnv(env))
      const registry = yield* Effect.provide(Effect.service(SettlementPayoutProviders), settlementPayoutProvidersLayer(config.connectors))
      assert.strictEqual(registry.forChain("sandbox", "ETH")?.id, "circle-sandbox")
      assert.strictEqual(registry.forChain("production", "ETH")?.id, "circle-live")
      assert.deepStrictEqual(registry.byId("circle-live")?.environments, ["production"])
      assert.strictEqual(registry.forChain("production", "BASE")?.id, "circle-live", "every chain Circle names without CHAINS")
      assert.isUndefined(registry.forChain("sandbox", "BASE"))
      const none = yield* Effect.provide(Effect.service(SettlementPayoutProviders), settlementPayoutProvidersLayer([]))
      assert.isUndefined(none.forChain("production", "ETH"))
      assert.include(knownConnectors.map((c) => c.kind), "circle")
    }).pipe(Effect.scoped))

  it.live("the environment `npm run simulator -- circle` prints configures a working instance", () =>
    Effect.gen(function*() {
      const started = yield* CircleStandalone.start
      const env = Object.fromEntries(started.environment)
      assert.deepStrictEqual(Object.keys(env), [
        "CONNECTORS",
        "CIRCLE_ENVIRONMENT",
        "CIRCLE_BASE_URL",
        "CIRCLE_API_KEY",
        "CIRCLE_WALLET_ID",
        "CIRCLE_SNS_CERT_URL_PREFIX"
      ])
      const config = yield* HostConfig.pipe(withEnv(env))
      const registry = yield* Effect.provide(Effect.service(SettlementPayoutProviders), settlementPayoutProvidersLayer(config.connectors))
      const circle = registry.forChain("sandbox", "ETH")!
      const entry = yield* circle.destination!("sandbox", { chain: "ETH", address })
      assert.strictEqual(entry.status, "pending")
      yield* started.routes!["POST /_simulator/addresses/:id/approve"]!(entry.reference!, {})
      assert.strictEqual((yield* circle.destination!("sandbox", { chain: "ETH", address })).status, "approved")
      const sent = yield* circle.send({
        batchId: "STL-standalone",
        idempotencyKey: "STL-standalone:circle",
        environment: "sandbox",
        amountUsd: BigDecimal.fromStringUnsafe("1"),
        destination: { chain: "ETH", address }
      })
      assert.strictEqual(sent.status, "pending")
      assert.deepStrictEqual(Object.keys(started.routes ?? {}).sort(), [
        "POST /_simulator/addresses/:id/approve",
        "POST /_simulator/addresses/:id/deny",
        "POST /_simulator/addresses/auto-approve",
        "POST /_simulator/mode",
        "POST /_simulator/subscribe",
        "POST /_simulator/transfers/:id/complete",
        "POST /_simulator/transfers/:id/fail",
        "POST /_simulator/transfers/auto-complete"
      ])
      yield* started.routes!["POST /_simulator/transfers/:id/complete"]!(sent.providerRef, {})
      assert.strictEqual((yield* circle.status(sent.providerRef)).status, "complete")
    }).pipe(Effect.scoped))
})
