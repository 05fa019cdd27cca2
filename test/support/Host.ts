/**
 * Starts the reference host on a loopback port against a chosen store, and calls it over real
 * HTTP as a merchant would.
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { createServer } from "node:net"
import { HttpServer } from "effect/http"
import { type HostConfig, loopbackConfig } from "../../host/Config.ts"
import { hostLayer } from "../../host/Host.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import { Ledger } from "../../core/ledger/Ledger.ts"
import { Webhooks } from "../../core/webhooks/Webhooks.ts"
import * as Money from "../../core/Money.ts"
import type { PayoutProviders } from "../../core/ports/PayoutProvider.ts"
import type { StoreLayer } from "./Stores.ts"
import type { ConfiguredConnector } from "../../host/Connectors.ts"
import type { Environment } from "../../core/Environment.ts"
import type { Connector } from "../../providers/kit/Connector.ts"
import { contractViolation } from "./Contract.ts"

export const adminToken = "test-admin-token"

export const testConfig = (overrides: Partial<HostConfig> = {}): HostConfig =>
  loopbackConfig({
    publicUrl: "http://api.test.local",
    checkoutUrl: "http://pay.test.local",
    adminToken: Option.some(Redacted.make(adminToken)),
    // Test receivers listen on loopback (WEBHOOK_ALLOW_PRIVATE_TARGETS=true, as documented).
    webhookAllowPrivateTargets: true,
    // Load and race tests send hundreds of requests a second on one credential; the limits have
    // their own test (test/http/RateLimits.test.ts).
    rateLimits: { productionPerSecond: 1_000_000, sandboxPerSecond: 1_000_000, authPerMinute: 1_000_000 },
    ...overrides
  })

export const testHost = (store: StoreLayer, overrides: Partial<HostConfig> = {}, payoutProviders?: Layer.Layer<PayoutProviders>) =>
  hostLayer(testConfig(overrides), store, payoutProviders)

/**
 * Runs the host's due background work in the calling fiber (due jobs, then due webhook
 * deliveries) until none is left, as the worker would on its next ticks; answers how many ran.
 * Work due later (a retry's backoff, a sandbox schedule) stays for the clock to reach.
 */
export const drainWork = Effect.gen(function*() {
  const jobs = yield* Jobs
  const webhooks = yield* Webhooks
  let total = 0
  for (;;) {
    const ran = (yield* jobs.runDue) + (yield* webhooks.deliverDue)
    if (ran === 0) return total
    total += ran
  }
})

/** `drainWork` where the caller runs inside a host (its jobs and webhooks at hand), else nothing. */
const drainIfHosted = Effect.flatMap(
  Effect.all([Effect.serviceOption(Jobs), Effect.serviceOption(Webhooks)]),
  ([jobs, webhooks]) =>
    Option.isSome(jobs) && Option.isSome(webhooks)
      ? drainWork.pipe(Effect.provideService(Jobs, jobs.value), Effect.provideService(Webhooks, webhooks.value))
      : Effect.succeed(0)
)

/**
 * Reads `probe` until `done` holds, for what the host finishes in the background: between reads
 * it runs the due work itself (`drainWork`) rather than waiting for the worker, and waits (20 ms,
 * at most 100 times) only when nothing was due here, i.e. the host's own worker holds the job or
 * a receiver outside the host has yet to answer. Answers the last value read.
 */
export const eventually = <A, E, R>(probe: Effect.Effect<A, E, R>, done: (a: A) => boolean) => polling(probe, done, drainIfHosted)

/**
 * Reads `probe` every 20 ms (at most 100 times) until `done` holds, leaving the work to the host's
 * own worker: for a test of what that worker does around the work (its traces, its tracer).
 */
export const byTheWorker = <A, E, R>(probe: Effect.Effect<A, E, R>, done: (a: A) => boolean) => polling(probe, done, Effect.succeed(0))

const polling = <A, E, R, R2>(probe: Effect.Effect<A, E, R>, done: (a: A) => boolean, drain: Effect.Effect<number, never, R2>) =>
  Effect.gen(function*() {
    for (let waits = 0; waits < 100;) {
      const value = yield* probe
      if (done(value)) return value
      if ((yield* drain) === 0) {
        waits++
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      }
    }
    return yield* probe
  })

