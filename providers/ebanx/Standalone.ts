/**
 * `npm run simulator -- ebanx [--port N]`: EBANX's simulator on its own, with the conformance
 * harness's test integration key (the legacy `integration_key` scheme; see
 * `providers/kit/Standalone.ts`). EBANX reports chargebacks by a notification of their own, which
 * this simulator does not send: the chargeback move books one for the report only.
 */
import { DateTime, Effect, Option } from "effect"
import type { ReportFaults, SimulatedFeeRule, SimulatorReports } from "../kit/SimulatorReports.ts"
import { hostEnvironment, paymentIdOf, type StandaloneSimulator } from "../kit/Standalone.ts"
import { integrationKey } from "./ConformanceHarness.ts"
import { EbanxSimulator } from "./EbanxSimulator.ts"

/**
 * `POST /_simulator/reports` `{ from, to, faults?, feeRule? }` (ISO instants, `SimulatorReports`'
 * faults and fee rule): the provider's report of `[from, to)` as text in `{ report }`. A POST with
 * a JSON body, not `GET ?from=&to=`: the runner's control routes get a path segment and a JSON
 * body, and answer JSON.
 */
const reportRoute = (reports: SimulatorReports) => (_id: string | undefined, body: unknown) =>
  Effect.try({
    try: () => {
      const input = (body ?? {}) as { from?: unknown; to?: unknown; faults?: ReportFaults; feeRule?: SimulatedFeeRule }
      const instant = (name: string, value: unknown) => {
        const at = typeof value === "string" ? DateTime.make(value) : Option.none()
        if (Option.isNone(at)) throw new Error(`${name} must be an ISO instant`)
        return DateTime.toUtc(at.value)
      }
      if (input.feeRule !== undefined) reports.setFeeRule(input.feeRule)
      return { report: reports.report({ start: instant("from", input.from), end: instant("to", input.to) }, input.faults) }
    },
    catch: (e) => (e instanceof Error ? e : new Error(String(e)))
  })

const standalone: StandaloneSimulator = {
  kind: "ebanx",
  start: Effect.gen(function*() {
    const sim = yield* EbanxSimulator.start(integrationKey)
    const payment = paymentIdOf(sim.charges, (p) => p.merchantPaymentCode)
    return {
      baseUrl: sim.baseUrl,
      environment: hostEnvironment("ebanx", sim.baseUrl, { INTEGRATION_KEY: integrationKey }),
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
}

export default standalone
