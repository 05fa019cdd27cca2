/**
 * `npm run simulator -- dlocal [--port N]`: dLocal's pay-in and payouts v3 simulators on their
 * own, with the conformance harnesses' test credentials (see `providers/kit/Standalone.ts`). The
 * connector takes one base URL for both APIs (pay-ins `/secure_payments`, `/payments`...;
 * payouts `/oauth/token`, `/payouts/v3`), so the printed port serves both: the payouts simulator
 * listens on a port of its own on 127.0.0.1 and the pay-in simulator hands it those paths, as
 * they came (headers and body). The printed environment configures pay-ins (`LOGIN`,
 * `TRANS_KEY`, `SECRET_KEY`) and payouts (`CLIENT_ID`, `CLIENT_SECRET`; dLocal signs payout
 * notifications with the same `LOGIN` and `SECRET_KEY`). The notification faults
 * (`/_simulator/notifications`) apply to the pay-in notifications only.
 */
import { Effect } from "effect"
import { reportRoute } from "../kit/SimulatorReports.ts"
import type { Handled, SimulatorRequest } from "../kit/SimulatorServer.ts"
import { accountCredentials, CurrentControl, paymentIdOf } from "../kit/Standalone.ts"
import { DLocalConnector } from "./DLocalProvider.ts"
import { credentials, simulator } from "./ConformanceHarness.ts"
import { credentials as payoutCredentials } from "./PayoutsHarness.ts"
import { PayoutsSimulator } from "./PayoutsSimulator.ts"

/** The paths of dLocal's payouts v3 (and its OAuth2 token), served by the payouts simulator. */
export const isPayoutPath = (path: string) => path === "/oauth/token" || path === "/payouts/v3" || path.startsWith("/payouts/v3/")

/** Passes a request to the payouts simulator at `baseUrl` and answers what it answered. */
const forwardTo = (baseUrl: string) => async (request: SimulatorRequest): Promise<Handled> => {
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter((e): e is [string, string] => e[1] !== undefined && !["host", "content-length", "connection"].includes(e[0]))
  )
  const query = request.query.toString()
  const response = await fetch(`${baseUrl}${request.path}${query === "" ? "" : `?${query}`}`, {
    method: request.method,
    headers,
    ...(request.method === "GET" || request.method === "HEAD" ? {} : { body: request.body })
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON: answered as text
  }
  return { authorized: response.status !== 401, answer: { status: response.status, body } }
}

export default DLocalConnector.standalone(
  Effect.gen(function*() {
    // On a port of its own, without the runner's control (its port and routes are the pay-in simulator's).
    // Another account's (`--account`) payout credentials too, and the pay-in ones it signs with.
    const own = yield* accountCredentials({ ...payoutCredentials, login: credentials.login, secretKey: credentials.secretKey })
    const payouts = yield* PayoutsSimulator.start(own).pipe(Effect.provideService(CurrentControl, undefined))
    const forward = forwardTo(payouts.baseUrl)
    const { simulator: sim, ...started } = yield* simulator({ beside: (request) => isPayoutPath(request.path) ? forward(request) : undefined })
    const payment = paymentIdOf(sim.charges, (p) => p.orderId)
    /** dLocal's payout id, named by that id or by the engine's payout id (its `external_id`). */
    const payoutId = (id: string) =>
      Effect.suspend(() => payouts.payouts.has(id) ? Effect.succeed(id) : Effect.try({ try: () => payouts.payoutIdOf(id), catch: (e) => e as Error }))
    return {
      ...started,
      settings: { CLIENT_ID: own.clientId, CLIENT_SECRET: own.clientSecret },
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
      routes: {
        "POST /_simulator/reports": reportRoute(sim.reports),
        "POST /_simulator/payouts/:id/pay": (id) => Effect.as(Effect.flatMap(payoutId(id!), payouts.complete), { status: "PAID" }),
        "POST /_simulator/payouts/:id/fail": (id, body) => {
          const reason = (body as { reason?: unknown } | null)?.reason
          return Effect.as(
            Effect.flatMap(payoutId(id!), (p) => payouts.fail(p, typeof reason === "string" ? reason : "ERROR_ACCOUNT_INCORRECT")),
            { status: "REJECTED" }
          )
        }
      }
    }
  })
)
