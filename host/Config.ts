/** The reference host's configuration, read from the environment. */
import { type BigDecimal, Config, Duration, Effect, LogLevel, Option, Redacted, Schema } from "effect"
import { parseSealingKey } from "../adapters/auth/EnvelopeSealing.ts"
import { keyWeakness } from "../adapters/auth/JoseTokenSigner.ts"
import { invalidTrustedProxies, type TrustedProxies } from "../adapters/http/server/support/ClientIp.ts"
import { developmentSecrets, isDevelopmentSecret } from "../core/EngineConfig.ts"
import * as Money from "../core/Money.ts"
import { type ConfiguredConnector, ConnectorConfigError, knownConnectors, readConnectorsAmong, readKnownConnectors, secretSetting } from "./Connectors.ts"
import type { Connector } from "../providers/kit/Connector.ts"
import { readDevelopmentVault, readVaultSettings, settleVault, type VaultSettings } from "./Vault.ts"

export interface HostConfig {
  readonly port: number
  readonly host: string
  /** PostgreSQL server; none means embedded PGlite in `dataDir`. */
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly dataDir: string
  readonly publicUrl: string
  readonly checkoutUrl: string
  readonly adminToken: Option.Option<Redacted.Redacted<string>>
  /**
   * JWT signing key (`JWT_SECRET` or the file `JWT_SECRET_FILE` names); none means one generated
   * once and kept sealed in the store, which only a development host may do (`keysRequired`).
   */
  readonly jwtSecret: Option.Option<Redacted.Redacted<string>>
  /** Previous JWT keys, still accepted for verification (`JWT_PREVIOUS_SECRETS`, comma separated, or `_FILE`, one a line). */
  readonly jwtPreviousSecrets: ReadonlyArray<Redacted.Redacted<string>>
  /**
   * Key-encryption keys of the secrets the store keeps (webhook signing secrets, a generated JWT
   * key), current first: `SEALING_KEY` (or `SEALING_KEY_FILE`), then `SEALING_PREVIOUS_KEYS`.
   * Empty: a development key (`keysRequired` says when that is refused).
   */
  readonly sealingKeys: ReadonlyArray<Redacted.Redacted<string>>
  /** Minimum log level (`LOG_LEVEL`, default Info; one line per request is logged at Info). */
  readonly logLevel: LogLevel.LogLevel
  /** FX markup in percent (`FX_MARKUP_PCT`, default 2). */
  readonly fxMarkupPct: BigDecimal.BigDecimal
  /** How often the job worker looks for due work (`WORKER_INTERVAL_MS`, default 1000). */
  readonly workerInterval: Duration.Duration
  /** Secret of the sandbox provider's signed callbacks (`SANDBOX_CALLBACK_SECRET`). */
  readonly sandboxCallbackSecret: Redacted.Redacted<string>
  /** Provider connector instances (`CONNECTORS` and their prefixed variables, among the built-in connectors and those `CONNECTOR_MODULES` loads; see `Connectors.ts`). */
  readonly connectors: ReadonlyArray<ConfiguredConnector>
  /** The connectors this host knows (built in, and those `CONNECTOR_MODULES` loads): what `CONNECTORS` and connector accounts may name. */
  readonly connectorKinds: ReadonlyArray<Connector>
  /**
   * Whether merchants manage their own connector accounts (`MERCHANT_CONNECTOR_ACCOUNTS=true`,
   * default false), and the origins their accounts' `baseUrl` may name
   * (`CONNECTOR_ACCOUNT_BASE_URL_ORIGINS`, comma separated; default none: the connector's
   * documented URL only).
   */
  readonly merchantConnectorAccounts: Option.Option<{ readonly baseUrlOrigins: ReadonlyArray<string> }>
  /**
   * The mail server team invitations are sent through (`SMTP_URL` or `SMTP_URL_FILE`:
   * `smtp://user:pass@host:587`, `smtps://...`), and their sender (`MAIL_FROM`). Without it an
   * invitation's link is answered to the inviter instead.
   */
  readonly smtp: Option.Option<{ readonly url: Redacted.Redacted<string>; readonly from: string }>
  /** How many days audit log entries are kept (`AUDIT_RETENTION_DAYS`, at least 30); none: kept for good. */
  readonly auditRetentionDays: Option.Option<number>
  /** How often a replica picks up the connector account changes others made (`CONNECTOR_ACCOUNTS_SYNC_MS`, default 1000). */
  readonly connectorAccountsSync: Duration.Duration
  /** Proxies whose forwarding headers are believed (`TRUSTED_PROXIES`: addresses and CIDR ranges, or a count; default 0, none). */
  readonly trustedProxies: TrustedProxies
  /** Secret of the deposit network's signed transfer notifications (`DEPOSIT_CALLBACK_SECRET`). */
  readonly depositCallbackSecret: Redacted.Redacted<string>
  /**
   * Deliver webhooks to loopback and private addresses too (`WEBHOOK_ALLOW_PRIVATE_TARGETS`,
   * default false): for local development and tests only.
   */
  readonly webhookAllowPrivateTargets: boolean
  /** Requests per second per credential, and per minute per client IP on the auth endpoints. */
  readonly rateLimits: { readonly productionPerSecond: number; readonly sandboxPerSecond: number; readonly authPerMinute: number }
  /** A client must finish sending its headers within this (`HEADERS_TIMEOUT_MS`, default 10 000). */
  readonly headersTimeoutMs: number
  /** A whole request must arrive within this (`REQUEST_TIMEOUT_MS`, default 30 000). */
  readonly requestTimeoutMs: number
  /**
   * Create a new demo merchant at start and print its sandbox keys even when the store already
   * holds merchants (`DEMO_KEYS=new`); only without `ADMIN_TOKEN`.
   */
  readonly newDemoKeys: boolean
  /** `text` (default: one human-readable line per entry) or `json` (one JSON object per line), `LOG_FORMAT`. */
  readonly logFormat: "text" | "json"
  /**
   * On SIGTERM, how long the host answers `/health/ready` with 503 before it stops accepting and
   * drains its connections (`SHUTDOWN_GRACE_MS`, default 0): a little more than the load
   * balancer's probe interval.
   */
  readonly shutdownGraceMs: number
  /** The card vault (`VAULT_URL`, `VAULT_ENGINE_KEY`, `VAULT_SESSION_SECRET`; see `Vault.ts`); none: card rails cannot be charged. */
  readonly vault: Option.Option<VaultSettings>
  /** `VAULT_DEV=inprocess`: run a development card vault inside this process (`DevelopmentVault.ts`); never on a production host. */
  readonly developmentVault: boolean
}

