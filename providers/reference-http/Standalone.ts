/**
 * `npm run simulator -- reference-http [--port N]`: the reference upstream on its own, with fixed
 * test credentials (see `providers/kit/Standalone.ts`).
 */
import { Effect } from "effect"
import { hostEnvironment, paymentIdOf, type StandaloneSimulator } from "../kit/Standalone.ts"
import { UpstreamSimulator } from "./UpstreamSimulator.ts"

export const credentials = { API_KEY: "ref_test_api_key", CALLBACK_SECRET: "ref_test_callback_secret" } as const

const standalone: StandaloneSimulator = {
  kind: "reference-http",
  start: Effect.gen(function*() {
    const sim = yield* UpstreamSimulator.start({ apiKey: credentials.API_KEY, callbackSecret: credentials.CALLBACK_SECRET })
    const charge = paymentIdOf(sim.charges, (c) => c.reference)
    return {
      baseUrl: sim.baseUrl,
      environment: hostEnvironment("reference-http", sim.baseUrl, credentials),
      moves: {
        pay: (id) => Effect.flatMap(charge(id), sim.complete),
        fail: (id) => Effect.flatMap(charge(id), (c) => sim.fail(c, "failed at the simulator")),
        expire: (id) => Effect.flatMap(charge(id), (c) => sim.setStatus(c, "expired")),
        chargeback: (id) => Effect.flatMap(charge(id), (c) => sim.setStatus(c, "chargeback")),
        refunds: { hold: sim.holdRefunds, settle: sim.settleRefund, reject: sim.rejectRefund }
      }
    }
  })
}

export default standalone
