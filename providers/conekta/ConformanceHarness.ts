/**
 * The conformance harness of the Conekta connector: the plugin against its simulator, started
 * afresh for each test on a loopback port. Test tooling (it starts servers), not the plugin.
 */
import { Effect, Layer, Redacted, type Scope } from "effect"
import { FetchHttpClient } from "effect/http"
import { findMethod } from "../../core/index.ts"
import type { PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import { callbackReceiver as receiveCallbacks } from "../kit/CallbackReceiver.ts"
import { type ConformanceHarness, defaultChargeRequest, notificationsDuring } from "../kit/ProviderConformance.ts"
import { ConektaProvider, type Options } from "./ConektaProvider.ts"
import { ConektaSimulator } from "./ConektaSimulator.ts"

export const privateKey = "key_test_Sim7pQ2rX9vL4mN8cB3dW6yT"

export const oxxo = findMethod("1033")!
export const spei = findMethod("1031")!

export const Live = Layer.mergeAll(FetchHttpClient.layer)

export const optionsFor = (baseUrl: string, webhookPublicKey: string, overrides: Partial<Options> = {}): Options => ({
  id: "conekta",
  environment: "sandbox",
  baseUrl,
  privateKey: Redacted.make(privateKey),
  webhookPublicKey,
  timeoutMs: 2_000,
  ...overrides
})

/** The engine's callback endpoint in miniature, verifying with this provider. */
export const callbackReceiver = (provider: PaymentProvider) => receiveCallbacks(provider.verifyCallback, "/api/v1/providers/conekta/callbacks")

/** A simulator, the provider on it, and a callback receiver the simulator's webhooks go to. */
export const setup = (overrides: Partial<Options> = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const sim = yield* ConektaSimulator.start({ privateKey, slowMs })
    const options = optionsFor(sim.baseUrl, sim.publicKeyPem, overrides)
    const provider = yield* ConektaProvider.make(options)
    const receiver = yield* callbackReceiver(provider)
    yield* sim.setWebhookUrl(receiver.url)
    return { sim, options, provider, receiver }
  }).pipe(Effect.provide(Live))

/** What the kit's statuses are as Conekta `payment_status`es. */
const statusOf = { completed: "paid", failed: "canceled", unknown: "in_review_v9" } as const

export const harness: Effect.Effect<ConformanceHarness, never, Scope.Scope> = Effect.gen(function*() {
  const sim = yield* ConektaSimulator.start({ privateKey })
  const provider = yield* ConektaProvider.make(optionsFor(sim.baseUrl, sim.publicKeyPem))
  const providerWithInvalidCredentials = yield* ConektaProvider.make(
    optionsFor(sim.baseUrl, sim.publicKeyPem, { privateKey: Redacted.make("key_test_wrong") })
  )
  const other = ConektaSimulator.makeKeyPair()
  // Conekta's webhooks go to the account's URL; here they are recorded, not delivered.
  yield* sim.setWebhookUrl("https://engine.example/api/v1/providers/conekta/callbacks")
  yield* sim.dropCallbacks(true)
  return {
    provider,
    providerWithInvalidCredentials,
    method: oxxo,
    chargeRequest: (transactionId) => defaultChargeRequest(provider, oxxo, transactionId),
    completeUpstream: sim.complete,
    failUpstream: (ref) => sim.fail(ref),
    unknownUpstream: (ref) => sim.setStatus(ref, "in_review_v9"),
    arrangeDecline: (request) => Effect.as(sim.setMode("decline"), request),
    arrangeUnavailable: (request) => Effect.as(sim.setMode("unavailable"), request),
    upstreamCharges: (transactionId) =>
      Effect.sync(() => [...sim.orders.values()].filter((o) => o.metadata["transaction_id"] === transactionId).length),
    // A Conekta event carries the whole order; the plugin still asks the API what is true now.
    callbackBody: (charge, status) => sim.eventBody(charge.providerRef, statusOf[status]),
    signCallback: (rawBody, signing) =>
      Effect.sync(() => signing?.wrongSecret === true ? ConektaSimulator.headersFor(other.privateKeyPem, rawBody) : sim.sign(rawBody)),
    refunds: {
      holdRefunds: sim.setRefundsPending(true),
      settleRefund: (refundRef) => notificationsDuring(sim.callbacksSent, sim.settleRefund(refundRef))
    }
  } satisfies ConformanceHarness
}).pipe(Effect.provide(Live))