const trimSlash = (url: string) => url.replace(/\/+$/, "")

/**
 * `TRUSTED_PROXIES`: a count (as before: that many proxies append to X-Forwarded-For, believed
 * from loopback and private peers only), or a comma-separated list of addresses and CIDR ranges.
 * An entry that is neither stops the host at start.
 */
const readTrustedProxies = Effect.gen(function*() {
  const text = (yield* Config.String("TRUSTED_PROXIES").pipe(Config.withDefault("0"))).trim()
  if (/^[0-9]+$/.test(text)) return Number(text)
  const entries = text.split(",").map((e) => e.trim()).filter((e) => e !== "")
  const invalid = invalidTrustedProxies(entries)
  if (invalid.length > 0) {
    return yield* new UnsafeConfigError({
      message: `TRUSTED_PROXIES: ${invalid.map((e) => `'${e}'`).join(", ")} is not an IP address or a CIDR range (expected a count, or addresses and ranges separated by commas)`
    })
  }
  return entries
})

/** A configuration the host refuses to start with; the message names the variable to set. */
export class UnsafeConfigError extends Schema.TaggedError<UnsafeConfigError>()("UnsafeConfigError", {
  message: Schema.String
}) {}

/**
 * The built-in development callback secrets are in this repository for anyone to read: a host
 * that looks like production (an `ADMIN_TOKEN`, or a production connector) refuses to start with
 * either, naming the variable to set. A development host (neither) starts and warns.
 */
