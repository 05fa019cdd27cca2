/**
 * The reference host as layers: store, engine, token signer, HTTP application and the Node
 * server. `main.ts` launches it; tests start it on port 0 against any store.
 */
import { NodeCrypto, NodeHttpServer } from "@effect/platform-node"
import { Console, Duration, Effect, Formatter, Layer, Logger, Metric, Option, Redacted, References } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { createServer } from "node:http"
import { EnvelopeSealing } from "../adapters/auth/EnvelopeSealing.ts"
import { JoseTokenSigner } from "../adapters/auth/JoseTokenSigner.ts"
import { Sealing } from "../core/ports/Sealing.ts"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Readiness } from "../adapters/http/server/handlers/Health.ts"
import { HttpApp } from "../adapters/http/server/HttpApp.ts"
import { HttpConfig } from "../adapters/http/server/support/HttpConfig.ts"
import { HttpWebhookSender } from "../adapters/webhooks/HttpWebhookSender.ts"
import { SqlStore } from "../adapters/storage/sql/SqlStore.ts"
import { EngineConfig, isDevelopmentSecret } from "../core/EngineConfig.ts"
import { Engine, foundationWith } from "../core/Engine.ts"
import { Jobs } from "../core/jobs/Jobs.ts"
import { Webhooks } from "../core/webhooks/Webhooks.ts"
import type { PayoutProviders } from "../core/ports/PayoutProvider.ts"
import type { ProviderReports } from "../core/ports/ProviderReports.ts"
import type { SettlementPayoutProviders } from "../core/ports/SettlementPayoutProvider.ts"
import { SandboxProvider } from "../providers/sandbox/SandboxProvider.ts"
import { Ids } from "../core/Ids.ts"
import * as SecureRandomPool from "../core/SecureRandomPool.ts"
import { SettingsStore } from "../core/ports/SettingsStore.ts"
import { TenancyStore } from "../core/ports/TenancyStore.ts"
import { Merchants } from "../core/tenancy/Merchants.ts"
import { checkKeys, type HostConfig, keysRequired } from "./Config.ts"
import { TelemetryLive } from "./Telemetry.ts"
import { cardVaultLayer } from "./Vault.ts"
import { CardVault } from "../core/ports/CardVault.ts"
import { connectorKindsLayer, paymentProvidersLayer, payoutProvidersLayer, providerReportsLayer, settlementPayoutProvidersLayer } from "./Connectors.ts"
import { ConnectorAccounts } from "../core/connectors/ConnectorAccounts.ts"
import { ScryptPasswords } from "../adapters/auth/ScryptPasswords.ts"
import { TotpCodes } from "../adapters/auth/TotpCodes.ts"
import { OpenIdClient } from "../adapters/auth/OpenIdClient.ts"
import { SmtpMailer } from "../adapters/mail/SmtpMailer.ts"
import { Mailer } from "../core/ports/Mailer.ts"

/** PostgreSQL when `DATABASE_URL` is set, else embedded PGlite in `DATA_DIR`; secrets sealed with the host's key. */
export const storeLayer = (config: HostConfig) =>
  Option.match(config.databaseUrl, {
    onNone: () => SqlStore.pglite(config.dataDir),
    onSome: (url) => SqlStore.postgres(Redacted.value(url))
  }).pipe(Layer.provide(sealingLayer(config)))

/** The file a development host keeps its sealing key in when `SEALING_KEY` is not set. */
const developmentSealingKeyFile = (dataDir: string) => join(dataDir, "sealing.key")

/**
 * The key the store's secrets are sealed under: `SEALING_KEY` (then `SEALING_PREVIOUS_KEYS`).
 * Without it a production host (`keysRequired`) refuses to start; a development host on embedded
 * PGlite keeps a generated key in `DATA_DIR/sealing.key` (in memory when it has no `DATA_DIR`).
 */
export const sealingLayer = (config: HostConfig): Layer.Layer<Sealing> => {
  // One layer per config, so the store and the token signer share one build (one warning).
  const known = sealingLayers.get(config)
  if (known !== undefined) return known
  const made = makeSealingLayer(config)
  sealingLayers.set(config, made)
  return made
}
const sealingLayers = new WeakMap<HostConfig, Layer.Layer<Sealing>>()

