/**
 * `npm run simulator -- conekta [--port N]`: Conekta's simulator on its own, with the conformance
 * harness's test key (see `providers/kit/Standalone.ts`). The official SDK reaches it with
 * `new Configuration({ accessToken, basePath: <baseUrl> })` (see `test/providers/ConektaSdk.test.ts`).
 *
 * Conekta's webhooks are configured per account, not per order, so the simulator sends its signed
 * events to the runner's `--webhook-url` when given (the host's
 * `/api/v1/providers/conekta/callbacks`), and to nowhere otherwise. The host verifies them with the
 * simulator's webhook public key, given in the environment below (`\n` escaped).
 */
import { Effect } from "effect"
import { reportRoute } from "../kit/SimulatorReports.ts"
import { CurrentControl, paymentIdOf } from "../kit/Standalone.ts"
import { ConektaConnector } from "./ConektaProvider.ts"
import { simulator } from "./ConformanceHarness.ts"

export default ConektaConnector.standalone(
  Effect.gen(function*() {
    const { simulator: sim, ...started } = yield* simulator()
    yield* sim.setWebhookUrl((yield* CurrentControl)?.webhookUrl)
    const order = paymentIdOf(sim.orders, (o) => String(o.metadata["transaction_id"] ?? ""))
    return {
      ...started,
      moves: {
        pay: (id) => Effect.flatMap(order(id), sim.complete),
        fail: (id) => Effect.flatMap(order(id), (o) => sim.fail(o)),
        expire: (id) => Effect.flatMap(order(id), (o) => sim.setStatus(o, "expired")),
        chargeback: (id) => Effect.flatMap(order(id), (o) => sim.setStatus(o, "charged_back")),
        refunds: { hold: sim.setRefundsPending, settle: sim.settleRefund, reject: sim.rejectRefund }
      },
      routes: { "POST /_simulator/reports": reportRoute(sim.reports) }
    }
  })
)
