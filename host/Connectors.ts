/**
 * Which provider connectors the reference host runs, read from the environment:
 *
 * ```sh
 * CONNECTORS=dlocal,dlocal-test=dlocal,mercadopago   # <id>[=<kind>], the kind defaults to the id
 * DLOCAL_ENVIRONMENT=production                        # sandbox | production, required
 * DLOCAL_SECRET_KEY_FILE=/run/secrets/dlocal_secret    # a secret from a file (trailing newline dropped) ...
 * DLOCAL_LOGIN=...                                     # ... or from a variable
 * DLOCAL_BASE_URL=https://...                          # optional: the connector's documented URL by default
 * DLOCAL_TIMEOUT_MS=10000                              # optional
 * ```
 *
 * A connector may have settlement payouts alone (`circle`: a closed settlement batch paid in
 * USDC to the merchant's blockchain address); its instance registers in
 * `SettlementPayoutProviders` for its one environment (`settlementPayoutProvidersLayer`):
 *
 * ```sh
 * CONNECTORS=circle
 * CIRCLE_ENVIRONMENT=production
 * CIRCLE_API_KEY_FILE=/run/secrets/circle_api_key
 * CIRCLE_WALLET_ID=1000066041                         # required by the connector
 * CIRCLE_CHAINS=ETH,SOL                               # optional
 * ```
 *
 * Each instance is one account at the provider in one environment; its variables are prefixed by
 * its id in upper case with `-` as `_` (`dlocal-test` reads `DLOCAL_TEST_*`). A secret comes from
 * `<PREFIX>_<NAME>` or from the file `<PREFIX>_<NAME>_FILE` names (the way container secrets are
 * mounted), never from JSON on a command line; it is kept `Redacted` from the moment it is read.
 * Anything missing or unknown stops the host at start with the variable's name (never a value).
 * Routing a shop to an instance is the admin API's `PUT /admin/v1/shops/{id}/routes/{providerId}`.
 *
 * Connectors published outside this repository are loaded by configuration, not by editing this
 * file: `CONNECTOR_MODULES=acme-connector,./connectors/other.js` names npm packages (resolved as
 * the host's own imports are, so installed beside the engine package) or module files (relative to
 * the working directory), each exporting `connector` (or a default export) of type `Connector`
 * from `payment-orchestration-engine/providers/kit`. Their kinds join the known ones for
 * `CONNECTORS`; a module that does not load, exports no connector or repeats a known kind stops
 * the host at start, naming it.
 */
