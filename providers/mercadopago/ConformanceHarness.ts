/**
 * The conformance harness of the Mercado Pago connector: its simulator (started afresh for each
 * test on a loopback port, the same start `Standalone.ts` serves) and the simulator's moves, with
 * a callback receiver the simulator posts to; the kit builds the plugin from the simulator's
 * credentials the way the host does. Test tooling (it starts servers), not part of the plugin.
 */
import { Effect, type Scope } from "effect"
import { findMethod } from "../../core/index.ts"
import type { PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import { callbackReceiver as receiveCallbacks } from "../kit/CallbackReceiver.ts"
import { hostServices, type Simulated } from "../kit/Connector.ts"
import { accountCredentials } from "../kit/Standalone.ts"
import { defaultChargeRequest, notificationsDuring } from "../kit/ProviderConformance.ts"
import { callbackMaxAgeSeconds, MercadoPagoConnector, MercadoPagoProvider, type Options } from "./MercadoPagoProvider.ts"
import { MercadoPagoSimulator } from "./MercadoPagoSimulator.ts"

export const accessToken = "TEST-4417295519306713-052514-3f9c2a7e1b5d8046c2e9a1f7b3d50c68-1234567890"
export const webhookSecret = "mpwh_sim_9fK2qLx7Rv3TzB8nW4cYd1"

export const pix = findMethod("1001")!
export const boleto = findMethod("1002")!
export const oxxo = findMethod("1033")!
export const pse = findMethod("1047")!

/** What the plugin needs, as the host provides it. */
export const Live = hostServices

/** The secrets the host reads, as the simulator answers them. */
const credentials = { ACCESS_TOKEN: accessToken, WEBHOOK_SECRET: webhookSecret }

/** The simulator with the test credentials. */
export const simulator = (slowMs?: number): Effect.Effect<Simulated<keyof typeof credentials, MercadoPagoSimulator>, never, Scope.Scope> =>
  Effect.flatMap(accountCredentials(credentials), (own) =>
    Effect.map(MercadoPagoSimulator.start({ accessToken: own.ACCESS_TOKEN, webhookSecret: own.WEBHOOK_SECRET, slowMs }), (sim) => ({ simulator: sim, baseUrl: sim.baseUrl, credentials: own })))

/** The plugin's options against a simulator at `baseUrl`, as the host builds them. */
export const optionsFor = (baseUrl: string, overrides: Partial<Options> = {}): Options =>
  MercadoPagoConnector.optionsFor({ baseUrl, credentials }, overrides)

/** The engine's callback endpoint in miniature, verifying with this provider. */
export const callbackReceiver = (provider: PaymentProvider) => receiveCallbacks(provider.verifyCallback, "/api/v1/providers/mercadopago/callbacks")

/** A simulator, the provider on it, and a callback receiver the simulator posts to. */
export const setup = (overrides: Partial<Options> = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const { simulator: sim } = yield* simulator(slowMs)
    const options = optionsFor(sim.baseUrl, overrides)
    const provider = yield* MercadoPagoProvider.make(options)
    const receiver = yield* callbackReceiver(provider)
    yield* sim.setCallbackTarget(receiver.url)
    return { sim, options, provider, receiver }
  }).pipe(Effect.provide(Live))

// Signed notifications (x-signature covers data.id) that the plugin then checks with a query;
// Mercado Pago retries one for up to 4 days with its first `ts`.
export const harness = MercadoPagoConnector.conformance({
  simulator: simulator(),
  invalidCredentials: { ACCESS_TOKEN: "TEST-0000-wrong" },
  suites: { callbacks: "signed-notify-then-query", callbackMaxAgeSeconds },
  moves: (sim, { provider }) =>
    Effect.gen(function*() {
      yield* sim.setCallbackTarget((yield* callbackReceiver(provider)).url)
      return {
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
      }
    })
})
