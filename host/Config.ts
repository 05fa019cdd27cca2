/** The reference host's configuration, read from the environment. */
import { type BigDecimal, Config, Duration, Effect, LogLevel, Option, Redacted, Schema } from "effect"
import { developmentSecrets, isDevelopmentSecret } from "../core/EngineConfig.ts"
import * as Money from "../core/Money.ts"
import { invalidTrustedProxies, type TrustedProxies } from "../adapters/http/server/ClientIp.ts"
import { type ConfiguredConnector, readConnectors } from "./Connectors.ts"

export interface HostConfig {
  readonly port: number
  readonly host: string
  /** PostgreSQL server; none means embedded PGlite in `dataDir`. */
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly dataDir: string
  readonly publicUrl: string
  readonly checkoutUrl: string
  readonly adminToken: Option.Option<Redacted.Redacted<string>>
  /** JWT signing secret; none means one generated once and kept in the store. */
  readonly jwtSecret: Option.Option<Redacted.Redacted<string>>
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

const readHostConfig = Effect.gen(function*() {
  const port = yield* Config.Int("PORT").pipe(Config.withDefault(8080))
  const host = yield* Config.String("HOST").pipe(Config.withDefault("0.0.0.0"))
  const publicUrl = trimSlash(
    Option.getOrElse(yield* Config.option(Config.String("BASE_URL")), () => `http://localhost:${port}`)
  ).replace(/\/api\/v1$/, "")
  const checkoutUrl = trimSlash(Option.getOrElse(yield* Config.option(Config.String("CHECKOUT_URL")), () => publicUrl))
  const nonEmpty = (o: Option.Option<Redacted.Redacted<string>>) => Option.filter(o, (r) => Redacted.value(r).trim() !== "")
  return {
    port,
    host,
    databaseUrl: nonEmpty(yield* Config.option(Config.Redacted("DATABASE_URL"))),
    dataDir: yield* Config.String("DATA_DIR").pipe(Config.withDefault("./.data")),
    publicUrl,
    checkoutUrl,
    adminToken: nonEmpty(yield* Config.option(Config.Redacted("ADMIN_TOKEN"))),
    jwtSecret: nonEmpty(yield* Config.option(Config.Redacted("JWT_SECRET"))),
    logLevel: yield* Config.Literals(LogLevel.values, "LOG_LEVEL").pipe(Config.withDefault<LogLevel.LogLevel>("Info")),
    fxMarkupPct: Money.decimal(yield* Config.String("FX_MARKUP_PCT").pipe(Config.withDefault("2"))),
    workerInterval: Duration.millis(yield* Config.Int("WORKER_INTERVAL_MS").pipe(Config.withDefault(1000))),
    sandboxCallbackSecret: yield* Config.Redacted("SANDBOX_CALLBACK_SECRET").pipe(
      Config.withDefault(Redacted.make(developmentSecrets.sandboxCallback))
    ),
    connectors: yield* readConnectors(),
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
    )
  } satisfies HostConfig
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
  logLevel: "Warn",
  fxMarkupPct: Money.decimal("2"),
  workerInterval: Duration.millis(100),
  sandboxCallbackSecret: Redacted.make("sandbox-callback-secret"),
  connectors: [],
  trustedProxies: 0,
  depositCallbackSecret: Redacted.make("deposit-callback-secret"),
  webhookAllowPrivateTargets: false,
  rateLimits: { productionPerSecond: 100, sandboxPerSecond: 25, authPerMinute: 30 },
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  newDemoKeys: false,
  logFormat: "text",
  shutdownGraceMs: 0,
  ...overrides
})
