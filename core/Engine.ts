/**
 * The engine's core services as one layer, for embedders and for the reference host. It needs
 * the storage ports (memory or SQL adapter), a `TokenSigner` and the `EngineConfig`; ids,
 * hashing and HMAC are in `Foundation`. Provider plugins register into the `ProviderRegistry`
 * this layer exposes.
 */
import { type Duration, Layer, Logger, type LogLevel, References } from "effect"
import { Digest, Mac, SecureRandom } from "effect/crypto"
import { Auth } from "./auth/Auth.ts"
import { Balances } from "./balances/Balances.ts"
import { Swaps } from "./balances/Swaps.ts"
import { Withdrawals } from "./balances/Withdrawals.ts"
import { Catalog } from "./catalog/Catalog.ts"
import { Checkout } from "./checkout/Checkout.ts"
import { SandboxClocks } from "./clock/SandboxClocks.ts"
import { ShopClocks } from "./clock/ShopClocks.ts"
import { Refunds } from "./refunds/Refunds.ts"
import { Deposits } from "./deposits/Deposits.ts"
import { Fx } from "./fx/Fx.ts"
import { Idempotency } from "./idempotency/Idempotency.ts"
import { Ids } from "./Ids.ts"
import { Jobs } from "./jobs/Jobs.ts"
import { Ledger } from "./ledger/Ledger.ts"
import { Payments } from "./payments/Payments.ts"
import { Payouts } from "./payouts/Payouts.ts"
import { Routing } from "./routing/Routing.ts"
import { ProviderRegistry } from "./ports/ProviderRegistry.ts"
import { Merchants } from "./tenancy/Merchants.ts"
import { Scopes } from "./tenancy/Scopes.ts"
import { Settlements } from "./settlements/Settlements.ts"
import { SettlementPayoutProviders } from "./ports/SettlementPayoutProvider.ts"
import { ProviderReports } from "./ports/ProviderReports.ts"
import { Reconciliation } from "./reconciliation/Reconciliation.ts"
import { Events } from "./webhooks/Events.ts"
import { Webhooks } from "./webhooks/Webhooks.ts"
import * as SecureRandomPool from "./SecureRandomPool.ts"
import { EngineConfig } from "./EngineConfig.ts"
import { RestrictedKeys } from "./auth/RestrictedKeys.ts"
import { Audit } from "./audit/Audit.ts"
import { ConnectorAccounts } from "./connectors/ConnectorAccounts.ts"
import { Team } from "./team/Team.ts"
import { SingleSignOn } from "./team/SingleSignOn.ts"
import { AuditRetention } from "./audit/Retention.ts"
import { ConnectorKinds } from "./ports/ConnectorKinds.ts"

/**
 * The core services, needing ids, hashing, the storage ports, a token signer, a webhook sender
 * and the config.
 */
export const services = Layer.mergeAll(Team.layer, SingleSignOn.layer).pipe(Layer.provideMerge(Layer.mergeAll(
  Auth.layer,
  RestrictedKeys.layer,
  ConnectorAccounts.layer,
  AuditRetention.layer,
  Merchants.layer,
  Scopes.layer,
  Checkout.layer,
  Deposits.layer,
  Balances.layer,
  Swaps.layer,
  Withdrawals.layer,
  Payouts.layer,
  SandboxClocks.layer,
  Reconciliation.layer
))).pipe(
  Layer.provideMerge(Settlements.layer),
  Layer.provideMerge(Payments.layer),
  Layer.provideMerge(Refunds.layer),
  Layer.provideMerge(Layer.mergeAll(Events.layer, Webhooks.layer)),
  Layer.provideMerge(Catalog.layer),
  Layer.provideMerge(Layer.mergeAll(Routing.layer, Fx.layer, Ledger.layer, Jobs.layer, Idempotency.layer)),
  Layer.provideMerge(Layer.mergeAll(ProviderRegistry.layer, ShopClocks.layer, Audit.layer))
)

/** Hashing, HMAC and randomness the engine uses: WebCrypto (any runtime; randomness pooled) unless a host gives its own. */
export type CryptoServices = Digest.Digest | Mac.Mac | SecureRandom.SecureRandom

const crypto: Layer.Layer<CryptoServices> = Layer.mergeAll(Digest.layerWebCrypto, Mac.layerWebCrypto).pipe(
  Layer.provideMerge(SecureRandomPool.layer)
)

/**
 * Production ids (ULIDs) with the given crypto services. A Node host passes `NodeCrypto`'s
 * (`node:crypto`, synchronous): WebCrypto's digest is a promise on the thread pool, which cost
 * every authenticated request and idempotent create more CPU than the hash itself.
 */
export const foundationWith = (cryptoServices: Layer.Layer<CryptoServices>) => Layer.mergeAll(Ids.layer, cryptoServices)

/** Production ids (ULIDs) and WebCrypto hashing, HMAC and randomness. */
export const Foundation = foundationWith(crypto)

/** Deterministic ids (`TXN-000001`, ...), for tests. */
export const FoundationTest = Layer.mergeAll(Ids.layerTest, crypto)

