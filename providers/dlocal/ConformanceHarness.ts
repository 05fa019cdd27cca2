/**
 * The conformance harness of the dLocal pay-in connector: its simulator (started afresh for each
 * test on a loopback port, the same start `Standalone.ts` serves) and the simulator's moves; the
 * kit builds the plugin from the simulator's credentials the way the host does. Test tooling (it
 * starts servers), not the plugin.
 */
import { Effect, type Scope } from "effect"
import { findMethod } from "../../core/index.ts"
import { hostServices, type Simulated } from "../kit/Connector.ts"
import { accountCredentials } from "../kit/Standalone.ts"
import { defaultChargeRequest, notificationsDuring } from "../kit/ProviderConformance.ts"
import { DLocalConnector, type Options } from "./DLocalProvider.ts"
import { DLocalSimulator } from "./DLocalSimulator.ts"
import { notificationHeaders } from "./SimulatorSigning.ts"
import { notificationMaxAgeSeconds } from "./Signing.ts"

export const credentials = { login: "dl_login_8Jc3", transKey: "dl_trans_Vb52Qx", secretKey: "dl_secret_Tz7mK4pA" }

/** The secrets the host reads, as the simulator answers them. */
const secrets = { LOGIN: credentials.login, TRANS_KEY: credentials.transKey, SECRET_KEY: credentials.secretKey }

/** What the plugin needs, as the host provides it. */
export const Live = hostServices

export const pix = findMethod("1001")!

/** The simulator with the test credentials (`beside`: what else its port serves, see `Standalone.ts`). */
export const simulator = (start?: Parameters<typeof DLocalSimulator.start>[1]): Effect.Effect<Simulated<keyof typeof secrets, DLocalSimulator>, never, Scope.Scope> =>
  Effect.flatMap(accountCredentials(credentials), (own) =>
    Effect.map(DLocalSimulator.start(own, start), (sim) => ({
      simulator: sim,
      baseUrl: sim.baseUrl,
      credentials: { LOGIN: own.login, TRANS_KEY: own.transKey, SECRET_KEY: own.secretKey }
    })))

/** The plugin's options against a simulator at `baseUrl`, as the host builds them. */
export const optionsFor = (baseUrl: string, overrides: Partial<Options> = {}): Options =>
  DLocalConnector.optionsFor({ baseUrl, credentials: secrets }, overrides)

const upstreamStatus = { completed: "PAID", failed: "REJECTED", unknown: "UNDER_REVIEW_V7" } as const

// dLocal signs every notification (the payment object) like its requests, and retries one for days
// keeping its X-Date: a signed one is accepted within that horizon (`Signing.ts`).
export const harness = DLocalConnector.conformance({
  simulator: simulator(),
  invalidCredentials: { TRANS_KEY: "dl_trans_wrong" },
  suites: { callbacks: "signed", callbackMaxAgeSeconds: notificationMaxAgeSeconds },
  moves: (sim, { provider }) =>
    Effect.gen(function*() {
      // Notifications go to the engine's callback URL, which does not exist here: the kit signs its own.
      yield* sim.dropCallbacks(true)
      return {
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
      }
    })
})