export const refuseDevelopmentSecrets = (config: HostConfig): Effect.Effect<HostConfig, UnsafeConfigError> => {
  const production = config.connectors.find((c) => c.settings.environment === "production")
  const why = Option.isSome(config.adminToken)
    ? "ADMIN_TOKEN is set"
    : production !== undefined
    ? `connector '${production.settings.id}' is a production one`
    : undefined
  if (why === undefined) return Effect.succeed(config)
  const public_ = [
    ...(isDevelopmentSecret("sandboxCallback", config.sandboxCallbackSecret) ? ["SANDBOX_CALLBACK_SECRET"] : []),
    ...(isDevelopmentSecret("depositCallback", config.depositCallbackSecret) ? ["DEPOSIT_CALLBACK_SECRET"] : [])
  ]
  if (public_.length === 0) return Effect.succeed(config)
  return Effect.fail(
    new UnsafeConfigError({
      message: `${public_.join(" and ")} ${public_.length > 1 ? "are" : "is"} the built-in development value, which anyone can read, and this host ` +
        `looks like production (${why}): set ${public_.join(" and ")} to a long random secret of your own (e.g. \`openssl rand -hex 32\`)`
    })
  )
}

/**
 * `BASE_URL` and `CHECKOUT_URL` are put in front of every link the host gives out (hosted pages,
 * provider callbacks): an absolute http(s) origin and path, without credentials, query or fragment,
 * or the host does not start.
 */
const rootUrl = (name: string, text: string) => {
  const url = URL.canParse(text) ? new URL(text) : undefined
  return url !== undefined && (url.protocol === "https:" || url.protocol === "http:") && url.username === "" && url.password === "" &&
      url.search === "" && url.hash === ""
    ? Effect.succeed(trimSlash(text))
    : Effect.fail(new UnsafeConfigError({ message: `${name} must be an absolute http(s) URL without credentials, query or fragment, e.g. https://pay.example.com` }))
}

const readSmtp = Effect.gen(function*() {
  const url = yield* secretSetting("SMTP_URL")
  const from = yield* Config.String("MAIL_FROM").pipe(Config.withDefault("Payment console <no-reply@localhost>"))
  if (Option.isNone(url)) return Option.none()
  const text = Redacted.value(url.value)
  if (!URL.canParse(text) || !["smtp:", "smtps:"].includes(new URL(text).protocol)) {
    return yield* new ConnectorConfigError({ message: "SMTP_URL: expected smtp://[user:pass@]host[:port] or smtps://..." })
  }
  return Option.some({ url: url.value, from })
})

