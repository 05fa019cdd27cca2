/**
 * `npm run simulator -- reference-http [--port N]`: the reference upstream on its own, with fixed
 * test credentials (see `providers/kit/Standalone.ts`).
 */
import { Effect } from "effect"
import { paymentIdOf } from "../kit/Standalone.ts"
import { ReferenceHttpConnector } from "./ReferenceHttpProvider.ts"
import { UpstreamSimulator } from "./UpstreamSimulator.ts"

export const credentials = { API_KEY: "ref_test_api_key", CALLBACK_SECRET: "ref_test_callback_secret" } as const

export default ReferenceHttpConnector.standalone(
  Effect.gen(function*() {
    const sim = yield* UpstreamSimulator.start({ apiKey: credentials.API_KEY, callbackSecret: credentials.CALLBACK_SECRET })
    const charge = paymentIdOf(sim.charges, (c) => c.reference)
    return {
      baseUrl: sim.baseUrl,
      credentials,
      moves: {
        pay: (id) => Effect.flatMap(charge(id), sim.complete),
        fail: (id) => Effect.flatMap(charge(id), (c) => sim.fail(c, "failed at the simulator")),
        expire: (id) => Effect.flatMap(charge(id), (c) => sim.setStatus(c, "expired")),
        chargeback: (id) => Effect.flatMap(charge(id), (c) => sim.setStatus(c, "chargeback")),
        refunds: { hold: sim.holdRefunds, settle: sim.settleRefund, reject: sim.rejectRefund }
      }
    }
  })
)
