/**
 * The payout conformance harness of the dLocal payout connector: the plugin against its
 * simulator, started afresh for each test. Test tooling (it starts servers), not the plugin.
 */
import { Effect, Layer, Redacted, type Scope } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { FetchHttpClient } from "effect/http"
import { payoutMethods } from "../../core/index.ts"
import type { PayoutHarness } from "../kit/PayoutConformance.ts"
import { makePayouts, type PayoutOptions } from "./Payouts.ts"
import { PayoutsSimulator } from "./PayoutsSimulator.ts"

export const credentials = {
  clientId: "dl_client_7Tq2Wm",
  clientSecret: "dl_client_secret_Kp4xR9vB",
  login: "dl_login_4Qm2",
  secretKey: "dl_secret_Hq8vN3pW"
}

export const Live = Layer.mergeAll(FetchHttpClient.layer, Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto)))

export const spei = payoutMethods.find((m) => m.id === "po_mx_spei")!

export const optionsFor = (baseUrl: string, overrides: Partial<PayoutOptions> = {}): PayoutOptions => ({
  id: "dlocal",
  environment: "production",
  baseUrl,
  clientId: Redacted.make(credentials.clientId),
  clientSecret: Redacted.make(credentials.clientSecret),
  login: Redacted.make(credentials.login),
  secretKey: Redacted.make(credentials.secretKey),
  timeoutMs: 2_000,
  ...overrides
})

export const payoutsHarness: Effect.Effect<PayoutHarness, never, Scope.Scope> = Effect.gen(function*() {
  const sim = yield* PayoutsSimulator.start(credentials)
  yield* sim.dropCallbacks(true)
  const provider = yield* makePayouts(optionsFor(sim.baseUrl))
  const providerWithInvalidCredentials = yield* makePayouts(optionsFor(sim.baseUrl, { clientSecret: Redacted.make("dl_client_secret_wrong") }))
  const body = (ref: { readonly providerRef: string; readonly payoutId: string }, status: string) =>
    JSON.stringify({ id: ref.providerRef, external_id: ref.payoutId, status, status_code: "0", status_detail: status })
  return {
    provider,
    providerWithInvalidCredentials,
    method: spei,
    sendRequest: (payoutId) => ({
      payoutId,
      idempotencyKey: payoutId,
      method: spei,
      amount: "1500.50",
      currency: "MXN",
      recipient: { name: "María José Pérez", documentId: "PEMJ800101HDFRRR09", documentType: "CURP", account: "002010077777777771" },
      callbackUrl: "https://engine.example/api/v1/providers/dlocal/payout-callbacks"
    }),
    completeUpstream: sim.complete,
    failUpstream: sim.fail,
    unknownUpstream: (ref) => sim.setStatus(ref, "UNDER_REVIEW_V4"),
    arrangeReject: (request) => Effect.succeed({ ...request, recipient: { ...request.recipient, account: PayoutsSimulator.rejectedAccount } }),
    arrangeUnavailable: (request) => Effect.as(sim.setMode("unavailable"), request),
    upstreamPayouts: (payoutId) => Effect.sync(() => [...sim.payouts.values()].filter((p) => p.external_id === payoutId).length),
    callbackBody: (ref, status) => body(ref, status === "completed" ? "PAID" : status === "failed" ? "REJECTED" : "UNDER_REVIEW_V4"),
    signCallback: (rawBody, options) =>
      Effect.sync(() => {
        const date = new Date((options?.timestampSeconds ?? Math.floor(Date.now() / 1000)) * 1000).toISOString()
        const signer = options?.wrongSecret === true ? { ...credentials, secretKey: "someone_else" } : credentials
        return { "content-type": "application/json", "x-date": date, authorization: PayoutsSimulator.authorizationOf(signer, date, rawBody) }
      })
  } satisfies PayoutHarness
}).pipe(Effect.provide(Live))