const readHostConfig = Effect.gen(function*() {
  const port = yield* Config.Int("PORT").pipe(Config.withDefault(8080))
  const host = yield* Config.String("HOST").pipe(Config.withDefault("0.0.0.0"))
  const publicUrl = (yield* rootUrl("BASE_URL", Option.getOrElse(yield* Config.option(Config.String("BASE_URL")), () => `http://localhost:${port}`)))
    .replace(/\/api\/v1$/, "")
  const checkoutUrl = yield* rootUrl("CHECKOUT_URL", Option.getOrElse(yield* Config.option(Config.String("CHECKOUT_URL")), () => publicUrl))
  const nonEmpty = (o: Option.Option<Redacted.Redacted<string>>) => Option.filter(o, (r) => Redacted.value(r).trim() !== "")
  const databaseUrl = nonEmpty(yield* Config.option(Config.Redacted("DATABASE_URL")))
  const connectorKinds = yield* readKnownConnectors()
  const connectors = yield* readConnectorsAmong(connectorKinds)
  const merchantAccounts = yield* Config.Boolean("MERCHANT_CONNECTOR_ACCOUNTS").pipe(Config.withDefault(false))
  const baseUrlOrigins = (yield* Config.String("CONNECTOR_ACCOUNT_BASE_URL_ORIGINS").pipe(Config.withDefault(""))).split(",").map((o) => o.trim()).filter((o) => o !== "")
  for (const origin of baseUrlOrigins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      return yield* new ConnectorConfigError({ message: `CONNECTOR_ACCOUNT_BASE_URL_ORIGINS: '${origin}' is not an origin (scheme://host[:port], no path)` })
    }
  }
  const required = keysRequired({ databaseUrl, connectors })
  const vaultReading = yield* readVaultSettings
  const vault = yield* settleVault(vaultReading, required, (message) => new UnsafeConfigError({ message }))
  const developmentVault = yield* readDevelopmentVault
  if (developmentVault && required !== undefined) {
    return yield* new UnsafeConfigError({ message: `VAULT_DEV=inprocess puts card numbers in the host's process and is for development only (${required}): run the vault as its own service (VAULT_URL)` })
  }
  if (developmentVault && vaultReading._tag !== "none") {
    return yield* new UnsafeConfigError({ message: "VAULT_DEV=inprocess and VAULT_URL name two vaults: set one" })
  }
  return {
    port,
    host,
    databaseUrl,
    dataDir: yield* Config.String("DATA_DIR").pipe(Config.withDefault("./.data")),
    publicUrl,
    checkoutUrl,
    adminToken: nonEmpty(yield* Config.option(Config.Redacted("ADMIN_TOKEN"))),
    ...(yield* keyConfig),
    logLevel: yield* Config.Literals(LogLevel.values, "LOG_LEVEL").pipe(Config.withDefault<LogLevel.LogLevel>("Info")),
    fxMarkupPct: Money.decimal(yield* Config.String("FX_MARKUP_PCT").pipe(Config.withDefault("2"))),
    workerInterval: Duration.millis(yield* Config.Int("WORKER_INTERVAL_MS").pipe(Config.withDefault(1000))),
    sandboxCallbackSecret: yield* Config.Redacted("SANDBOX_CALLBACK_SECRET").pipe(
      Config.withDefault(Redacted.make(developmentSecrets.sandboxCallback))
    ),
    connectors,
    connectorKinds,
    merchantConnectorAccounts: merchantAccounts ? Option.some({ baseUrlOrigins }) : Option.none(),
    connectorAccountsSync: Duration.millis(yield* Config.Int("CONNECTOR_ACCOUNTS_SYNC_MS").pipe(Config.withDefault(1000))),
    smtp: yield* readSmtp,
    auditRetentionDays: yield* Config.option(Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(30)), "AUDIT_RETENTION_DAYS")),
    trustedProxies: yield* readTrustedProxies,
    depositCallbackSecret: yield* Config.Redacted("DEPOSIT_CALLBACK_SECRET").pipe(
      Config.withDefault(Redacted.make(developmentSecrets.depositCallback))
    ),
    webhookAllowPrivateTargets: yield* Config.Boolean("WEBHOOK_ALLOW_PRIVATE_TARGETS").pipe(Config.withDefault(false)),
    rateLimits: {
      productionPerSecond: yield* Config.Int("RATE_LIMIT_PRODUCTION_PER_SECOND").pipe(Config.withDefault(100)),
      sandboxPerSecond: yield* Config.Int("RATE_LIMIT_SANDBOX_PER_SECOND").pipe(Config.withDefault(25)),
      authPerMinute: yield* Config.Int("RATE_LIMIT_AUTH_PER_MINUTE").pipe(Config.withDefault(30))
    },
    headersTimeoutMs: yield* Config.Int("HEADERS_TIMEOUT_MS").pipe(Config.withDefault(10_000)),
    requestTimeoutMs: yield* Config.Int("REQUEST_TIMEOUT_MS").pipe(Config.withDefault(30_000)),
    newDemoKeys: (yield* Config.Literals(["new", ""], "DEMO_KEYS").pipe(Config.withDefault(""))) === "new",
    logFormat: yield* Config.Literals(["text", "json"], "LOG_FORMAT").pipe(Config.withDefault<"text" | "json">("text")),
    shutdownGraceMs: yield* Config.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 300_000 })), "SHUTDOWN_GRACE_MS").pipe(
      Config.withDefault(0)
    ),
    vault,
    developmentVault
  } satisfies HostConfig
})

/** A list of keys from `<name>` (comma separated) or the file `<name>_FILE` (one a line). */
const keyList = (name: string) =>
  Effect.map(secretSetting(name), (value) =>
    Option.match(value, {
      onNone: () => [],
      onSome: (text) => Redacted.value(text).split(/[,\r\n]+/).map((k) => k.trim()).filter((k) => k !== "").map((k) => Redacted.make(k))
    }))

/** The signing and sealing keys: from variables or the files their `_FILE` variables name. */
const keyConfig = Effect.gen(function*() {
  const sealingKey = yield* secretSetting("SEALING_KEY")
  const previousSealingKeys = yield* keyList("SEALING_PREVIOUS_KEYS")
  if (Option.isNone(sealingKey) && previousSealingKeys.length > 0) {
    return yield* new ConnectorConfigError({ message: "SEALING_PREVIOUS_KEYS is set without SEALING_KEY" })
  }
  return {
    jwtSecret: Option.filter(yield* secretSetting("JWT_SECRET"), (r) => Redacted.value(r).trim() !== ""),
    jwtPreviousSecrets: yield* keyList("JWT_PREVIOUS_SECRETS"),
    sealingKeys: [...Option.toArray(sealingKey), ...previousSealingKeys]
  }
})