const makeSealingLayer = (config: HostConfig) =>
  Layer.unwrap(Effect.gen(function*() {
    const [current, ...previous] = config.sealingKeys
    if (current !== undefined) return EnvelopeSealing.layer([current, ...previous])
    const required = keysRequired(config)
    if (required !== undefined) {
      return yield* Effect.die(new Error(`SEALING_KEY (or SEALING_KEY_FILE) is required: ${required}. Make one with: openssl rand -hex 32`))
    }
    if (config.dataDir === "") return Layer.succeed(Sealing, EnvelopeSealing.processSealing())
    const file = developmentSealingKeyFile(config.dataDir)
    const key = yield* Effect.sync(() => {
      mkdirSync(config.dataDir, { recursive: true })
      if (!existsSync(file)) writeFileSync(file, `${EnvelopeSealing.generateSealingKey()}\n`, { mode: 0o600, flag: "wx" })
      return readFileSync(file, "utf8").trim()
    })
    yield* Effect.logWarning(`SEALING_KEY is not set: development sealing key kept in ${file} (a production host refuses to start without SEALING_KEY)`)
    return EnvelopeSealing.layer([Redacted.make(key)])
  }))

const generatedJwtKey = "jwt_secret.sealed"
/** Where hosts before sealing kept the generated key, in plain text. */
const plaintextJwtKey = "jwt_secret"

/**
 * The JWT keys: `JWT_SECRET` (and `JWT_PREVIOUS_SECRETS`). Without it a production host refuses
 * to start; a development host generates one on first start and shares it through the store,
 * sealed (a key an older host kept in plain text is sealed and its plain copy removed).
 */
const tokenSignerLayer = (config: HostConfig) =>
  Layer.unwrap(Effect.gen(function*() {
    if (Option.isSome(config.jwtSecret)) return JoseTokenSigner.layer({ current: config.jwtSecret.value, previous: config.jwtPreviousSecrets })
    const required = keysRequired(config)
    if (required !== undefined) {
      return yield* Effect.die(new Error(`JWT_SECRET (or JWT_SECRET_FILE) is required: ${required}. Make one with: openssl rand -hex 32`))
    }
    const ids = yield* Ids
    const settings = yield* SettingsStore
    const sealing = yield* Sealing
    const legacy = yield* settings.get(plaintextJwtKey)
    const candidate = Option.isSome(legacy) ? legacy.value : yield* ids.secret("", 48)
    const stored = yield* settings.putIfAbsent(generatedJwtKey, yield* sealing.seal(candidate, `setting:${generatedJwtKey}`))
    if (Option.isSome(legacy)) yield* settings.removeIf(plaintextJwtKey, legacy.value)
    return JoseTokenSigner.layer(Redacted.make(yield* sealing.unseal(stored, `setting:${generatedJwtKey}`)))
  })).pipe(Layer.provide(sealingLayer(config)))

/** On the first start of an empty store with no admin API, a demo merchant to call the API with. */
const demoMerchant = (config: HostConfig) =>
  Layer.effectDiscard(Effect.gen(function*() {
    if (Option.isSome(config.adminToken)) {
      if (config.newDemoKeys) yield* Effect.logWarning("DEMO_KEYS=new is ignored when ADMIN_TOKEN is set: create merchants with POST /admin/v1/merchants")
      return
    }
    const tenancy = yield* TenancyStore
    if ((yield* tenancy.countMerchants) > 0 && !config.newDemoKeys) {
      yield* Console.log("Demo keys were printed when this store was first started; for a new demo merchant and keys: DEMO_KEYS=new npm start")
      return
    }
    const merchants = yield* Merchants
    const { keys, merchant } = yield* merchants.create({ name: "Demo Merchant", email: "demo@example.com" })
    yield* Console.log([
      "",
      `Created demo merchant ${merchant.id}. Its sandbox keys (shown once, stored hashed):`,
      `  publishable key: ${keys.sandbox.publishableKey}`,
      `  secret key:      ${keys.sandbox.secretKey}`,
      `Try: curl -H "Authorization: Bearer ${keys.sandbox.secretKey}" ${config.publicUrl}/api/v1/me`,
      `Or sign in to the console with the key pair: ${config.publicUrl}/console`,
      ""
    ].join("\n"))
  }))

