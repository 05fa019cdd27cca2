/**
 * The conformance harness of the reference HTTP provider: its upstream simulator (started afresh
 * for each test on a loopback port, the same start `Standalone.ts` serves) and the simulator's
 * moves, with a callback receiver the simulator posts to; the kit builds the plugin from the
 * simulator's credentials the way the host does. Test tooling (it starts servers), not part of
 * the plugin.
 */
import { Effect, Layer, type Scope } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import type { PaymentMethodDef } from "../../core/ports/index.ts"
import type { PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import { callbackReceiver as receiveCallbacks } from "../kit/CallbackReceiver.ts"
import { hostServices, type Simulated } from "../kit/Connector.ts"
import { accountCredentials } from "../kit/Standalone.ts"
import { defaultChargeRequest, notificationsDuring } from "../kit/ProviderConformance.ts"
import { type Options, ReferenceHttpConnector, ReferenceHttpProvider } from "./ReferenceHttpProvider.ts"
import { UpstreamSimulator } from "./UpstreamSimulator.ts"
import * as Wire from "./Wire.ts"

export const apiKey = "sk_upstream_test_Q7f2kL9xVb31"
export const callbackSecret = "whsec_upstream_test_Zr4mN8pT0c"

export const pix: PaymentMethodDef = {
  id: "1001",
  method: "pix",
  methodLabel: "PIX",
  name: "PIX",
  country: "BR",
  channel: "ONLINE",
  currencies: ["BRL"],
  currencyLimits: [{ currency: "BRL", min: "5", max: "50000" }],
  minTxUsd: null,
  maxTxUsd: null,
  fee: { percent: "1.5", flat: "0.10", currency: "USD" },
  requires: ["userName", "documentId"],
  expiresInMinutes: 30,
  settlementDays: 1,
  sandboxOnly: false,
  enabled: true,
  online: true
}

export const Crypto = Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto))
/** What the plugin needs, as the host provides it. */
export const Live = hostServices

/** The secrets the host reads, as the simulator answers them. */
const credentials = { API_KEY: apiKey, CALLBACK_SECRET: callbackSecret }

/** The upstream simulator with the test credentials. */
export const simulator = (slowMs?: number): Effect.Effect<Simulated<keyof typeof credentials, UpstreamSimulator>, never, Scope.Scope> =>
  Effect.flatMap(accountCredentials(credentials), (own) =>
    Effect.map(UpstreamSimulator.start({ apiKey: own.API_KEY, callbackSecret: own.CALLBACK_SECRET, slowMs }), (sim) => ({ simulator: sim, baseUrl: sim.baseUrl, credentials: own })))

/**
 * The plugin's options against a simulator at `baseUrl`, as the host builds them, for the tests
 * of the plugin itself: an account named `reference` that serves PIX in both environments.
 */
export const optionsFor = (baseUrl: string, overrides: Partial<Options> = {}): Options =>
  ReferenceHttpConnector.optionsFor({ baseUrl, credentials }, {
    id: "reference",
    displayName: "Reference upstream",
    environments: ["sandbox", "production"],
    supports: (method) => method.method === "pix" && method.country === "BR",
    ...overrides
  })

/** The engine's callback endpoint in miniature, verifying with this provider. */
export const callbackReceiver = (provider: PaymentProvider) => receiveCallbacks(provider.verifyCallback)

/** A simulator, the provider on it, and a callback receiver the simulator posts to. */
export const setup = (overrides: Partial<Options> = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const { simulator: sim } = yield* simulator(slowMs)
    const options = optionsFor(sim.baseUrl, overrides)
    const provider = yield* ReferenceHttpProvider.make(options)
    const receiver = yield* callbackReceiver(provider)
    yield* sim.setCallbackTarget(receiver.url)
    return { sim, options, provider, receiver }
  }).pipe(Effect.provide(Live))

const upstreamStatus = { completed: "succeeded", failed: "declined", unknown: "under_review_v2" } as const

export const harness = ReferenceHttpConnector.conformance({
  simulator: simulator(),
  invalidCredentials: { API_KEY: "sk_wrong" },
  moves: (sim, { provider }) =>
    Effect.gen(function*() {
      yield* sim.setCallbackTarget((yield* callbackReceiver(provider)).url)
      return {
        method: pix,
        chargeRequest: (transactionId) => defaultChargeRequest(provider, pix, transactionId),
        completeUpstream: sim.complete,
        failUpstream: sim.fail,
        unknownUpstream: (providerRef) => sim.setStatus(providerRef, upstreamStatus.unknown),
        arrangeDecline: (request) => Effect.as(sim.setMode("decline"), request),
        arrangeUnavailable: (request) => Effect.as(sim.setMode("unavailable"), request),
        upstreamCharges: (transactionId) =>
          Effect.sync(() => [...sim.charges.values()].filter((c) => c.reference === transactionId).length),
        callbackBody: (charge, status) =>
          JSON.stringify({ id: charge.providerRef, reference: charge.transactionId, status: upstreamStatus[status] }),
        signCallback: (rawBody, signing) =>
          Effect.map(
            signing?.wrongSecret === true
              ? Effect.succeed(UpstreamSimulator.signatureOf("whsec_someone_else", rawBody, signing.timestampSeconds ?? Math.floor(Date.now() / 1000)))
              : sim.sign(rawBody, signing?.timestampSeconds),
            (signature) => ({ [Wire.signatureHeader]: signature })
          ),
        refunds: {
          holdRefunds: sim.holdRefunds(true),
          settleRefund: (refundRef) => notificationsDuring(sim.callbacksSent, sim.settleRefund(refundRef))
        }
      }
    })
})
