/**
 * `npm run simulator -- <provider> [--port N] [--webhook-url URL]`: one provider's upstream simulator on its own, on
 * 127.0.0.1, with fixed test credentials, like stripe-mock. It prints, one `NAME=value` a line, the
 * environment that configures the reference host's connector against it, then its control routes,
 * and serves until SIGTERM or SIGINT. `<provider>` is a folder under `providers/` (`mercadopago`)
 * or a path to a provider folder with a `Standalone.ts` (a provider team's own). `--webhook-url`
 * is where a provider whose webhooks are set per account (Pagar.me, Conekta) sends them: the
 * host's `/api/v1/providers/<id>/callbacks`. `--account NAME` stands for another account at the
 * provider: a second start with it prints another set of credentials (each test credential with
 * `-NAME`), which that simulator accepts and signs with, for an instance `<kind>-NAME`; two
 * merchants' accounts at one provider are rehearsed side by side, one simulator each.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Exit, Runtime } from "effect"
import { existsSync } from "node:fs"
import { join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { CurrentControl, type Control, type Moves, type StandaloneSimulator } from "./Standalone.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))
const usage = "usage: npm run simulator -- <provider> [--port N] [--webhook-url URL] [--account NAME]"

const [name, ...rest] = process.argv.slice(2)
const portFlag = rest.indexOf("--port")
const port = portFlag === -1 ? 0 : Number(rest[portFlag + 1])
const webhookFlag = rest.indexOf("--webhook-url")
const webhookUrl = webhookFlag === -1 ? undefined : rest[webhookFlag + 1]
const accountFlag = rest.indexOf("--account")
const account = accountFlag === -1 ? undefined : rest[accountFlag + 1]
if (account !== undefined && !/^[a-z0-9]{1,20}$/.test(account)) {
  console.error(`${usage}\n(--account: 1 to 20 lowercase letters and digits)`)
  process.exit(2)
}
const folder = name === undefined ? undefined : name.includes("/") ? resolve(name) : join(root, "providers", name)
if (folder === undefined || !existsSync(join(folder, "Standalone.ts")) || !Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(folder === undefined || Number.isInteger(port) ? `${usage}\n(no Standalone.ts in ${folder ?? "?"})` : usage)
  process.exit(2)
}

const control: Control = { port, webhookUrl, account, faults: { drop: false, delayMs: 0, repeat: 0 }, routes: new Map() }

/** The moves as control routes. */
const routesOf = (moves: Moves) => {
  const run = (move: (id: string) => Effect.Effect<void>) => (id: string | undefined) => Effect.runPromise(move(id!))
  const routes = new Map<string, (id: string | undefined, body: unknown) => Promise<unknown>>([
    ["POST /_simulator/payments/:id/pay", run(moves.pay)],
    ["POST /_simulator/payments/:id/fail", run(moves.fail)],
    ["POST /_simulator/payments/:id/expire", run(moves.expire)]
  ])
  if (moves.chargeback !== undefined) routes.set("POST /_simulator/payments/:id/chargeback", run(moves.chargeback))
  routes.set("POST /_simulator/refunds/hold", (_id, body) => {
    const pending = (body as { pending?: unknown } | null)?.pending
    if (typeof pending !== "boolean") return Promise.reject(new Error("body: { \"pending\": true | false }"))
    return Effect.runPromise(moves.refunds.hold(pending)).then(() => ({ refundsPending: pending }))
  })
  routes.set("POST /_simulator/refunds/:id/settle", run(moves.refunds.settle))
  routes.set("POST /_simulator/refunds/:id/reject", run(moves.refunds.reject))
  for (const [route, handler] of routes) control.routes.set(route, handler)
}

const program = Effect.gen(function*() {
  const loaded = yield* Effect.promise(() => import(pathToFileURL(join(folder, "Standalone.ts")).href) as Promise<{ default: StandaloneSimulator }>)
  const simulator = loaded.default
  const started = yield* simulator.start
  if (started.moves !== undefined) routesOf(started.moves)
  for (const [route, handler] of Object.entries(started.routes ?? {})) {
    control.routes.set(route, (id, body) => Effect.runPromise(handler(id, body)))
  }
  for (const [key, value] of started.environment) console.log(`${key}=${value}`)
  console.log(`# ${simulator.kind} simulator on ${started.baseUrl}; control routes (JSON bodies):`)
  console.log(`#   POST ${started.baseUrl}/_simulator/notifications {"drop":bool,"delayMs":n,"repeat":n}`)
  for (const route of control.routes.keys()) console.log(`#   ${route.replace(" ", ` ${started.baseUrl}`)}`)
  return yield* Effect.never
}).pipe(Effect.scoped)

// SIGTERM or SIGINT interrupts the program: a stop that was asked for, exit code 0.
NodeRuntime.runMain(program.pipe(Effect.provideService(CurrentControl, control)), {
  teardown: (exit, onExit) =>
    Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
})