import { Config, Effect, Layer, Option, Redacted, Schema } from "effect"
import { FetchHttpClient } from "effect/http"
import { Mac, SecureRandom } from "effect/crypto"
import { readFileSync } from "node:fs"
import { isAbsolute, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { Environment } from "../core/Environment.ts"
import { CardVault } from "../core/ports/CardVault.ts"
import { ConnectorKinds } from "../core/ports/ConnectorKinds.ts"
import { ProviderRegistry } from "../core/ports/ProviderRegistry.ts"
import { Payouts } from "../core/payouts/Payouts.ts"
import type { PayoutProviders } from "../core/ports/PayoutProvider.ts"
import { ProviderReports, type ProviderReportsEntry } from "../core/ports/ProviderReports.ts"
import { type SettlementPayoutProvider, SettlementPayoutProviders } from "../core/ports/SettlementPayoutProvider.ts"
import type { Connector, ConnectorSettings, PaymentConnectorRequirements } from "../providers/kit/Connector.ts"
import { settlementConnector as CircleConnector } from "../providers/circle/CirclePayouts.ts"
import { ConektaProvider } from "../providers/conekta/ConektaProvider.ts"
import { DLocalProvider } from "../providers/dlocal/DLocalProvider.ts"
import { EbanxProvider } from "../providers/ebanx/EbanxProvider.ts"
import { MercadoPagoProvider } from "../providers/mercadopago/MercadoPagoProvider.ts"
import { PagarmeProvider } from "../providers/pagarme/PagarmeProvider.ts"
import { ReferenceHttpProvider } from "../providers/reference-http/ReferenceHttpProvider.ts"

/** The connectors this host knows, by kind. */
export const knownConnectors: ReadonlyArray<Connector> = [
  ReferenceHttpProvider.connector,
  MercadoPagoProvider.connector,
  DLocalProvider.connector,
  EbanxProvider.connector,
  EbanxProvider.jwsConnector,
  PagarmeProvider.connector,
  ConektaProvider.connector,
  CircleConnector
]

export interface ConfiguredConnector {
  readonly connector: Connector
  readonly settings: ConnectorSettings
}

export class ConnectorConfigError extends Schema.TaggedError<ConnectorConfigError>()("ConnectorConfigError", {
  message: Schema.String
}) {}

const prefixOf = (id: string) => id.toUpperCase().replace(/[^A-Z0-9]/g, "_")

/** `<name>` or the contents of the file `<name>_FILE`; none when neither is set. */
export const secretSetting = (name: string) =>
  Effect.gen(function*() {
    const direct = yield* Config.option(Config.Redacted(name))
    if (Option.isSome(direct) && Redacted.value(direct.value) !== "") return direct
    const file = yield* Config.option(Config.String(`${name}_FILE`))
    if (Option.isNone(file)) return Option.none<Redacted.Redacted<string>>()
    const text = yield* Effect.try({
      try: () => readFileSync(file.value, "utf8").replace(/\r?\n$/, ""),
      catch: () => new ConnectorConfigError({ message: `${name}_FILE: cannot read the file it names` })
    })
    return Option.some(Redacted.make(text))
  })

const instance = (entry: string, known: ReadonlyArray<Connector>) =>
  Effect.gen(function*() {
    const [id = "", kind = id] = entry.split("=").map((part) => part.trim())
    if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(id)) {
      return yield* new ConnectorConfigError({ message: `CONNECTORS: '${id}' is not a provider id (lowercase letters, digits, - and _)` })
    }
    const connector = known.find((c) => c.kind === kind)
    if (connector === undefined) {
      return yield* new ConnectorConfigError({
        message: `CONNECTORS: unknown connector kind '${kind}' (known: ${known.map((c) => c.kind).join(", ")})`
      })
    }
    const prefix = prefixOf(id)
    const environment = yield* Config.schema(Environment, `${prefix}_ENVIRONMENT`)
    const secrets: Record<string, Redacted.Redacted<string>> = {}
    for (const name of connector.secrets) {
      const value = yield* secretSetting(`${prefix}_${name}`)
      if (Option.isNone(value)) {
        return yield* new ConnectorConfigError({ message: `${prefix}_${name} (or ${prefix}_${name}_FILE) is required by connector '${id}'` })
      }
      secrets[name] = value.value
    }
    const payoutSecrets = connector.payoutSecrets ?? []
    for (const name of payoutSecrets) {
      const value = yield* secretSetting(`${prefix}_${name}`)
      if (Option.isSome(value)) secrets[name] = value.value
    }
    const missingPayout = payoutSecrets.filter((name) => secrets[name] === undefined)
    if (missingPayout.length > 0 && missingPayout.length < payoutSecrets.length) {
      return yield* new ConnectorConfigError({
        message: `${missingPayout.map((name) => `${prefix}_${name}`).join(", ")} (or _FILE) are required by connector '${id}' for payouts, ` +
          `with ${payoutSecrets.filter((name) => !missingPayout.includes(name)).map((name) => `${prefix}_${name}`).join(", ")}`
      })
    }
    const values: Record<string, string> = {}
    for (const name of connector.requiredSettings ?? []) {
      const value = yield* Config.option(Config.String(`${prefix}_${name}`))
      if (Option.isNone(value) || value.value.trim() === "") {
        return yield* new ConnectorConfigError({ message: `${prefix}_${name} is required by connector '${id}'` })
      }
      values[name] = value.value
    }
    for (const name of connector.settings ?? []) {
      const value = yield* Config.option(Config.String(`${prefix}_${name}`))
      if (Option.isSome(value)) values[name] = value.value
    }
    const baseUrl = Option.getOrUndefined(yield* Config.option(Config.String(`${prefix}_BASE_URL`)))
    if (baseUrl === undefined && connector.baseUrlRequired === true) {
      return yield* new ConnectorConfigError({ message: `${prefix}_BASE_URL is required by connector '${id}'` })
    }
    const settings: ConnectorSettings = {
      id,
      environment,
      baseUrl,
      timeoutMs: Option.getOrUndefined(yield* Config.option(Config.Int(`${prefix}_TIMEOUT_MS`))),
      secrets,
      values
    }
    return { connector, settings } satisfies ConfiguredConnector
  })

