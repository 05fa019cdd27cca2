/**
 * The conformance harness of the Mercado Pago connector: the plugin against its simulator, started
 * afresh for each test on a loopback port, with a callback receiver the simulator posts to. Test
 * tooling (it starts servers), not part of the plugin.
 */
import { Effect, Layer, Redacted, type Scope } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { FetchHttpClient } from "effect/http"
import { findMethod } from "../../core/index.ts"
import type { PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import { callbackReceiver as receiveCallbacks } from "../kit/CallbackReceiver.ts"
import { type ConformanceHarness, defaultChargeRequest, notificationsDuring } from "../kit/ProviderConformance.ts"
import { MercadoPagoProvider, type Options } from "./MercadoPagoProvider.ts"
import { MercadoPagoSimulator } from "./MercadoPagoSimulator.ts"

export const accessToken = "TEST-4417295519306713-052514-3f9c2a7e1b5d8046c2e9a1f7b3d50c68-1234567890"
export const webhookSecret = "mpwh_sim_9fK2qLx7Rv3TzB8nW4cYd1"

export const pix = findMethod("1001")!
export const boleto = findMethod("1002")!
export const oxxo = findMethod("1033")!
export const pse = findMethod("1047")!

export const Crypto = Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto))
export const Live = Layer.mergeAll(FetchHttpClient.layer, Crypto)

export const optionsFor = (baseUrl: string, overrides: Partial<Options> = {}): Options => ({
  id: "mercadopago",
  environment: "sandbox",
  baseUrl,
  accessToken: Redacted.make(accessToken),
  webhookSecret: Redacted.make(webhookSecret),
  timeoutMs: 2_000,
  ...overrides
})

/** The engine's callback endpoint in miniature, verifying with this provider. */
export const callbackReceiver = (provider: PaymentProvider) => receiveCallbacks(provider.verifyCallback, "/api/v1/providers/mercadopago/callbacks")

/** A simulator, the provider on it, and a callback receiver the simulator posts to. */
export const setup = (overrides: Partial<Options> = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const sim = yield* MercadoPagoSimulator.start({ accessToken, webhookSecret, slowMs })
    const options = optionsFor(sim.baseUrl, overrides)
    const provider = yield* MercadoPagoProvider.make(options)
    const receiver = yield* callbackReceiver(provider)
    yield* sim.setCallbackTarget(receiver.url)
    return { sim, options, provider, receiver }
  }).pipe(Effect.provide(Live))

export const harness: Effect.Effect<ConformanceHarness, never, Scope.Scope> = Effect.gen(function*() {
  const { options, provider, sim } = yield* setup()
  const providerWithInvalidCredentials = yield* MercadoPagoProvider.make({ ...options, accessToken: Redacted.make("TEST-0000-wrong") })
  return {
    provider,
    providerWithInvalidCredentials,
    method: pix,
    chargeRequest: (transactionId) => defaultChargeRequest(provider, pix, transactionId),
    completeUpstream: sim.complete,
    failUpstream: sim.fail,
    unknownUpstream: (providerRef) => sim.setStatus(providerRef, "in_review_v2"),
    arrangeDecline: (request) => Effect.as(sim.setMode("decline"), request),
    arrangeUnavailable: (request) => Effect.as(sim.setMode("unavailable"), request),
    upstreamCharges: (transactionId) =>
      Effect.sync(() => [...sim.charges.values()].filter((p) => p.reference === transactionId).length),
    // A notification names the payment and carries no status: the plugin asks the API.
    callbackBody: (charge) => sim.notificationBody(charge.providerRef),
    signCallback: (rawBody, signing) =>
      signing?.wrongSecret === true
        ? Effect.sync(() =>
          MercadoPagoSimulator.headersFor("mpwh_someone_else", rawBody, signing.timestampSeconds ?? Math.floor(Date.now() / 1000))
        )
        : sim.sign(rawBody, signing?.timestampSeconds),
    refunds: {
      holdRefunds: sim.setRefundsPending(true),
      settleRefund: (refundRef) => notificationsDuring(sim.callbacksSent, sim.settleRefund(refundRef))
    }
  } satisfies ConformanceHarness
}).pipe(Effect.provide(Live))
