/**
 * The conformance harness of the Pagar.me connector: its simulator (started afresh for each test
 * on a loopback port, the same start `Standalone.ts` serves) and the simulator's moves; the kit
 * builds the plugin from the simulator's credentials and JWKS URL the way the host does. Test
 * tooling (it starts servers), not part of the plugin.
 */
import { Effect, Redacted, type Scope } from "effect"
import { findMethod } from "../../core/index.ts"
import type { ChargeRequest, PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import { callbackReceiver as receiveCallbacks } from "../kit/CallbackReceiver.ts"
import { hostServices, type Simulated } from "../kit/Connector.ts"
import { accountCredentials } from "../kit/Standalone.ts"
import { defaultChargeRequest, notificationsDuring } from "../kit/ProviderConformance.ts"
import { type Options, PagarmeConnector, PagarmeProvider } from "./PagarmeProvider.ts"
import { PagarmeSimulator } from "./PagarmeSimulator.ts"

export const secretKey = "sk_test_4f9a2c7e1b5d8046c2e9a1f7b3d50c68"

export const pix = findMethod("1001")!
export const boleto = findMethod("1002")!
export const visa = findMethod("1004")!

/** What the plugin needs, as the host provides it. */
export const Live = hostServices

/** The secrets the host reads, as the simulator answers them. */
const credentials = { SECRET_KEY: secretKey }

/** The simulator with the test credentials; its webhooks are signed with the key its JWKS URL serves. */
export const simulator = (slowMs?: number): Effect.Effect<Simulated<keyof typeof credentials, PagarmeSimulator>, never, Scope.Scope> =>
  Effect.flatMap(accountCredentials(credentials), (own) =>
    Effect.map(
      PagarmeSimulator.start({ secretKey: own.SECRET_KEY, slowMs }),
      (sim) => ({ simulator: sim, baseUrl: sim.baseUrl, credentials: own, settings: { WEBHOOK_JWKS_URL: sim.jwksUrl } })
    ))

/** The plugin's options against a simulator at `baseUrl` with its JWKS at `jwksUrl`, as the host builds them. */
export const optionsFor = (baseUrl: string, jwksUrl: string, overrides: Partial<Options> = {}): Options =>
  PagarmeConnector.optionsFor({ baseUrl, credentials, settings: { WEBHOOK_JWKS_URL: jwksUrl } }, overrides)

/** The buyer's address the kit's default request lacks (boleto needs it). */
export const address = {
  street: "Avenida Paulista",
  number: "1578",
  district: "Bela Vista",
  city: "São Paulo",
  state: "SP",
  postalCode: "01310-200",
  country: "BR"
} as const

/** A charge request Pagar.me accepts on `method` (the kit's default, with an address). */
export const chargeRequestFor = (provider: Pick<PaymentProvider, "id">, method = pix) => (transactionId: string): ChargeRequest => {
  const request = defaultChargeRequest(provider, method, transactionId)
  return { ...request, customer: { ...request.customer, address: Redacted.make(address) } }
}

/** The engine's callback endpoint in miniature, verifying with this provider. */
export const callbackReceiver = (provider: PaymentProvider) => receiveCallbacks(provider.verifyCallback, "/api/v1/providers/pagarme/callbacks")

/** A simulator, the provider on it, and a callback receiver the simulator posts to. */
export const setup = (overrides: Partial<Options> = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const { simulator: sim } = yield* simulator(slowMs)
    const options = optionsFor(sim.baseUrl, sim.jwksUrl, overrides)
    const provider = yield* PagarmeProvider.make(options)
    const receiver = yield* callbackReceiver(provider)
    yield* sim.setCallbackTarget(receiver.url)
    return { sim, options, provider, receiver }
  }).pipe(Effect.provide(Live))

// Webhooks are signed (RS256 over the body, no signing time in it), and the plugin then asks the
// API about the charge they name: the kit's signature and notify-then-query checks apply, no age check.
export const harness = PagarmeConnector.conformance({
  simulator: simulator(),
  invalidCredentials: { SECRET_KEY: "sk_test_0000wrong" },
  suites: { callbacks: "signed-notify-then-query", timestamped: false },
  moves: (sim, { provider }) =>
    Effect.gen(function*() {
      // Webhooks go to the account's URL (a receiver verifying with the plugin), recorded and then
      // dropped: the kit signs its own.
      yield* sim.setCallbackTarget((yield* callbackReceiver(provider)).url)
      yield* sim.dropCallbacks(true)
      return {
        method: pix,
        chargeRequest: chargeRequestFor(provider),
        completeUpstream: sim.complete,
        failUpstream: (providerRef) => sim.fail(providerRef),
        unknownUpstream: (providerRef) => sim.setStatus(providerRef, "under_review_v9"),
        arrangeDecline: (request) => Effect.as(sim.setMode("decline"), request),
        arrangeUnavailable: (request) => Effect.as(sim.setMode("unavailable"), request),
        upstreamCharges: (transactionId) => Effect.sync(() => [...sim.orders.values()].filter((o) => o.code === transactionId).length),
        // A webhook carries the charge, but the plugin asks the API: the body names the charge.
        callbackBody: (charge) =>
          sim.charges.has(charge.providerRef)
            ? sim.webhookBody(charge.providerRef, "charge.paid")
            : JSON.stringify({ id: "hook_FORGED", type: "charge.paid", created_at: "2026-01-01T00:00:00", data: { id: charge.providerRef, status: "paid" } }),
        signCallback: (rawBody, signing) => Effect.sync(() => sim.sign(rawBody, { foreignKey: signing?.wrongSecret === true })),
        refunds: {
          holdRefunds: sim.setRefundsPending(true),
          settleRefund: (refundRef) => notificationsDuring(sim.callbacksSent, sim.settleRefund(refundRef))
        }
      }
    })
})
