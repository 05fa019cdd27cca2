/**
 * What a defined connector gives a conformance harness and a test (providers/kit/Connector.ts):
 * the common settings supplied to `options`, the plugin's options for a started simulator, and
 * `conformance`, which builds the plugin (and a refused copy) through `options` from the
 * simulator's credentials, provides the host's services and adds the simulator's moves.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted, Schema } from "effect"
import { Mac } from "effect/crypto"
import { HttpClient } from "effect/http"
import { CardVault, type PaymentProvider } from "../../core/ports/index.ts"
import { findMethod } from "../../core/index.ts"
import { defineConnector, type Simulated, type StatusMap } from "../../providers/kit/index.ts"

const DocumentedStatus = Schema.Literals(["OPEN", "DONE"])
const statusMap = { OPEN: "pending", DONE: "completed" } satisfies StatusMap<typeof DocumentedStatus, "pending" | "completed">

interface Options {
  readonly id: string
  readonly environment: "sandbox" | "production"
  readonly baseUrl?: string | undefined
  readonly timeoutMs?: number | undefined
  readonly apiKey: Redacted.Redacted<string>
  readonly region: string | undefined
}

const made: Array<Options> = []
/** A plugin that uses every host service, so a harness that did not provide one would not run. */
const make = (options: Options) =>
  Effect.gen(function*() {
    yield* HttpClient.HttpClient
    yield* Mac.Mac
    const vault = yield* CardVault
    made.push(options)
    return {
      id: options.id,
      displayName: Redacted.value(options.apiKey),
      environments: [options.environment],
      supports: () => true,
      requires: () => [],
      charge: () => Effect.die("not charged here"),
      status: () => Effect.die("not polled here"),
      verifyCallback: () => Effect.succeed([]),
      refund: () => Effect.die("not refunded here"),
      vault
    } as PaymentProvider
  })

const Acme = defineConnector({
  kind: "acme",
  secrets: ["API_KEY"],
  settings: ["REGION"],
  rails: [{ catalogId: "1001", word: "pix" }],
  wire: { DocumentedStatus },
  statusMaps: { payments: statusMap },
  make,
  // Only its own secrets and settings: id, environment, baseUrl and timeoutMs are the kit's.
  options: (settings) => ({ apiKey: settings.secrets["API_KEY"]!, region: settings.values["REGION"] })
})

// The connector's own options are still required: one left out does not compile.
defineConnector({
  kind: "acme-missing",
  secrets: ["API_KEY"],
  rails: [],
  wire: {},
  statusMaps: {},
  make,
  // @ts-expect-error apiKey is the connector's own and is not supplied by the kit
  options: (settings) => ({ region: settings.values["REGION"] })
})

/** A stand-in simulator: what its moves record. */
interface FakeSimulator {
  readonly completed: Array<string>
}

const pix = findMethod("1001")!

const simulated = (simulator: FakeSimulator): Simulated<"API_KEY", FakeSimulator> => ({
  simulator,
  baseUrl: "http://127.0.0.1:4010",
  credentials: { API_KEY: "test_key" },
  settings: { REGION: "eu" }
})

describe("a defined connector's conformance harness", () => {
  it.effect("the host's plugin: the kit supplies id, environment, base URL and budget; the connector maps its own", () =>
    Effect.gen(function*() {
      const options = Acme.options({
        id: "acme-eu",
        environment: "production",
        baseUrl: "https://api.acme.example",
        timeoutMs: 900,
        secrets: { API_KEY: Redacted.make("live_key") },
        values: { REGION: "eu" }
      })
      assert.strictEqual(options.id, "acme-eu")
      assert.strictEqual(options.environment, "production")
      assert.strictEqual(options.baseUrl, "https://api.acme.example")
      assert.strictEqual(options.timeoutMs, 900)
      assert.strictEqual(Redacted.value(options.apiKey), "live_key")
      assert.strictEqual(options.region, "eu")
    }))

  it.effect("optionsFor: an instance named after the kind, in sandbox, at the simulator, overrides on top", () =>
    Effect.sync(() => {
      const options = Acme.optionsFor(simulated({ completed: [] }), { timeoutMs: 150 })
      assert.strictEqual(options.id, "acme")
      assert.strictEqual(options.environment, "sandbox")
      assert.strictEqual(options.baseUrl, "http://127.0.0.1:4010")
      assert.strictEqual(options.timeoutMs, 150)
      assert.strictEqual(Redacted.value(options.apiKey), "test_key")
      assert.strictEqual(Acme.optionsFor(simulated({ completed: [] })).timeoutMs, 2_000)
    }))

  it.effect("conformance: the plugin through options from the simulator's credentials, a refused copy, the host's services, the moves", () =>
    Effect.gen(function*() {
      const sim: FakeSimulator = { completed: [] }
      let starts = 0
      const conformance = Acme.conformance({
        simulator: Effect.sync(() => {
          starts++
          return simulated(sim)
        }),
        invalidCredentials: { API_KEY: "wrong_key" },
        suites: { callbacks: "notify-then-query" },
        timeoutMs: 700,
        moves: (simulator, { provider, options }) =>
          Effect.succeed({
            method: pix,
            chargeRequest: () => assert.fail("no charge in this test"),
            completeUpstream: (ref) => Effect.sync(() => void simulator.completed.push(`${provider.id}:${options.region}:${ref}`)),
            failUpstream: () => Effect.void,
            unknownUpstream: () => Effect.void,
            arrangeDecline: (request) => Effect.succeed(request),
            arrangeUnavailable: (request) => Effect.succeed(request),
            upstreamCharges: () => Effect.succeed(0),
            callbackBody: () => "{}",
            signCallback: () => Effect.succeed({})
          })
      })
      assert.strictEqual(conformance.name, "acme")
      assert.deepStrictEqual(conformance.options, { callbacks: "notify-then-query" })
      assert.strictEqual(starts, 0, "the simulator starts in each test's scope, not when declared")
      made.length = 0
      const harness = yield* Effect.scoped(conformance.harness)
      assert.strictEqual(starts, 1)
      assert.strictEqual(harness.provider.displayName, "test_key")
      assert.strictEqual(harness.providerWithInvalidCredentials.displayName, "wrong_key")
      assert.deepStrictEqual(made.map((o) => [o.id, o.environment, o.baseUrl, o.timeoutMs, o.region]), [
        ["acme", "sandbox", "http://127.0.0.1:4010", 700, "eu"],
        ["acme", "sandbox", "http://127.0.0.1:4010", 700, "eu"]
      ])
      yield* harness.completeUpstream("ch_1")
      assert.deepStrictEqual(sim.completed, ["acme:eu:ch_1"])
      const vault = (harness.provider as unknown as { vault: CardVault["Service"] }).vault
      const described = yield* Effect.flip(vault.describe("merchant_1", "tok_1"))
      assert.strictEqual(described._tag, "ForwardUnreachable", "the card vault is the host's unconfigured one")
    }))
})
