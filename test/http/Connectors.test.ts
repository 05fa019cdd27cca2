/**
 * The real connectors inside the running host, configured as `CONNECTORS` configures them, each
 * against its upstream simulator over real sockets: a cascade from a failing connector to the
 * connector under test, the provider's own notification completing the payment, and a lost
 * notification recovered by the reconcile poll.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import type { ConfiguredConnector } from "../../host/Connectors.ts"
import { credentials } from "../../providers/dlocal/ConformanceHarness.ts"
import { DLocalProvider } from "../../providers/dlocal/DLocalProvider.ts"
import { DLocalSimulator } from "../../providers/dlocal/DLocalSimulator.ts"
import { EbanxProvider } from "../../providers/ebanx/EbanxProvider.ts"
import { EbanxSimulator } from "../../providers/ebanx/EbanxSimulator.ts"
import { MercadoPagoProvider } from "../../providers/mercadopago/MercadoPagoProvider.ts"
import { MercadoPagoSimulator } from "../../providers/mercadopago/MercadoPagoSimulator.ts"
import { ReferenceHttpProvider } from "../../providers/reference-http/ReferenceHttpProvider.ts"
import { UpstreamSimulator } from "../../providers/reference-http/UpstreamSimulator.ts"
import { adminToken, baseUrl, connectorInstance, createMerchant, eventually, testHost } from "../support/Host.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

/** What the test needs of one connector's simulator. */
interface Upstream {
  readonly id: string
  readonly instance: ConfiguredConnector
  /** The upstream's id of the charge the engine made for this transaction. */
  readonly chargeOf: (transactionId: string) => string | undefined
  readonly complete: (chargeId: string) => Effect.Effect<void>
  readonly dropCallbacks: (drop: boolean) => Effect.Effect<void>
  readonly setCallbackTarget: (url: string) => Effect.Effect<void>
  readonly callbackOutcomes: () => ReadonlyArray<unknown>
}

class Upstreams extends Context.Service<Upstreams, ReadonlyArray<Upstream>>()("test/ConnectorUpstreams") {}

const mercadoPago = Effect.gen(function*() {
  const secrets = { ACCESS_TOKEN: "TEST-1111-host-test-token", WEBHOOK_SECRET: "mp-host-webhook-secret" }
  const sim = yield* MercadoPagoSimulator.start({ accessToken: secrets.ACCESS_TOKEN, webhookSecret: secrets.WEBHOOK_SECRET })
  return {
    id: "mercadopago",
    instance: connectorInstance(MercadoPagoProvider.connector, { id: "mercadopago", environment: "sandbox", baseUrl: sim.baseUrl }, secrets),
    chargeOf: (transactionId) => [...sim.charges.values()].find((c) => c.reference === transactionId)?.id,
    complete: sim.complete,
    dropCallbacks: sim.dropCallbacks,
    setCallbackTarget: sim.setCallbackTarget,
    callbackOutcomes: () => sim.callbacksSent.map((c) => c.outcome)
  } satisfies Upstream
})

const dLocal = Effect.gen(function*() {
  const secrets = { LOGIN: credentials.login, TRANS_KEY: credentials.transKey, SECRET_KEY: credentials.secretKey }
  const sim = yield* DLocalSimulator.start(credentials)
  return {
    id: "dlocal",
    instance: connectorInstance(DLocalProvider.connector, { id: "dlocal", environment: "sandbox", baseUrl: sim.baseUrl }, secrets),
    chargeOf: (transactionId) => [...sim.charges.values()].find((c) => c.orderId === transactionId)?.id,
    complete: sim.complete,
    dropCallbacks: sim.dropCallbacks,
    setCallbackTarget: sim.setCallbackTarget,
    callbackOutcomes: () => sim.callbacksSent.map((c) => c.outcome)
  } satisfies Upstream
})

const ebanx = Effect.gen(function*() {
  const sim = yield* EbanxSimulator.start("ebanx-host-test-key")
  return {
    id: "ebanx",
    instance: connectorInstance(EbanxProvider.connector, { id: "ebanx", environment: "sandbox", baseUrl: sim.baseUrl }, { INTEGRATION_KEY: "ebanx-host-test-key" }),
    chargeOf: (transactionId) => [...sim.charges.values()].find((c) => c.merchantPaymentCode === transactionId)?.hash,
    complete: sim.complete,
    dropCallbacks: sim.dropCallbacks,
    setCallbackTarget: sim.setCallbackTarget,
    callbackOutcomes: () => sim.callbacksSent.map((c) => c.outcome)
  } satisfies Upstream
})

const HostWithConnectors = Layer.unwrap(Effect.gen(function*() {
  const down = yield* UpstreamSimulator.start({ apiKey: "down-key", callbackSecret: "down-secret" })
  yield* down.setMode("unavailable")
  const failing = connectorInstance(ReferenceHttpProvider.connector, { id: "failing", environment: "sandbox", baseUrl: down.baseUrl }, {
    API_KEY: "down-key",
    CALLBACK_SECRET: "down-secret"
  })
  const upstreams = [yield* mercadoPago, yield* dLocal, yield* ebanx]
  return Layer.merge(
    testHost(MemoryStore.layer, { connectors: [failing, ...upstreams.map((u) => u.instance)] }),
    Layer.succeed(Upstreams, upstreams)
  )
}))

const admin = apiAs(adminToken)

const route = (shopId: string, providerId: string, priority: number, enabled = true) =>
  Effect.flatMap(admin, (api) =>
    Effect.map(
      api.admin.putRoute({ params: { shopId, providerId }, payload: { environment: "sandbox", priority, enabled }, responseMode: "decoded-and-response" }),
      ([, response]) => response
    ))

