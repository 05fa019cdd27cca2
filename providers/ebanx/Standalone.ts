/**
 * `npm run simulator -- ebanx [--port N]`: EBANX's simulator on its own, with the conformance
 * harness's test integration key (the legacy `integration_key` scheme; see
 * `providers/kit/Standalone.ts`). EBANX reports chargebacks by a notification of their own, which
 * this simulator does not send: the chargeback move books one for the report only.
 */
import { Effect } from "effect"
import { reportRoute } from "../kit/SimulatorReports.ts"
import { paymentIdOf } from "../kit/Standalone.ts"
import { EbanxConnector } from "./EbanxProvider.ts"
import { simulator } from "./ConformanceHarness.ts"

export default EbanxConnector.standalone(
  Effect.gen(function*() {
    const { simulator: sim, ...started } = yield* simulator
    const payment = paymentIdOf(sim.charges, (p) => p.merchantPaymentCode)
    return {
      ...started,
      moves: {
        pay: (id) => Effect.flatMap(payment(id), sim.complete),
        fail: (id) => Effect.flatMap(payment(id), (p) => sim.fail(p)),
        expire: (id) => Effect.flatMap(payment(id), sim.expire),
        chargeback: (id) => Effect.flatMap(payment(id), sim.chargeback),
        refunds: {
          hold: (pending) => sim.setRefundMode(pending ? "pending" : "confirm"),
          settle: sim.settleRefund,
          reject: sim.rejectRefund
        }
      },
      routes: { "POST /_simulator/reports": reportRoute(sim.reports) }
    }
  })
)
