/**
 * The conformance harness of the dLocal pay-in connector: the plugin against its simulator,
 * started afresh for each test on a loopback port. Test tooling (it starts servers), not the plugin.
 */
import { Effect, Layer, Redacted, type Scope } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { FetchHttpClient } from "effect/http"
import { findMethod } from "../../core/index.ts"
import { type ConformanceHarness, defaultChargeRequest, notificationsDuring } from "../kit/ProviderConformance.ts"
import { make, type Options } from "./DLocalProvider.ts"
import { DLocalSimulator } from "./DLocalSimulator.ts"
import { notificationHeaders } from "./SimulatorSigning.ts"

export const credentials = { login: "dl_login_8Jc3", transKey: "dl_trans_Vb52Qx", secretKey: "dl_secret_Tz7mK4pA" }

export const Live = Layer.mergeAll(FetchHttpClient.layer, Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto)))

export const pix = findMethod("1001")!

export const optionsFor = (baseUrl: string, overrides: Partial<Options> = {}): Options => ({
  id: "dlocal",
  environment: "sandbox",
  baseUrl,
  login: Redacted.make(credentials.login),
  transKey: Redacted.make(credentials.transKey),
  secretKey: Redacted.make(credentials.secretKey),
  timeoutMs: 2_000,
  ...overrides
})

const upstreamStatus = { completed: "PAID", failed: "REJECTED", unknown: "UNDER_REVIEW_V7" } as const

export const harness: Effect.Effect<ConformanceHarness, never, Scope.Scope> = Effect.gen(function*() {
  const sim = yield* DLocalSimulator.start(credentials)
  // Notifications go to the engine's callback URL, which does not exist here: the kit signs its own.
  yield* sim.dropCallbacks(true)
  const provider = yield* make(optionsFor(sim.baseUrl))
  const providerWithInvalidCredentials = yield* make(optionsFor(sim.baseUrl, { transKey: Redacted.make("dl_trans_wrong") }))
  return {
    provider,
    providerWithInvalidCredentials,
    method: pix,
    chargeRequest: (transactionId) => defaultChargeRequest(provider, pix, transactionId),
    completeUpstream: sim.complete,
    failUpstream: sim.fail,
    unknownUpstream: (ref) => sim.setStatus(ref, upstreamStatus.unknown),
    arrangeDecline: (request) => Effect.as(sim.setMode("decline"), request),
    arrangeUnavailable: (request) => Effect.as(sim.setMode("unavailable"), request),
    upstreamCharges: (transactionId) => Effect.sync(() => [...sim.charges.values()].filter((c) => c.orderId === transactionId).length),
    callbackBody: (charge, status) =>
      JSON.stringify({ id: charge.providerRef, order_id: charge.transactionId, status: upstreamStatus[status], status_detail: status }),
    signCallback: (rawBody, signing) =>
      Effect.sync(() => {
        const date = new Date((signing?.timestampSeconds ?? Math.floor(Date.now() / 1000)) * 1000).toISOString()
        const signer = signing?.wrongSecret === true ? { ...credentials, secretKey: "someone_else" } : credentials
        return notificationHeaders(signer, rawBody, date)
      }),
    refunds: {
      holdRefunds: sim.setRefundMode("pending"),
      settleRefund: (refundRef) => notificationsDuring(sim.callbacksSent, sim.settleRefund(refundRef))
    }
  } satisfies ConformanceHarness
}).pipe(Effect.provide(Live))
