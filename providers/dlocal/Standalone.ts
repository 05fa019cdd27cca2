/**
 * `npm run simulator -- dlocal [--port N]`: dLocal's pay-in simulator on its own, with the
 * conformance harness's test credentials (see `providers/kit/Standalone.ts`). Payouts v3 are not
 * served standalone (their simulator is a server of its own, and the connector takes one base URL):
 * the printed environment configures pay-ins only.
 */
import { Effect } from "effect"
import { reportRoute } from "../kit/SimulatorReports.ts"
import { hostEnvironment, paymentIdOf, type StandaloneSimulator } from "../kit/Standalone.ts"
import { credentials } from "./ConformanceHarness.ts"
import { DLocalSimulator } from "./DLocalSimulator.ts"

const standalone: StandaloneSimulator = {
  kind: "dlocal",
  start: Effect.gen(function*() {
    const sim = yield* DLocalSimulator.start(credentials)
    const payment = paymentIdOf(sim.charges, (p) => p.orderId)
    return {
      baseUrl: sim.baseUrl,
      environment: hostEnvironment("dlocal", sim.baseUrl, {
        LOGIN: credentials.login,
        TRANS_KEY: credentials.transKey,
        SECRET_KEY: credentials.secretKey
      }),
      moves: {
        pay: (id) => Effect.flatMap(payment(id), sim.complete),
        fail: (id) => Effect.flatMap(payment(id), (p) => sim.fail(p, "The payment was rejected at the simulator.")),
        expire: (id) => Effect.flatMap(payment(id), (p) => sim.setStatus(p, "EXPIRED")),
        chargeback: (id) => Effect.flatMap(payment(id), (p) => sim.setStatus(p, "CHARGEBACK")),
        refunds: {
          hold: (pending) => sim.setRefundMode(pending ? "pending" : "paid"),
          settle: sim.settleRefund,
          reject: (id) => sim.rejectRefund(id, "The refund was rejected at the simulator.")
        }
      },
      routes: { "POST /_simulator/reports": reportRoute(sim.reports) }
    }
  })
}

export default standalone
