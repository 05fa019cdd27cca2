/**
 * `npm run simulator -- reference-http [--port N]`: the reference upstream on its own, with the
 * conformance harness's test credentials (see `providers/kit/Standalone.ts`).
 */
import { Effect } from "effect"
import { paymentIdOf } from "../kit/Standalone.ts"
import { ReferenceHttpConnector } from "./ReferenceHttpProvider.ts"
import { simulator } from "./ConformanceHarness.ts"

export default ReferenceHttpConnector.standalone(
  Effect.gen(function*() {
    const { simulator: sim, ...started } = yield* simulator()
    const charge = paymentIdOf(sim.charges, (c) => c.reference)
    return {
      ...started,
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
