/**
 * How a connector tells a host what it needs to be configured: its kind, the names of its secret
 * and plain settings, and how to build its plugins from them. The reference host reads every
 * setting from the environment (a secret from `<PREFIX>_<NAME>` or from the file named by
 * `<PREFIX>_<NAME>_FILE`), see `host/Connectors.ts`; an embedding builds the plugins from its own
 * configuration with the connector's `make` functions directly.
 */
import { Effect, type Layer, type Scope } from "effect"
import type { Mac } from "effect/crypto"
import type { HttpClient } from "effect/http"
import type { CardVault, Environment } from "../../core/ports/index.ts"
import type { PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import { ProviderRegistry } from "../../core/ports/ProviderRegistry.ts"
import type { PayoutProvider } from "../../core/ports/PayoutProvider.ts"
import type { ReportFormat, ReportSource } from "../../core/ports/ProviderReports.ts"
import type { SettlementPayoutProvider } from "../../core/ports/SettlementPayoutProvider.ts"
import { type ConformanceDefinition, connectorConformance, type ConnectorConformance, type Simulated, simulatedSettings } from "./ConnectorConformance.ts"
import type { ConnectorSettings } from "./ConnectorSettings.ts"
import { CurrentControl, hostEnvironment, type Started, type StandaloneSimulator } from "./Standalone.ts"

export type { ConnectorSettings } from "./ConnectorSettings.ts"

export {
  type BuiltPlugin,
  type ConformanceDefinition,
  type ConnectorConformance,
  type HostServices,
  hostServices,
  type Simulated,
  type SimulatorMoves
} from "./ConnectorConformance.ts"

/** What a connector's plugins may use, provided by the host: HTTP and MACs. */
export type ConnectorRequirements = HttpClient.HttpClient | Mac.Mac

/** A pay-in plugin may also use the card vault (`core/ports/CardVault.ts`), to charge card rails. */
export type PaymentConnectorRequirements = ConnectorRequirements | CardVault

export interface Connector {
  /** The connector's name in configuration (`CONNECTORS=<id>=<kind>`). */
  readonly kind: string
  /** Secret settings, e.g. `["LOGIN", "TRANS_KEY", "SECRET_KEY"]`; all are required. */
  readonly secrets: ReadonlyArray<string>
  /**
   * Secrets only the payout plugin needs (dLocal's Payouts v3 `CLIENT_ID`, `CLIENT_SECRET`): all
   * or none. Without them the instance serves pay-ins only; with some but not all the host
   * refuses to start.
   */
  readonly payoutSecrets?: ReadonlyArray<string> | undefined
  /** Whether `BASE_URL` must be given (a connector with no documented public URL). */
  readonly baseUrlRequired?: boolean | undefined
  /** Plain optional settings, e.g. `["PAYOUT_PURPOSE"]`. */
  readonly settings?: ReadonlyArray<string> | undefined
  /**
   * Plain settings that must be given (Circle's `WALLET_ID`): the host refuses to start without
   * them, naming the variable. They reach the plugin in `values` like `settings`.
   */
  readonly requiredSettings?: ReadonlyArray<string> | undefined
  readonly paymentProvider?: ((settings: ConnectorSettings) => Effect.Effect<PaymentProvider, never, PaymentConnectorRequirements>) | undefined
  readonly payoutProvider?: ((settings: ConnectorSettings) => Effect.Effect<PayoutProvider, never, ConnectorRequirements>) | undefined
  /**
   * The settlement payout plugin (`core/ports/SettlementPayoutProvider.ts`): how a closed
   * settlement batch's net is paid to the merchant's own destination (Circle's USDC transfers to
   * a blockchain address). The host registers it in `SettlementPayoutProviders` for the
   * instance's one environment, on the chains the plugin names; a connector may have this alone,
   * with no pay-in or payout plugin.
   */
  readonly settlementPayoutProvider?:
    | ((settings: ConnectorSettings) => Effect.Effect<SettlementPayoutProvider, never, ConnectorRequirements>)
    | undefined
  /**
   * The formats of the provider's report files an operator may upload for this instance
   * (`POST /admin/v1/reconciliation/reports`), e.g. dLocal's settlement CSV.
   */
  readonly reportFormats?: ((settings: ConnectorSettings) => ReadonlyArray<ReportFormat>) | undefined
  /**
   * Where the provider has a reports API: how the instance fetches its report for a period, for
   * the scheduled reconciliation runs. Its `format` must be one of `reportFormats`.
   */
  readonly reportSource?: ((settings: ConnectorSettings) => Effect.Effect<ReportSource, never, ConnectorRequirements>) | undefined
}

/** The settings every connector's options take as they are (the kit supplies them to `options`). */
export interface CommonOptions {
  readonly id: string
  readonly environment: Environment
  readonly baseUrl: string | undefined
  readonly timeoutMs: number | undefined
}

/** The common settings the plugin's `Options` take as the host gives them (a field typed otherwise is not supplied). */
type Supplied<Options> = {
  [K in keyof CommonOptions & keyof Options]: CommonOptions[K] extends Options[K] ? K : never
}[keyof CommonOptions & keyof Options]

/**
 * What a connector's `options` answers: its own secrets and settings; the kit supplies `id`,
 * `environment`, `baseUrl` and `timeoutMs` where its `Options` takes them as given (it may still
 * map one itself, which then wins).
 */
export type OwnOptions<Options> = Omit<Options, Supplied<Options>> & Partial<Pick<Options, Supplied<Options>>>

/**
 * A pay-in connector as it is declared: what it charges, what it speaks, how it reads the
 * provider's statuses, its flows, and what a host must configure. {@link defineConnector} turns it
 * into everything a host, a test and the simulator runner take from a connector.
 */
export interface ConnectorDefinition<Options, Secret extends string, Rail, R extends PaymentConnectorRequirements = PaymentConnectorRequirements> extends Omit<Connector, "secrets" | "paymentProvider"> {
  /** Secret settings, all required; the standalone simulator's credentials are typed by them. */
  readonly secrets: ReadonlyArray<Secret>
  /** The catalog rails the connector charges, with the provider's own word for each (its `Rails.ts`). */
  readonly rails: ReadonlyArray<Rail>
  /** The provider's wire, as Schemas (its `Wire.ts` module). */
  readonly wire: object
  /**
   * The status maps by the object they read (`payments`, `refunds`...), each an object literal
   * that `satisfies StatusMap<typeof Documented, EngineStatus>` (`StatusMap.ts`): total over the
   * statuses the provider documents, so an unmapped one does not compile.
   */
  readonly statusMaps: Readonly<Record<string, Readonly<Record<string, string>>>>
  /** The flows: the plugin (charge, status, callbacks, refunds) for one account's options. */
  readonly make: (options: Options) => Effect.Effect<PaymentProvider, never, R>
  /**
   * One configured instance's secrets and settings as the plugin's options; `id`, `environment`,
   * `baseUrl` and `timeoutMs` are supplied (see {@link OwnOptions}).
   */
  readonly options: (settings: ConnectorSettings) => OwnOptions<Options>
}

/** What the simulator of a defined connector answers when started: its `Started`, with the credentials it accepts. */
export interface SimulatorStarted<Secret extends string> extends Omit<Started, "environment"> {
  /** The test credentials, one for each of the connector's `secrets`. */
  readonly credentials: Readonly<Record<Secret, string>>
  /** The instance's further variables the simulator needs set (plain settings, payout secrets), by name. */
  readonly settings?: Readonly<Record<string, string>> | undefined
}

/** A connector, declared once: the host's descriptor, the plugin's layer, and what tests and the simulator runner need. */
export interface DefinedConnector<Options, Secret extends string, Rail, R extends PaymentConnectorRequirements = PaymentConnectorRequirements> {
  readonly kind: string
  readonly rails: ReadonlyArray<Rail>
  readonly wire: object
  readonly statusMaps: Readonly<Record<string, Readonly<Record<string, string>>>>
  /** The plugin for one account (what a conformance harness runs against its simulator). */
  readonly make: (options: Options) => Effect.Effect<PaymentProvider, never, R>
  /** A host's settings as the plugin's options, the common ones supplied (a harness builds the plugin the way the host does). */
  readonly options: (settings: ConnectorSettings) => Options
  /**
   * The plugin's options for an instance pointed at a started simulator, as the host builds them
   * (id = kind, `sandbox`, a 2 s budget), with `overrides` on top: for tests of the plugin itself.
   */
  readonly optionsFor: (simulated: Omit<Simulated<Secret, unknown>, "simulator">, overrides?: Partial<Options>) => Options
  /**
   * The conformance harness (`providerConformance(AcmeConnector.conformance({...}))`): starts the
   * simulator, builds the plugin from the credentials it answers the way the host does (and a
   * copy with `invalidCredentials`), provides the host's services (HTTP, MACs, an unconfigured
   * card vault), and adds the simulator's `moves`.
   */
  readonly conformance: <Sim>(definition: ConformanceDefinition<Options, Secret, Sim>) => ConnectorConformance
  /** What the host configures the connector from (`CONNECTORS=<id>=<kind>`, `host/Connectors.ts`). */
  readonly connector: Connector
  /** Registers the plugin for one account; the host provides `HttpClient` and `Mac`. */
  readonly layer: (options: Options) => Layer.Layer<never, never, R | ProviderRegistry>
  /**
   * The default export of the connector's `Standalone.ts` (`npm run simulator -- <folder>`):
   * starts the simulator, and points the reference host's instance (id = kind) at it with the
   * credentials it answers. Test tooling only: the simulator is imported by `Standalone.ts`,
   * never by the plugin.
   */
  readonly standalone: (start: Effect.Effect<SimulatorStarted<Secret>, never, Scope.Scope>) => StandaloneSimulator
}

/**
 * Declares a pay-in connector. A provider team (in this repository or outside it, from
 * `payment-orchestration-engine/providers/kit`) writes the rails, the wire schemas, the status
 * maps and the flows, and gets the rest:
 *
 * ```ts
 * export const AcmeConnector = defineConnector({
 *   kind: "acme",
 *   secrets: ["API_KEY", "CALLBACK_SECRET"],
 *   rails,                                   // Rails.ts
 *   wire: Wire,                              // Wire.ts: Schemas, Schema.Literals of the statuses
 *   statusMaps: { charges: Wire.chargeStatusMap, refunds: Wire.refundStatusMap },
 *   make,                                    // (options) => Effect<PaymentProvider>
 *   options: (settings) => ({ apiKey: settings.secrets["API_KEY"]!, ... })   // id, environment, baseUrl, timeoutMs: the kit's
 * })
 * export const { connector, layer } = AcmeConnector   // CONNECTOR_MODULES finds `connector`
 *
 * // ConformanceHarness.ts (test tooling): the simulator's start, declared once, and its moves
 * export const simulator = Effect.map(AcmeSimulator.start(credentials), (sim) => ({ simulator: sim, baseUrl: sim.baseUrl, credentials }))
 * export const harness = AcmeConnector.conformance({
 *   simulator,
 *   invalidCredentials: { API_KEY: "wrong" },
 *   suites: { callbacks: "signed" },
 *   moves: (sim, { provider }) => Effect.succeed({ method, completeUpstream: sim.complete, ... })
 * })
 *
 * // Standalone.ts (test tooling)
 * export default AcmeConnector.standalone(Effect.gen(function*() {
 *   const { simulator: sim, ...started } = yield* simulator
 *   return { ...started, moves }
 * }))
 *
 * // acme.conformance.ts (vitest)
 * providerConformance(harness)
 * ```
 *
 * The other `Connector` fields (plain settings, payout secrets, the payout plugin, report
 * formats and sources) pass through to `connector` as given.
 */
export const defineConnector = <Options, const Secret extends string, Rail, R extends PaymentConnectorRequirements = never>(
  definition: ConnectorDefinition<Options, Secret, Rail, R>
): DefinedConnector<Options, Secret, Rail, R> => {
  const { make, options: own, rails, wire, statusMaps, ...described } = definition
  const options = (settings: ConnectorSettings): Options =>
    ({ id: settings.id, environment: settings.environment, baseUrl: settings.baseUrl, timeoutMs: settings.timeoutMs, ...own(settings) }) as Options
  const connector: Connector = { ...described, paymentProvider: (settings) => make(options(settings)) }
  return {
    kind: definition.kind,
    rails,
    wire,
    statusMaps,
    make,
    options,
    connector,
    optionsFor: (simulated, overrides) => ({ ...options(simulatedSettings(definition.kind, simulated, 2_000)), ...overrides }),
    conformance: (spec) =>
      connectorConformance(definition.kind, (settings) => {
        const given = options(settings)
        return { options: given, make: make(given) }
      }, spec),
    layer: (given) => ProviderRegistry.register(make(given)),
    standalone: (start) => ({
      kind: definition.kind,
      start: Effect.flatMap(Effect.service(CurrentControl), (control) =>
        start.pipe(Effect.map(({ credentials, settings, ...started }): Started => ({
          ...started,
          environment: hostEnvironment(definition.kind, started.baseUrl, { ...credentials, ...settings }, control?.account)
        }))))
    })
  }
}
