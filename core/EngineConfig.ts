import { type BigDecimal, Context, Redacted } from "effect"

/** Where the engine is reachable and the business settings it runs with. */
export class EngineConfig extends Context.Service<EngineConfig, {
  /** The public root of the host, e.g. `https://api.example.com` (no trailing slash). */
  readonly publicUrl: string
  /** Where hosted pages are served: the spec's `{checkout_url}`. */
  readonly checkoutUrl: string
  /** FX markup in percent (1.5 = 1.5 %), applied on every conversion the engine makes. */
  readonly fxMarkupPct: BigDecimal.BigDecimal
  /** HMAC secret of the deposit network's signed transfer notifications. */
  readonly depositCallbackSecret: Redacted.Redacted<string>
  /**
   * Whether the host has a card vault: without one no card rail can be charged in production,
   * so none is routable there (`Catalog.ts`). Absent: none.
   */
  readonly cardVaultConfigured?: boolean | undefined
  /**
   * Whether merchants manage their own connector accounts (`core/connectors/`), and the origins
   * their accounts' `baseUrl` may name (a merchant's account otherwise calls the connector's
   * documented URL: a merchant never points the engine at an address of its choosing). Absent:
   * only the operator makes connector accounts.
   */
  readonly merchantConnectorAccounts?: { readonly baseUrlOrigins: ReadonlyArray<string> } | undefined
  /** How many days audit log entries are kept (`core/audit/Retention.ts`); absent: kept for good. */
  readonly auditRetentionDays?: number | undefined
}>()("core/EngineConfig") {}

/**
 * The built-in development secrets: a host that does not set its own runs with these, which
 * anyone can read here. Production traffic signed with them is refused.
 */
export const developmentSecrets = {
  depositCallback: "deposit-callback-secret",
  sandboxCallback: "sandbox-callback-secret"
} as const

/** Whether `secret` is the built-in development value of that secret. */
export const isDevelopmentSecret = (name: keyof typeof developmentSecrets, secret: Redacted.Redacted<string>) =>
  Redacted.value(secret) === developmentSecrets[name]

/** The spec's `{base_url}`. */
export const baseUrlOf = (config: EngineConfig["Service"]) => `${config.publicUrl}/api/v1`
