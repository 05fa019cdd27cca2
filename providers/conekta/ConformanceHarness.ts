/**
 * The conformance harness of the Conekta connector: its simulator (started afresh for each test
 * on a loopback port, the same start `Standalone.ts` serves) and the simulator's moves; the kit
 * builds the plugin from the simulator's credentials and webhook key the way the host does. Test
 * tooling (it starts servers), not the plugin.
 */
import { Effect, type Scope } from "effect"
import { findMethod } from "../../core/index.ts"
import type { PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import { callbackReceiver as receiveCallbacks } from "../kit/CallbackReceiver.ts"
import { hostServices, type Simulated } from "../kit/Connector.ts"
import { accountCredentials } from "../kit/Standalone.ts"
import { defaultChargeRequest, notificationsDuring } from "../kit/ProviderConformance.ts"
import { ConektaConnector, ConektaProvider, type Options } from "./ConektaProvider.ts"
import { ConektaSimulator } from "./ConektaSimulator.ts"

export const privateKey = "key_test_Sim7pQ2rX9vL4mN8cB3dW6yT"

export const oxxo = findMethod("1033")!
export const spei = findMethod("1031")!

/** What the plugin needs, as the host provides it. */
export const Live = hostServices

/** The secrets the host reads, as the simulator answers them. */
const credentials = { PRIVATE_KEY: privateKey }

/**
 * The simulator with the test credentials; its webhooks are signed with the key pair whose public
 * PEM it gives, in the one line an environment variable holds (`\n` for each line break).
 */
export const simulator = (slowMs?: number): Effect.Effect<Simulated<keyof typeof credentials, ConektaSimulator>, never, Scope.Scope> =>
  Effect.flatMap(accountCredentials(credentials), (own) =>
    Effect.map(ConektaSimulator.start({ privateKey: own.PRIVATE_KEY, slowMs }), (sim) => ({
      simulator: sim,
      baseUrl: sim.baseUrl,
      credentials: own,
      settings: { WEBHOOK_PUBLIC_KEY: sim.publicKeyPem.trim().replace(/\n/g, "\\n") }
    })))

/** The plugin's options against a simulator at `baseUrl` with its webhook key, as the host builds them. */
export const optionsFor = (baseUrl: string, webhookPublicKey: string, overrides: Partial<Options> = {}): Options =>
  ConektaConnector.optionsFor({ baseUrl, credentials, settings: { WEBHOOK_PUBLIC_KEY: webhookPublicKey } }, overrides)

/** The engine's callback endpoint in miniature, verifying with this provider. */
export const callbackReceiver = (provider: PaymentProvider) => receiveCallbacks(provider.verifyCallback, "/api/v1/providers/conekta/callbacks")

/** A simulator, the provider on it, and a callback receiver the simulator's webhooks go to. */
export const setup = (overrides: Partial<Options> = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const { simulator: sim } = yield* simulator(slowMs)
    const options = optionsFor(sim.baseUrl, sim.publicKeyPem, overrides)
    const provider = yield* ConektaProvider.make(options)
    const receiver = yield* callbackReceiver(provider)
    yield* sim.setWebhookUrl(receiver.url)
    return { sim, options, provider, receiver }
  }).pipe(Effect.provide(Live))

/** What the kit's statuses are as Conekta `payment_status`es. */
const statusOf = { completed: "paid", failed: "canceled", unknown: "in_review_v9" } as const

// Conekta signs the body (`digest`, RSA-SHA256) with no signing time in it, and the plugin reads
// the order from the API after verifying: the kit's signature and notify-then-query checks apply,
// no age check. A settled Conekta refund carries no documented status word (the documented refund
// has none), so one paid back cannot be told from one pending: the refund notification check is
// left out (README, "Refund statuses"); the order event's update still carries the refunds as
// they stand, and a cancelled one fails at once (test/providers/ConektaRefunds.test.ts).
export const harness = ConektaConnector.conformance({
  simulator: simulator(),
  invalidCredentials: { PRIVATE_KEY: "key_test_wrong" },
  suites: { callbacks: "signed-notify-then-query", timestamped: false, refundNotifications: false },
  moves: (sim, { provider }) =>
    Effect.gen(function*() {
      const other = ConektaSimulator.makeKeyPair()
      // Conekta's webhooks go to the account's URL; here they are recorded, not delivered.
      yield* sim.setWebhookUrl("https://engine.example/api/v1/providers/conekta/callbacks")
      yield* sim.dropCallbacks(true)
      return {
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
      }
    })
})