describe("real connectors in the host", () => {
  layer(HostWithConnectors, { timeout: 60_000, excludeTestServices: true })((it) => {
    /** A shop whose cascade is the failing connector, then `upstream`. */
    const shopFor = (upstream: Upstream) =>
      Effect.gen(function*() {
        const merchant = yield* createMerchant()
        const shopId = merchant.shops[0]!.id
        assert.strictEqual((yield* route(shopId, "failing", 1)).status, 200)
        assert.strictEqual((yield* route(shopId, upstream.id, 2)).status, 200)
        assert.strictEqual((yield* route(shopId, "sandbox", 3, false)).status, 200)
        yield* upstream.dropCallbacks(false)
        yield* upstream.setCallbackTarget(`${yield* baseUrl}/api/v1/providers/${upstream.id}/callbacks`)
        const api = yield* apiAs(merchant.keys.sandbox.secretKey)
        const pay = api.payments.create({
          payload: { amount: Money.decimal("50"), paymentMethodId: "1001", userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com"), documentId: Redacted.make("52998224725") },
          headers: {},
          responseMode: "decoded-and-response"
        })
        const statusOf = (id: string) => api.payments.get({ params: { id } })
        return { pay, statusOf }
      })

    it.effect("each connector: cascade from a failing connector, then its own notification completes the payment", () =>
      Effect.gen(function*() {
        for (const upstream of yield* Upstreams) {
          const { pay, statusOf } = yield* shopFor(upstream)
          const [created, response] = yield* pay
          assert.strictEqual(response.status, 201, upstream.id)
          const detail = yield* statusOf(created.transactionId)
          assert.deepStrictEqual(detail.routing.attempts.map((a) => [a.provider, a.outcome]), [
            ["failing", "failed"],
            [upstream.id, "accepted"]
          ])
          const chargeId = upstream.chargeOf(created.transactionId)
          assert.isDefined(chargeId, `${upstream.id} holds the charge`)
          yield* upstream.complete(chargeId!)
          const done = yield* eventually(statusOf(created.transactionId), (p) => p.status !== "pending")
          assert.strictEqual(done.status, "completed", upstream.id)
          assert.strictEqual(upstream.callbackOutcomes().at(-1), 200, `${upstream.id}: the host accepted the notification`)
        }
      }))

    it.effect("each connector: a lost notification is recovered by the reconcile poll", () =>
      Effect.gen(function*() {
        for (const upstream of yield* Upstreams) {
          const { pay, statusOf } = yield* shopFor(upstream)
          const [created] = yield* pay
          yield* upstream.dropCallbacks(true)
          yield* upstream.complete(upstream.chargeOf(created.transactionId)!)
          assert.strictEqual(upstream.callbackOutcomes().at(-1), "dropped")
          assert.strictEqual((yield* statusOf(created.transactionId)).status, "pending")
          const poll = yield* (yield* admin).admin.reconcileNow()
          assert.isAtLeast(poll.moved, 1)
          assert.strictEqual((yield* statusOf(created.transactionId)).status, "completed", upstream.id)
        }
      }))

    it.effect("each connector: the catalog lists a rail routable exactly when the configured connector serves it", () =>
      Effect.gen(function*() {
        for (const upstream of yield* Upstreams) {
          const merchant = yield* createMerchant()
          const shopId = merchant.shops[0]!.id
          assert.strictEqual((yield* route(shopId, upstream.id, 1)).status, 200)
          assert.strictEqual((yield* route(shopId, "sandbox", 2, false)).status, 200)
          const listed = (yield* (yield* apiAs(merchant.keys.sandbox.secretKey)).catalog.paymentMethods({ query: {} })).methods
          const byId = (id: string) => listed.find((m) => m.paymentMethodId === id)!
          assert.deepInclude(byId("1001"), { routable: true, unroutableReason: null }, upstream.id)
          assert.deepInclude(byId("1076"), { routable: false, unroutableReason: "no_provider_for_method_region" }, `${upstream.id} does not serve Khipu`)
        }
      }))

    it.effect("a routing rule naming a connector that does not serve its rails is refused, naming the field", () =>
      Effect.gen(function*() {
        const merchant = yield* createMerchant()
        const shopId = merchant.shops[0]!.id
        const api = yield* admin
        type Rules = Parameters<typeof api.routingAdmin.putRouting>[0]["payload"]["rules"]
        const put = (rules: Rules) =>
          api.routingAdmin.putRouting({ params: { shopId }, payload: { environment: "sandbox", strategy: "health", rules }, responseMode: "decoded-and-response" })
        const firstIssue = (e: { readonly details: Record<string, unknown> }) => (e.details["issues"] as ReadonlyArray<{ path: string }>)[0]
        const bySlug = yield* refused(put([{ id: "khipu", when: { methods: ["khipu"] }, providers: ["mercadopago"] }]))
        assert.strictEqual(httpStatus[bySlug.code], 400)
        assert.deepInclude(firstIssue(bySlug), { path: "rules[0].providers[0]" })
        const byId = yield* refused(put([{ id: "khipu", when: { paymentMethodIds: ["1076"] }, split: [{ provider: "dlocal", weight: 1 }] }]))
        assert.strictEqual(httpStatus[byId.code], 400)
        assert.deepInclude(firstIssue(byId), { path: "rules[0].split[0].provider" })
        const [, fine] = yield* put([{ id: "mx-cash", when: { countries: ["MX"], methods: ["oxxo"] }, providers: ["ebanx", "dlocal", "mercadopago"] }])
        assert.strictEqual(fine.status, 200)
      }))
  })
})