/** Whether `value` has the shape of a `Connector` (what a module outside the repository exports). */
const isConnector = (value: unknown): value is Connector => {
  if (typeof value !== "object" || value === null) return false
  const c = value as Record<string, unknown>
  const names = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((n) => typeof n === "string"))
  return typeof c["kind"] === "string" && /^[a-z0-9][a-z0-9_-]{0,62}$/.test(c["kind"]) && Array.isArray(c["secrets"]) &&
    names(c["secrets"]) && names(c["payoutSecrets"]) && names(c["settings"]) && names(c["requiredSettings"]) &&
    (typeof c["paymentProvider"] === "function" || typeof c["payoutProvider"] === "function" ||
      typeof c["settlementPayoutProvider"] === "function")
}

/** A path (`./x.js`, `/opt/x.js`, `file:`) from the working directory, or a package name as the host imports it. */
const moduleUrl = (spec: string) =>
  spec.startsWith("file:") ? spec : spec.startsWith(".") || isAbsolute(spec) ? pathToFileURL(resolve(spec)).href : spec

/** The connectors of the modules `CONNECTOR_MODULES` names (comma separated), in order. */
export const readConnectorModules = (known: ReadonlyArray<Connector>) =>
  Effect.gen(function*() {
    const list = yield* Config.String("CONNECTOR_MODULES").pipe(Config.withDefault(""))
    const loaded: Array<Connector> = []
    for (const spec of list.split(",").map((e) => e.trim()).filter((e) => e !== "")) {
      const module = yield* Effect.tryPromise({
        try: () => import(moduleUrl(spec)) as Promise<Record<string, unknown>>,
        catch: (e) => new ConnectorConfigError({ message: `CONNECTOR_MODULES: cannot load '${spec}': ${e instanceof Error ? e.message : String(e)}` })
      })
      const connector = isConnector(module["connector"]) ? module["connector"] : module["default"]
      if (!isConnector(connector)) {
        return yield* new ConnectorConfigError({
          message: `CONNECTOR_MODULES: '${spec}' exports no connector (an export named 'connector', or a default export, of type Connector from payment-orchestration-engine/providers/kit)`
        })
      }
      if ([...known, ...loaded].some((c) => c.kind === connector.kind)) {
        return yield* new ConnectorConfigError({ message: `CONNECTOR_MODULES: '${spec}' exports kind '${connector.kind}', which is already known` })
      }
      loaded.push(connector)
    }
    return loaded as ReadonlyArray<Connector>
  })

/**
 * The instances `CONNECTORS` names, each with its settings read and checked, among the `known`
 * connectors and those `CONNECTOR_MODULES` loads.
 */
export const readConnectors = (builtIn: ReadonlyArray<Connector> = knownConnectors) =>
  Effect.flatMap(readKnownConnectors(builtIn), readConnectorsAmong)

/** The built-in connectors and those `CONNECTOR_MODULES` loads: the kinds `CONNECTORS` and connector accounts may name. */
export const readKnownConnectors = (builtIn: ReadonlyArray<Connector> = knownConnectors) =>
  Effect.map(readConnectorModules(builtIn), (loaded): ReadonlyArray<Connector> => [...builtIn, ...loaded])

/** The instances `CONNECTORS` names among the `known` connectors. */
export const readConnectorsAmong = (known: ReadonlyArray<Connector>) =>
  Effect.gen(function*() {
    const list = yield* Config.String("CONNECTORS").pipe(Config.withDefault(""))
    const entries = list.split(",").map((e) => e.trim()).filter((e) => e !== "")
    const configured: Array<ConfiguredConnector> = []
    for (const entry of entries) {
      const next = yield* instance(entry, known)
      if (configured.some((c) => c.settings.id === next.settings.id)) {
        return yield* new ConnectorConfigError({ message: `CONNECTORS: '${next.settings.id}' is listed twice` })
      }
      configured.push(next)
    }
    return configured as ReadonlyArray<ConfiguredConnector>
  })

/** What every connector's plugins are built with, with the host's card vault (none: `CardVault.unconfigured`). */
const requirements = (cardVault: Layer.Layer<CardVault>) =>
  Layer.mergeAll(FetchHttpClient.layer, Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto)), cardVault)
/** Payout, settlement and report plugins charge no card: they never see the vault. */
const Requirements = requirements(CardVault.unconfigured)