/** At start, one warning per built-in development secret still in use, and what it means. */
const developmentSecretWarnings = (config: HostConfig) =>
  Layer.effectDiscard(Effect.gen(function*() {
    if (isDevelopmentSecret("depositCallback", config.depositCallbackSecret)) {
      yield* Effect.logWarning(
        "DEPOSIT_CALLBACK_SECRET is the built-in development value: production deposit notifications are refused until you set your own"
      )
    }
    if (isDevelopmentSecret("sandboxCallback", config.sandboxCallbackSecret)) {
      yield* Effect.logWarning("SANDBOX_CALLBACK_SECRET is the built-in development value (it signs sandbox callbacks only)")
    }
  }))

/** Hashing and HMAC on `node:crypto` (synchronous; see `foundationWith`); randomness from WebCrypto, pooled (`SecureRandomPool`). */
const nodeCrypto = Layer.mergeAll(NodeCrypto.layerDigest, NodeCrypto.layerMac, SecureRandomPool.layer)

/** Everything but the listening server, on the given store (default: the configured one). */
export const appLayer = (
  config: HostConfig,
  store: Layer.Layer<any, any, never> = storeLayer(config),
  /** Payout provider plugins: the configured connectors' by default (none: real payout rails are not routable in production). */
  payoutProviders: Layer.Layer<PayoutProviders> = payoutProvidersLayer(config.connectors),
  /**
   * Settlement payout plugins: the configured connectors' by default (none: production
   * settlement schedules are refused, no batch can be paid).
   */
  settlementPayoutProviders: Layer.Layer<SettlementPayoutProviders> = settlementPayoutProvidersLayer(config.connectors),
  /** The configured connectors' report formats and reports APIs, for reconciliation, by default. */
  providerReports: Layer.Layer<ProviderReports> = providerReportsLayer(config.connectors),
  /**
   * The card vault, for the core (a card's description before a charge) and the pay-in
   * connectors (a card charge's forward): the configured vault over HTTP by default, or
   * `CardVault.unconfigured`. The seam for another vault (an in-process development one).
   */
  cardVault: Layer.Layer<CardVault> = cardVaultLayer(config.vault)
) => {
  // The keys are checked before the store opens: a production host without them starts nothing.
  store = store.pipe(Layer.provide(Layer.effectDiscard(checkKeys(config))))
  const engine = Engine.services.pipe(
    Layer.provideMerge(Layer.mergeAll(
      tokenSignerLayer(config),
      HttpWebhookSender.layer({ allowPrivateTargets: config.webhookAllowPrivateTargets }),
      payoutProviders,
      settlementPayoutProviders,
      providerReports,
      cardVault,
      connectorKindsLayer(config.connectorKinds, cardVault),
      // Team members: scrypt passwords, TOTP codes, invitations by SMTP (when configured).
      ScryptPasswords,
      TotpCodes,
      OpenIdClient,
      Option.match(config.smtp, { onNone: () => Mailer.none, onSome: (smtp) => SmtpMailer.layer(smtp) }),
      // The audit log signs its rows with the host's key (the store's, memoized per config).
      sealingLayer(config)
    )),
    Layer.provideMerge(foundationWith(nodeCrypto))
  )
  const settings = Layer.mergeAll(
    Layer.succeed(HttpConfig, HttpConfig.of({
      adminToken: config.adminToken,
      sandboxCallbackSecret: config.sandboxCallbackSecret,
      trustedProxies: config.trustedProxies,
      rateLimits: config.rateLimits,
      cardSessions: Option.getOrUndefined(Option.map(config.vault, (v) => ({ vaultUrl: v.url, sessionSecret: v.sessionSecret })))
    })),
    Layer.succeed(EngineConfig, EngineConfig.of({
      publicUrl: config.publicUrl,
      checkoutUrl: config.checkoutUrl,
      fxMarkupPct: config.fxMarkupPct,
      depositCallbackSecret: config.depositCallbackSecret,
      // Any vault but the unconfigured one (the configured one, or one plugged in through `cardVault`).
      cardVaultConfigured: cardVault !== CardVault.unconfigured,
      merchantConnectorAccounts: Option.getOrUndefined(config.merchantConnectorAccounts),
      auditRetentionDays: Option.getOrUndefined(config.auditRetentionDays)
    })),
    Readiness.layer
  )
  const providers = Layer.merge(
    SandboxProvider.layer({ formBaseUrl: config.publicUrl, callbackSecret: config.sandboxCallbackSecret }),
    paymentProvidersLayer(config.connectors, cardVault)
  )
  // Marked running for `/health/ready` once both loops are forked, stopped before they are.
  const workers = Readiness.workersRunning.pipe(Layer.provide(Layer.mergeAll(Jobs.worker(config.workerInterval), Webhooks.worker(config.workerInterval))))
  // Every replica serves the connector accounts, whatever runs its workers.
  const accountsSync = ConnectorAccounts.syncEvery(config.connectorAccountsSync)
  return Layer.mergeAll(HttpApp, demoMerchant(config), developmentSecretWarnings(config), providers, workers, accountsSync).pipe(
    Layer.provideMerge(engine),
    Layer.provideMerge(settings),
    Layer.provideMerge(store)
  )
}

