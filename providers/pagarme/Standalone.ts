/**
 * `npm run simulator -- pagarme [--port N] [--webhook-url URL]`: Pagar.me's simulator on its own,
 * with the conformance harness's test secret key (see `providers/kit/Standalone.ts`).
 *
 * Pagar.me's webhooks are configured per account, not per order, so the simulator sends its
 * signed events to the runner's `--webhook-url` when given (the host's
 * `/api/v1/providers/pagarme/callbacks`), and to nowhere otherwise. The host verifies them with
 * the simulator's own JWKS, named in the environment below.
 */
import { Effect } from "effect"
import { CurrentControl, paymentIdOf } from "../kit/Standalone.ts"
import { PagarmeConnector } from "./PagarmeProvider.ts"
import { simulator } from "./ConformanceHarness.ts"

export default PagarmeConnector.standalone(
  Effect.gen(function*() {
    const { simulator: sim, ...started } = yield* simulator()
    const webhookUrl = (yield* CurrentControl)?.webhookUrl
    yield* webhookUrl === undefined ? sim.dropCallbacks(true) : sim.setCallbackTarget(webhookUrl)
    const charge = paymentIdOf(sim.charges, (c) => c.orderCode)
    return {
      ...started,
      moves: {
        pay: (id) => Effect.flatMap(charge(id), sim.complete),
        fail: (id) => Effect.flatMap(charge(id), sim.fail),
        expire: (id) => Effect.flatMap(charge(id), sim.expire),
        chargeback: (id) => Effect.flatMap(charge(id), (c) => sim.setStatus(c, "chargedback")),
        refunds: { hold: sim.setRefundsPending, settle: sim.settleRefund, reject: sim.rejectRefund }
      }
    }
  })
)