/** What `Engine.make` assembles a runnable engine from. */
export interface EngineParts<S, SE, T, TE, W, WE, PE, PR> {
  readonly config: EngineConfig["Service"]
  /** The stores: `MemoryStore.layer` (`/store/memory`), `SqlStore.postgres(url)` or `SqlStore.pglite(dir)` (`/store/sql`). */
  readonly store: Layer.Layer<S, SE>
  /** Access tokens: `JoseTokenSigner.layer(secret)` (`/adapters`). */
  readonly tokenSigner: Layer.Layer<T, TE>
  /** Webhook deliveries: `HttpWebhookSender.layer({ allowPrivateTargets: false })` (`/adapters`). */
  readonly webhookSender: Layer.Layer<W, WE>
  /**
   * Provider plugins, each a layer registering into the `ProviderRegistry`:
   * `SandboxProvider.layer(...)` (`/providers/sandbox`), a connector's `layer(...)`. Without one,
   * every payment fails with `422 cascade_exhausted`.
   */
  readonly providers?: ReadonlyArray<Layer.Layer<never, PE, PR>> | undefined
  /**
   * Settlement payout plugins (`SettlementPayoutProviders.layer([...])`, e.g. Circle's). Without
   * one, only sandbox shops' batches (on the sandbox chain) can be paid; a production schedule is
   * refused with 422 `settlement_destination_unavailable`.
   */
  readonly settlementPayoutProviders?: Layer.Layer<SettlementPayoutProviders> | undefined
  /**
   * The providers' report formats and reports APIs, for reconciliation
   * (`ProviderReports.layer([...])`). Without it, every report upload and run is refused.
   */
  readonly providerReports?: Layer.Layer<ProviderReports> | undefined
  /**
   * The connector kinds connector accounts can be made of (`ConnectorKinds`; the reference host
   * gives its known connectors'). Absent: none, every account is refused.
   */
  readonly connectorKinds?: Layer.Layer<ConnectorKinds> | undefined
  /**
   * How often the two background loops look for due work: `Jobs.worker` (expiry, sandbox
   * outcomes, settlement, reconcile, recovery) and `Webhooks.worker` (deliveries). Default
   * 1 second; `false` starts neither (another process of the same store runs them).
   */
  readonly workerInterval?: Duration.Input | false | undefined
  /**
   * Where the engine's log lines go (the HTTP handler's line per request, the workers' warnings
   * and errors), in place of Effect's default logger (pretty, several lines an entry, on the
   * console): your own (`Logger.make((entry) => ...)`, e.g. one handing the entry to your
   * application's logger), or one of Effect's (`Logger.consoleJson`, `Logger.consoleLogFmt`: a
   * line each). `[]` drops every line. Absent: Effect's default.
   */
  readonly loggers?: ReadonlyArray<Logger.Logger<unknown, unknown>> | undefined
  /**
   * The lowest level logged (`References.MinimumLogLevel`): `"Warn"` keeps the Info line per
   * request out and the warnings and errors in, `"None"` silences the engine. Default `"Info"`.
   */
  readonly logLevel?: LogLevel.LogLevel | undefined
}

/**
 * A runnable engine in one call: the core services on the given store, token signer and webhook
 * sender, the given provider plugins registered, and the job and webhook loops running for as
 * long as the layer is built (a `ManagedRuntime` until `dispose`).
 */
const make = <S, SE, T, TE, W, WE, PE = never, PR = never>(parts: EngineParts<S, SE, T, TE, W, WE, PE, PR>) => {
  const every = parts.workerInterval ?? "1 second"
  const workers = every === false ? Layer.empty : Layer.mergeAll(Jobs.worker(every), Webhooks.worker(every))
  // Every engine of a store serves its connector accounts, whether or not it runs the workers.
  return Layer.mergeAll(workers, ConnectorAccounts.syncEvery("1 second"), ...(parts.providers ?? [])).pipe(
    Layer.provideMerge(services),
    Layer.provideMerge(parts.connectorKinds ?? ConnectorKinds.none),
    Layer.provideMerge(Payouts.noProviders),
    Layer.provideMerge(parts.settlementPayoutProviders ?? SettlementPayoutProviders.none),
    Layer.provideMerge(parts.providerReports ?? ProviderReports.none),
    Layer.provideMerge(Foundation),
    Layer.provideMerge(Layer.mergeAll(parts.tokenSigner, parts.webhookSender, Layer.succeed(EngineConfig, parts.config))),
    Layer.provideMerge(parts.store),
    // Outermost and merged: the store, the workers and the requests of `toFetchHandler` (which
    // keeps what the engine layer built in each request's context) all log through them.
    Layer.provideMerge(Layer.mergeAll(
      parts.loggers === undefined ? Layer.empty : Logger.layer(parts.loggers),
      parts.logLevel === undefined ? Layer.empty : Layer.succeed(References.MinimumLogLevel, parts.logLevel)
    ))
  )
}

export const Engine = {
  /** A runnable engine (services, providers, workers) from its parts; see `EngineParts`. */
  make,
  services,
  /** With no payout provider plugins: real-rail payouts go through the simulated driver. */
  layer: services.pipe(
    Layer.provideMerge(Payouts.noProviders),
    Layer.provideMerge(SettlementPayoutProviders.none),
    Layer.provideMerge(ProviderReports.none),
    Layer.provideMerge(Foundation)
  ),
  layerTest: services.pipe(
    Layer.provideMerge(Payouts.noProviders),
    Layer.provideMerge(SettlementPayoutProviders.none),
    Layer.provideMerge(ProviderReports.none),
    Layer.provideMerge(FoundationTest)
  )
}