/**
 * Whether the host must be given its keys (`JWT_SECRET`, `SEALING_KEY`) rather than make
 * development ones: a PostgreSQL server (`DATABASE_URL`) or a production connector is a
 * production host. Only an embedded PGlite host with sandbox connectors only may run without.
 */
export const keysRequired = (config: Pick<HostConfig, "databaseUrl" | "connectors">): string | undefined =>
  Option.isSome(config.databaseUrl)
    ? "DATABASE_URL is set"
    : config.connectors.some((c) => c.settings.environment === "production")
    ? "a production connector is configured"
    : undefined

/**
 * What the host checks of its keys before it opens its store: a production host (`keysRequired`)
 * has `JWT_SECRET` and `SEALING_KEY`; every JWT key is strong enough (`keyWeakness`: 32 bytes, 8
 * distinct characters at least) and every sealing key is 32 bytes. A failure stops the start,
 * naming the variable, never a value.
 */
export const checkKeys = (config: HostConfig): Effect.Effect<void> =>
  Effect.suspend(() => {
    const required = keysRequired(config)
    const problems: Array<string> = []
    if (required !== undefined && Option.isNone(config.jwtSecret)) problems.push(`JWT_SECRET (or JWT_SECRET_FILE) is required: ${required}`)
    if (required !== undefined && config.sealingKeys.length === 0) problems.push(`SEALING_KEY (or SEALING_KEY_FILE) is required: ${required}`)
    const jwtKeys = [...Option.toArray(config.jwtSecret).map((k) => ["JWT_SECRET", k] as const), ...config.jwtPreviousSecrets.map((k) => ["JWT_PREVIOUS_SECRETS", k] as const)]
    for (const [name, key] of jwtKeys) {
      const weakness = keyWeakness(Redacted.value(key))
      if (weakness !== undefined) problems.push(`${name} is too weak (${weakness})`)
    }
    config.sealingKeys.forEach((key, i) => {
      if (parseSealingKey(Redacted.value(key)) === undefined) {
        problems.push(`${i === 0 ? "SEALING_KEY" : "SEALING_PREVIOUS_KEYS"} is not 32 bytes as 64 hex digits or base64`)
      }
    })
    return problems.length === 0
      ? Effect.void
      : Effect.die(new Error(`The host's keys are not usable: ${problems.join("; ")}. Make a key with: openssl rand -hex 32`))
  })

/** The host's configuration from the environment; a public development secret on a production-like host stops it (`refuseDevelopmentSecrets`). */
export const HostConfig = Effect.flatMap(readHostConfig, refuseDevelopmentSecrets)

/** A config for a host on a loopback port with fixed secrets, as tests and the bench start it. */
export const loopbackConfig = (overrides: Partial<HostConfig> = {}): HostConfig => ({
  port: 0,
  host: "127.0.0.1",
  databaseUrl: Option.none(),
  dataDir: "",
  publicUrl: "http://localhost",
  checkoutUrl: "http://localhost",
  adminToken: Option.none(),
  jwtSecret: Option.some(Redacted.make("loopback-jwt-secret-of-at-least-32-bytes")),
  jwtPreviousSecrets: [],
  sealingKeys: [Redacted.make("6c6f6f706261636b2d7365616c696e672d6b65792d6f662d33322d6279746573")],
  logLevel: "Warn",
  fxMarkupPct: Money.decimal("2"),
  workerInterval: Duration.millis(100),
  sandboxCallbackSecret: Redacted.make("sandbox-callback-secret"),
  connectors: [],
  connectorKinds: knownConnectors,
  merchantConnectorAccounts: Option.none(),
  connectorAccountsSync: Duration.millis(100),
  smtp: Option.none(),
  auditRetentionDays: Option.none(),
  trustedProxies: 0,
  depositCallbackSecret: Redacted.make("deposit-callback-secret"),
  webhookAllowPrivateTargets: false,
  rateLimits: { productionPerSecond: 100, sandboxPerSecond: 25, authPerMinute: 30 },
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  newDemoKeys: false,
  logFormat: "text",
  shutdownGraceMs: 0,
  vault: Option.none(),
  developmentVault: false,
  ...overrides
})