/**
 * Slow or idle clients are cut off: headers must arrive within `headersTimeoutMs`, the whole
 * request within `requestTimeoutMs`; an idle keep-alive connection closes after 5 s.
 */
const serverOptions = (config: HostConfig) => ({
  headersTimeout: config.headersTimeoutMs,
  requestTimeout: Math.max(config.requestTimeoutMs, config.headersTimeoutMs),
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs)
})

/**
 * The host listening on `config.host:config.port`. The port is bound only once the application
 * is built (store open, migrations run, workers started, routes mounted): a connection before
 * that is refused at once, which a load balancer or a readiness probe retries. (`HttpRouter.serve`
 * binds first and builds the application after, so a request in that window was accepted by a
 * server with no handler yet and hung.)
 */
export const hostLayer = (
  config: HostConfig,
  store?: Layer.Layer<any, any, never>,
  payoutProviders?: Layer.Layer<PayoutProviders>,
  settlementPayoutProviders?: Layer.Layer<SettlementPayoutProviders>,
  providerReports?: Layer.Layer<ProviderReports>,
  cardVault?: Layer.Layer<CardVault>
) => {
  const app = appLayer(config, store, payoutProviders, settlementPayoutProviders, providerReports, cardVault).pipe(Layer.provideMerge(HttpRouter.layer), Layer.provideMerge(NodeHttpServer.layerHttpServices))
  const server = NodeHttpServer.layerServer(() => createServer(serverOptions(config)), { port: config.port, host: config.host })
  // One server span per request (incoming `traceparent` honoured): the server wraps any middleware
  // in its tracer, even with no exporter, so that the request's log lines carry trace and span
  // ids; an identity middleware asks for exactly that (`HttpMiddleware.tracer` here gave two).
  const serving = Layer.unwrap(Effect.map(Effect.service(HttpRouter.HttpRouter), (router) => HttpServer.serve((app) => app)(router.asHttpEffect())))
  // Built last, released first: on SIGTERM readiness drops, then the grace, then the server drains.
  return Readiness.drainFirst(Duration.millis(config.shutdownGraceMs)).pipe(
    Layer.provideMerge(HttpServer.withLogAddress(serving.pipe(Layer.provideMerge(server)))),
    Layer.provideMerge(app),
    Layer.provide(Layer.mergeAll(
      // The host's own metrics: an embedder running two hosts in one process (or a test worker
      // running many) scrapes each apart, not the process's shared default registry.
      Layer.sync(Metric.MetricRegistry, () => new Map()),
      TelemetryLive,
      Layer.succeed(References.MinimumLogLevel, config.logLevel),
      config.logFormat === "json" ? Logger.layer([jsonLogger, Logger.tracerLogger]) : Layer.empty
    ))
  )
}

/**
 * `LOG_FORMAT=json`: Effect's structured entry (`Logger.formatStructured`) as one JSON object per
 * line on stdout: timestamp, level, message, the annotations as top-level fields (requestId,
 * shopId, method, route, status, durationMs on the request line), the cause when there is one,
 * and the trace and span ids of the span current when the line was written.
 */
export const jsonLogger = Logger.withConsoleLog(Logger.make((options) => {
  const entry = Logger.formatStructured.log(options)
  const span = options.fiber.cache.span
  return Formatter.formatJson({
    ...entry.annotations,
    timestamp: entry.timestamp,
    level: entry.level,
    message: entry.message,
    ...(entry.cause === undefined ? {} : { cause: entry.cause }),
    ...(Object.keys(entry.spans).length === 0 ? {} : { spans: entry.spans }),
    fiberId: entry.fiberId,
    ...(span === undefined ? {} : { traceId: span.traceId, spanId: span.spanId })
  })
}))
