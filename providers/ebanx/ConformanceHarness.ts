/**
 * The conformance harness of the EBANX connector: its simulator (started afresh for each test on
 * a loopback port, the same start `Standalone.ts` serves) and the simulator's moves; the kit
 * builds the plugin from the simulator's credentials the way the host does. Test tooling (it
 * starts servers), not the plugin.
 */
import { Effect, type Scope } from "effect"
import { findMethod } from "../../core/index.ts"
import { hostServices, type Simulated } from "../kit/Connector.ts"
import { accountCredentials } from "../kit/Standalone.ts"
import { defaultChargeRequest, notificationsDuring } from "../kit/ProviderConformance.ts"
import { EbanxConnector, type Options } from "./EbanxProvider.ts"
import { EbanxSimulator } from "./EbanxSimulator.ts"

export const integrationKey = "test_ik_Xw3Lm9Qa2Vr7Nc5Bt8Yd"

/** What the plugin needs, as the host provides it: an HTTP client, and HMAC (its `merchant_refund_code`s). */
export const Live = hostServices

export const pix = findMethod("1001")!

/** The simulator with the test credentials. */
export const simulator: Effect.Effect<Simulated<"INTEGRATION_KEY", EbanxSimulator>, never, Scope.Scope> = Effect.flatMap(
  accountCredentials({ INTEGRATION_KEY: integrationKey }),
  (own) => Effect.map(EbanxSimulator.start(own.INTEGRATION_KEY), (sim) => ({ simulator: sim, baseUrl: sim.baseUrl, credentials: own }))
)

/** The plugin's options against a simulator at `baseUrl`, as the host builds them. */
export const optionsFor = (baseUrl: string, overrides: Partial<Options> = {}): Options =>
  EbanxConnector.optionsFor({ baseUrl, credentials: { INTEGRATION_KEY: integrationKey } }, overrides)

// EBANX signs nothing: its notification names payments, and the plugin asks EBANX about them.
export const harness = EbanxConnector.conformance({
  simulator,
  invalidCredentials: { INTEGRATION_KEY: "test_ik_wrong" },
  suites: { callbacks: "notify-then-query" },
  moves: (sim, { provider }) =>
    Effect.gen(function*() {
      // Notifications go to the engine's callback URL, which does not exist here: the kit sends its own.
      yield* sim.dropCallbacks(true)
      return {
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
      }
    })
})
