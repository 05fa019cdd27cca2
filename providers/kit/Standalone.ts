/**
 * A simulator run on its own, like stripe-mock: `npm run simulator -- <provider> [--port N]`.
 *
 * A provider folder that can be run this way has a `Standalone.ts` whose default export is a
 * {@link StandaloneSimulator}: how to start its simulator with fixed test credentials, the
 * environment that configures the reference host's connector against it, and the moves a
 * merchant rehearses before going live (pay, fail, expire, charge back; leave refunds pending,
 * then settle or reject them), or, for a simulator of other money movements (Circle's settlement
 * transfers), control routes of its own. The runner (`Simulate.ts`) serves those as control routes
 * under `/_simulator/` on the simulator's own port, beside the notification faults every
 * simulator shares (drop, delay, repeat): {@link CurrentControl} hands them to
 * `SimulatorServer.serve`, which answers them before the simulated API sees the request.
 * The simulators are test tooling, never imported by a plugin; this file is pure (`effect` only),
 * so `defineConnector` builds a connector's `Standalone.ts` entry with it.
 */
import { Context, Effect, type Scope } from "effect"

/** The moves of one simulator; ids are the provider's own (its payment and refund ids). */
export interface Moves {
  readonly pay: (id: string) => Effect.Effect<void>
  readonly fail: (id: string) => Effect.Effect<void>
  readonly expire: (id: string) => Effect.Effect<void>
  /** Absent where the simulator has no chargebacks. */
  readonly chargeback?: ((id: string) => Effect.Effect<void>) | undefined
  readonly refunds: {
    /** While true, new refunds stay pending until settled or rejected. */
    readonly hold: (pending: boolean) => Effect.Effect<void>
    readonly settle: (id: string) => Effect.Effect<void>
    readonly reject: (id: string) => Effect.Effect<void>
  }
}

export interface Started {
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string
  /**
   * The variables that point the reference host's connector at this simulator, in order:
   * `CONNECTORS`, then the instance's (`<ID>_ENVIRONMENT=sandbox`, `<ID>_BASE_URL`, its secrets).
   */
  readonly environment: ReadonlyArray<readonly [name: string, value: string]>
  /** The pay-in moves; absent where the simulator moves no pay-ins (Circle's settlement transfers). */
  readonly moves?: Moves | undefined
  /**
   * Control routes of the simulator's own, beside the moves' (or instead of them), by
   * `METHOD /_simulator/...` with `:id` for one path segment; each gets that segment and the JSON
   * body, and answers what the route returns (a failure's message is a `404`).
   */
  readonly routes?: Readonly<Record<string, (id: string | undefined, body: unknown) => Effect.Effect<unknown, Error>>> | undefined
}

export interface StandaloneSimulator {
  /** The connector kind it simulates (`mercadopago`). */
  readonly kind: string
  /** Starts the simulator (on the port the runner asks `SimulatorServer` for) with fixed test credentials. */
  readonly start: Effect.Effect<Started, never, Scope.Scope>
}

/**
 * The host's variables for one connector instance of `kind` at `baseUrl`: id = kind, or
 * `<kind>-<account>` for a simulator standing for another account (`--account`).
 */
export const hostEnvironment = (
  kind: string,
  baseUrl: string,
  secrets: Readonly<Record<string, string>>,
  account?: string
): ReadonlyArray<readonly [string, string]> => {
  const id = account === undefined ? kind : `${kind}-${account}`
  const prefix = id.toUpperCase().replace(/[^A-Z0-9]/g, "_")
  return [
    ["CONNECTORS", account === undefined ? kind : `${id}=${kind}`],
    [`${prefix}_ENVIRONMENT`, "sandbox"],
    [`${prefix}_BASE_URL`, baseUrl],
    ...Object.entries(secrets).map(([name, value]) => [`${prefix}_${name}`, value] as const)
  ]
}

/** What happens to the notifications a simulator sends, set through the control routes. */
export interface NotificationFaults {
  drop: boolean
  delayMs: number
  /** How many times each is sent again after the first. */
  repeat: number
}

export interface Control {
  /** The port to listen on (0: any free port). */
  readonly port: number
  /**
   * Where a provider whose webhooks are configured per account, not per charge (Pagar.me,
   * Conekta), sends them: the host's `/api/v1/providers/<id>/callbacks` (`--webhook-url`).
   */
  readonly webhookUrl: string | undefined
  readonly faults: NotificationFaults
  /**
   * Another account at the provider (`--account NAME`): the simulator accepts and signs with a
   * set of credentials of its own (each test credential with `-NAME`), so two merchants'
   * accounts at one provider can be rehearsed side by side, one simulator each.
   */
  readonly account?: string | undefined
  /** `METHOD /_simulator/...` routes; `:id` stands for one path segment. */
  readonly routes: Map<string, (id: string | undefined, body: unknown) => Promise<unknown>>
}

/** Set by the standalone runner; tests run simulators without it (any port, no control routes). */
export const CurrentControl = Context.Reference<Control | undefined>("providers/kit/Standalone/CurrentControl", {
  defaultValue: () => undefined
})

/**
 * The credentials a simulator starts with: `base` (the harness's test credentials), or under a
 * runner's `--account NAME` each value with `-NAME` appended, another set it accepts.
 */
export const accountCredentials = <T extends Readonly<Record<string, string>>>(base: T): Effect.Effect<T> =>
  Effect.map(Effect.service(CurrentControl), (control) =>
    control?.account === undefined ? base : Object.fromEntries(Object.entries(base).map(([k, v]) => [k, `${v}-${control.account}`])) as T)

/** The route `method path` matches, with its `:id` segment. */
export const matchRoute = (control: Control, method: string, path: string) => {
  const segments = path.split("/")
  for (const [pattern, run] of control.routes) {
    const [m, p] = pattern.split(" ") as [string, string]
    const want = p.split("/")
    if (m !== method || want.length !== segments.length) continue
    let id: string | undefined
    if (want.every((w, i) => w === ":id" ? (id = decodeURIComponent(segments[i]!)) !== "" : w === segments[i])) return { run, id }
  }
  return undefined
}

/**
 * The provider's id of a payment named by either that id or the engine's transaction id (the
 * merchant reference the charge carried), which is all a merchant rehearsing may know of it.
 */
export const paymentIdOf = <P>(
  payments: ReadonlyMap<string, P>,
  reference: (payment: P) => string
) =>
(id: string): Effect.Effect<string> =>
  Effect.suspend(() => {
    if (payments.has(id)) return Effect.succeed(id)
    for (const [key, payment] of payments) if (reference(payment) === id) return Effect.succeed(key)
    return Effect.die(new Error(`no payment '${id}' (by the provider's id or the engine's transaction id)`))
  })
