/**
 * The conformance harness a defined connector gives (`defineConnector(...).conformance`): the
 * plugin built the way the host builds it, through the connector's `options(settings)` from the
 * credentials its simulator answers, beside a copy refused by the simulator; the host's services
 * (HTTP, MACs, a card vault that is not configured); and the simulator's own moves, which are all
 * a provider team still writes. Pure (`effect` only): the suites that run it
 * (`providerConformance`, in `providers/conformance`) are the part that needs vitest.
 */
import { Effect, Layer, Redacted, type Scope } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { FetchHttpClient, type HttpClient } from "effect/http"
import { CardVault } from "../../core/ports/CardVault.ts"
import type { PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import type { ConformanceHarness, ConformanceOptions } from "./ConformanceHarness.ts"
import type { ConnectorSettings } from "./ConnectorSettings.ts"

/**
 * A connector's simulator, started with the test credentials it answers: one declaration that
 * the standalone runner (`Standalone.ts`) and the conformance harness both start.
 */
export interface Simulated<Secret extends string, Sim> {
  /** The simulator itself, for the moves (complete, fail, sign...). */
  readonly simulator: Sim
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string
  /** The test credentials, one for each of the connector's `secrets`. */
  readonly credentials: Readonly<Record<Secret, string>>
  /** The instance's plain settings the simulator needs (a webhook key, a JWKS URL), by name. */
  readonly settings?: Readonly<Record<string, string>> | undefined
}

/** The harness without the plugins: what only the simulator knows how to do. */
export type SimulatorMoves = Omit<ConformanceHarness, "provider" | "providerWithInvalidCredentials">

/** The plugin the harness built on the simulator, with the options and settings it was built from. */
export interface BuiltPlugin<Options> {
  readonly provider: PaymentProvider
  readonly options: Options
}

/** What a connector's conformance harness is declared with (see `DefinedConnector.conformance`). */
export interface ConformanceDefinition<Options, Secret extends string, Sim> {
  /** The simulator start, the same the connector's `Standalone.ts` gives `standalone`. */
  readonly simulator: Effect.Effect<Simulated<Secret, Sim>, never, Scope.Scope>
  /** The secrets the simulator refuses, in place of its own (`{ TRANS_KEY: "dl_trans_wrong" }`). */
  readonly invalidCredentials: Partial<Readonly<Record<Secret, string>>>
  /** The simulator's moves for the plugin built on it (started in the test's scope). */
  readonly moves: (simulator: Sim, plugin: BuiltPlugin<Options>) => Effect.Effect<SimulatorMoves, never, Scope.Scope | HostServices>
  /** How the suites judge the connector: its callback scheme and the rest (`ConformanceOptions`). */
  readonly suites?: ConformanceOptions | undefined
  /** Budget of one upstream call in the harness. Default 2000 ms. */
  readonly timeoutMs?: number | undefined
}

/** A connector's conformance harness, ready for `providerConformance(...)` to register its suites. */
export interface ConnectorConformance {
  /** The suites' title: the connector's kind. */
  readonly name: string
  /** Built afresh for each test, in its scope, with the host's services provided. */
  readonly harness: Effect.Effect<ConformanceHarness, never, Scope.Scope>
  readonly options: ConformanceOptions
}

/** The services a host gives a plugin: HTTP, MACs, and (for a pay-in plugin) a card vault, here none configured. */
export type HostServices = HttpClient.HttpClient | Mac.Mac | CardVault

/** The host's services, as the harness provides them. */
export const hostServices = Layer.mergeAll(
  FetchHttpClient.layer,
  Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto)),
  CardVault.unconfigured
)

/** The settings the host reads for an instance of `kind` pointed at a simulator (id = kind, sandbox). */
export const simulatedSettings = <Secret extends string>(
  kind: string,
  simulated: Omit<Simulated<Secret, unknown>, "simulator">,
  timeoutMs: number
): ConnectorSettings => ({
  id: kind,
  environment: "sandbox",
  baseUrl: simulated.baseUrl,
  timeoutMs,
  secrets: Object.fromEntries(Object.entries<string>(simulated.credentials).map(([name, value]) => [name, Redacted.make(value)])),
  values: { ...simulated.settings }
})

/** Builds the harness: `plugin(settings)` is the host's way (`options` then `make`). */
export const connectorConformance = <Options, Secret extends string, Sim, R extends HostServices>(
  kind: string,
  plugin: (settings: ConnectorSettings) => { readonly options: Options; readonly make: Effect.Effect<PaymentProvider, never, R> },
  definition: ConformanceDefinition<Options, Secret, Sim>
): ConnectorConformance => ({
  name: kind,
  options: definition.suites ?? {},
  harness: Effect.gen(function*() {
    const simulated = yield* definition.simulator
    const settings = simulatedSettings(kind, simulated, definition.timeoutMs ?? 2_000)
    const built = plugin(settings)
    const provider = yield* built.make
    const refused = plugin(simulatedSettings(
      kind,
      { ...simulated, credentials: { ...simulated.credentials, ...definition.invalidCredentials } },
      definition.timeoutMs ?? 2_000
    ))
    const providerWithInvalidCredentials = yield* refused.make
    const moves = yield* definition.moves(simulated.simulator, { provider, options: built.options })
    return { ...moves, provider, providerWithInvalidCredentials } satisfies ConformanceHarness
  }).pipe(Effect.provide(hostServices))
})
