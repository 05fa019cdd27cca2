/**
 * The conformance harness of the EBANX connector: the plugin against its simulator, started
 * afresh for each test on a loopback port. Test tooling (it starts servers), not the plugin.
 */
import { Effect, Layer, Redacted, type Scope } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { FetchHttpClient } from "effect/http"
import { findMethod } from "../../core/index.ts"
import { type ConformanceHarness, defaultChargeRequest, notificationsDuring } from "../kit/ProviderConformance.ts"
import { make, type Options } from "./EbanxProvider.ts"
import { EbanxSimulator } from "./EbanxSimulator.ts"

export const integrationKey = "test_ik_Xw3Lm9Qa2Vr7Nc5Bt8Yd"

/** What the plugin needs: an HTTP client, and HMAC (its `merchant_refund_code`s). */
export const Live = Layer.mergeAll(FetchHttpClient.layer, Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto)))

export const pix = findMethod("1001")!

export const optionsFor = (baseUrl: string, overrides: Partial<Options> = {}): Options => ({
  id: "ebanx",
  environment: "sandbox",
  baseUrl,
  integrationKey: Redacted.make(integrationKey),
  timeoutMs: 2_000,
  ...overrides
})

export const harness: Effect.Effect<ConformanceHarness, never, Scope.Scope> = Effect.gen(function*() {
  const sim = yield* EbanxSimulator.start(integrationKey)
  // Notifications go to the engine's callback URL, which does not exist here: the kit sends its own.
  yield* sim.dropCallbacks(true)
  const provider = yield* make(optionsFor(sim.baseUrl))
  const providerWithInvalidCredentials = yield* make(optionsFor(sim.baseUrl, { integrationKey: Redacted.make("test_ik_wrong") }))
  return {
    provider,
    providerWithInvalidCredentials,
    method: pix,
    chargeRequest: (transactionId) => defaultChargeRequest(provider, pix, transactionId),
    completeUpstream: sim.complete,
    failUpstream: (ref, reason) => sim.fail(ref, reason),
    unknownUpstream: (ref) => sim.setStatus(ref, "XN"),
    arrangeDecline: (request) => Effect.as(sim.setMode("decline"), request),
    arrangeUnavailable: (request) => Effect.as(sim.setMode("unavailable"), request),
    upstreamCharges: (transactionId) =>
      Effect.sync(() => [...sim.charges.values()].filter((c) => c.merchantPaymentCode === transactionId).length),
    // EBANX's notification names the payment only: its status is whatever the query answers.
    callbackBody: (charge) => EbanxSimulator.notificationBody([charge.providerRef]),
    signCallback: () => Effect.succeed({ "content-type": "application/x-www-form-urlencoded" }),
    refunds: {
      holdRefunds: sim.setRefundMode("pending"),
      settleRefund: (refundRef) => notificationsDuring(sim.callbacksSent, sim.settleRefund(refundRef))
    }
  } satisfies ConformanceHarness
}).pipe(Effect.provide(Live))