/** Registers the pay-in plugin of every configured instance that has one; a card connector's charges go through `cardVault`. */
export const paymentProvidersLayer = (configured: ReadonlyArray<ConfiguredConnector>, cardVault: Layer.Layer<CardVault> = CardVault.unconfigured) =>
  Layer.mergeAll(
    Layer.empty,
    ...configured.flatMap(({ connector, settings }) =>
      connector.paymentProvider === undefined ? [] : [ProviderRegistry.register(connector.paymentProvider(settings))]
    )
  ).pipe(Layer.provide(requirements(cardVault)))

/**
 * The kinds connector accounts (`core/connectors/`) can be made of: every known connector with a
 * pay-in plugin, built with the host's HTTP client, MACs and card vault.
 */
export const connectorKindsLayer = (known: ReadonlyArray<Connector>, cardVault: Layer.Layer<CardVault> = CardVault.unconfigured) =>
  Layer.effect(
    ConnectorKinds,
    Effect.map(Effect.context<PaymentConnectorRequirements>(), (context) =>
      ConnectorKinds.of({
        kinds: known.map((connector) => ({
          kind: connector.kind,
          secrets: connector.secrets,
          settings: connector.settings ?? [],
          requiredSettings: connector.requiredSettings ?? [],
          baseUrlRequired: connector.baseUrlRequired === true,
          paymentProvider: connector.paymentProvider === undefined
            ? undefined
            : (settings) => Effect.provideContext(connector.paymentProvider!(settings), context)
        }))
      }))
  ).pipe(Layer.provide(requirements(cardVault)))

/** Whether the instance can pay out: its connector has a payout plugin, and its payout secrets are set. */
const paysOut = ({ connector, settings }: ConfiguredConnector) =>
  connector.payoutProvider !== undefined && (connector.payoutSecrets ?? []).every((name) => settings.secrets[name] !== undefined)

/** The payout plugins of every configured instance that has one and its payout secrets. */
export const payoutProvidersLayer = (configured: ReadonlyArray<ConfiguredConnector>): Layer.Layer<PayoutProviders> =>
  Layer.unwrap(
    Effect.map(
      Effect.forEach(configured.filter(paysOut).map(({ connector, settings }) => connector.payoutProvider!(settings)), (make) => make),
      Payouts.providers
    )
  ).pipe(Layer.provide(Requirements))

/**
 * The settlement payout plugins of every configured instance that has one, each registered for
 * its instance's one environment (a `circle-sandbox` instance pays sandbox batches only).
 */
export const settlementPayoutProvidersLayer = (configured: ReadonlyArray<ConfiguredConnector>): Layer.Layer<SettlementPayoutProviders> =>
  Layer.unwrap(
    Effect.map(
      Effect.forEach(
        configured.flatMap(({ connector, settings }) =>
          connector.settlementPayoutProvider === undefined ? [] : [
            // Whatever the plugin says, the instance is one account in one environment.
            Effect.map(connector.settlementPayoutProvider(settings), (provider): SettlementPayoutProvider => ({
              ...provider,
              environments: provider.environments.filter((environment) => environment === settings.environment)
            }))
          ]
        ),
        (make) => make
      ),
      SettlementPayoutProviders.layer
    )
  ).pipe(Layer.provide(Requirements))

/**
 * The report formats and reports APIs of every configured instance that has them, for
 * reconciliation: an operator uploads a file in one of an instance's formats; an instance with a
 * reports API is also fetched from by the scheduled runs.
 */
export const providerReportsLayer = (configured: ReadonlyArray<ConfiguredConnector>): Layer.Layer<ProviderReports> =>
  Layer.unwrap(
    Effect.map(
      Effect.forEach(
        configured.filter(({ connector }) => connector.reportFormats !== undefined || connector.reportSource !== undefined),
        ({ connector, settings }) =>
          Effect.map(
            connector.reportSource === undefined ? Effect.succeed(null) : connector.reportSource(settings),
            (source): ProviderReportsEntry => {
              const formats = connector.reportFormats?.(settings) ?? []
              return {
                provider: settings.id,
                environment: settings.environment,
                formats: source === null || formats.some((f) => f.name === source.format.name) ? formats : [...formats, source.format],
                source
              }
            }
          )
      ),
      ProviderReports.layer
    )
  ).pipe(Layer.provide(Requirements))