/** A free loopback port. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

/**
 * A host whose public and checkout URLs are its real loopback address, for a browser that must
 * follow the links the host writes (a free port is picked first).
 */
export const reachableHost = (store: StoreLayer, overrides: Partial<HostConfig> = {}) =>
  Layer.unwrap(Effect.map(Effect.promise(freePort), (port) => {
    const url = `http://127.0.0.1:${port}`
    return testHost(store, { port, publicUrl: url, checkoutUrl: url, ...overrides })
  }))

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

/** The base URL of the host under test. */
export const baseUrl = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  return `http://127.0.0.1:${address.port}`
})

/** One request as a merchant sends it; an error answer is checked against the published contract (Contract.ts). */
export const call = (
  method: string,
  path: string,
  options: { readonly bearer?: string; readonly body?: unknown; readonly rawBody?: string; readonly headers?: Record<string, string> } = {}
) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async (): Promise<Reply> => {
      const headers: Record<string, string> = { ...options.headers }
      if (options.bearer !== undefined) headers["authorization"] = `Bearer ${options.bearer}`
      const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
      if (body !== undefined) headers["content-type"] ??= "application/json"
      const response = await fetch(base + path, { method, headers, ...(body === undefined ? {} : { body }) })
      const text = await response.text()
      let parsed: unknown = text
      try {
        parsed = text === "" ? undefined : JSON.parse(text)
      } catch {
        // not JSON: keep the text
      }
      const violation = contractViolation(method, path, response.status, parsed)
      if (violation !== undefined) throw new Error(`Contract: ${method} ${path}: ${violation}`)
      return { status: response.status, headers: response.headers, body: parsed }
    }))

/** Creates a merchant through the admin API and answers what the admin API returned. */
export const createMerchant = (body: Record<string, unknown> = {}) =>
  Effect.map(
    call("POST", "/admin/v1/merchants", {
      bearer: adminToken,
      body: { name: "Acme Pagos", email: "ops@acme.test", ...body }
    }),
    (reply) => {
      if (reply.status !== 201) throw new Error(`createMerchant: ${reply.status} ${JSON.stringify(reply.body)}`)
      return reply.body as {
        merchant: { id: string; name: string }
        shops: Array<{ id: string; name: string }>
        keys: Record<"sandbox" | "production", { publishableKey: string; secretKey: string }>
      }
    }
  )

export { Layer }

/**
 * Real production money in a shop's payout balance, as settled pay-ins transferred would put it
 * there (production has no fund-sandbox): one balanced journal entry from the outside world.
 */
export const fundProductionPayouts = (shopId: string, currency: string, amount: string) =>
  Effect.flatMap(Ledger, (ledger) =>
    ledger.record({ environment: "production", shopId }, "test.funding", "funding", [
      { from: "external", to: "payout_available", currency, amount: Money.decimal(amount) }
    ]))

/** One configured connector instance, as `CONNECTORS` and its variables would configure it. */
export const connectorInstance = (
  connector: Connector,
  settings: { readonly id: string; readonly environment: Environment; readonly baseUrl: string; readonly timeoutMs?: number },
  secrets: Readonly<Record<string, string>>,
  values: Readonly<Record<string, string>> = {}
): ConfiguredConnector => ({
  connector,
  settings: {
    ...settings,
    timeoutMs: settings.timeoutMs ?? 2_000,
    secrets: Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, Redacted.make(v)])),
    values
  }
})

/**
 * Sets a shop's settlement schedule to `manual` through the admin API: its money stays
 * `available` (no daily sweep), for tests of balances and withdrawals across simulated days.
 */
export const keepAvailable = (shopId: string, environment: Environment = "sandbox") =>
  Effect.map(
    call("PUT", `/admin/v1/shops/${shopId}/settlement-schedule?environment=${environment}`, {
      bearer: adminToken,
      body: { frequency: "manual", time: "00:00", destination: { kind: "bank", accountHolder: "Test Holder", bankName: "Test Bank", accountNumber: "000011112222" } }
    }),
    (reply) => {
      if (reply.status !== 200) throw new Error(`keepAvailable: ${reply.status} ${JSON.stringify(reply.body)}`)
    }
  )
