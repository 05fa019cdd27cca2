/**
 * How a connector tells a host what it needs to be configured: its kind, the names of its secret
 * and plain settings, and how to build its plugins from them. The reference host reads every
 * setting from the environment (a secret from `<PREFIX>_<NAME>` or from the file named by
 * `<PREFIX>_<NAME>_FILE`), see `host/Connectors.ts`; an embedding builds the plugins from its own
 * configuration with the connector's `make` functions directly.
 */
import type { Effect, Redacted } from "effect"
import type { Mac } from "effect/crypto"
import type { HttpClient } from "effect/http"
import type { Environment } from "../../core/Environment.ts"
import type { PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import type { PayoutProvider } from "../../core/ports/PayoutProvider.ts"
import type { ReportFormat, ReportSource } from "../../core/ports/ProviderReports.ts"
import type { SettlementPayoutProvider } from "../../core/ports/SettlementPayoutProvider.ts"

/** One configured instance of a connector: one account at the provider, in one environment. */
export interface ConnectorSettings {
  /** The provider id in routes and callback URLs (`dlocal`, `dlocal-sandbox`, ...). */
  readonly id: string
  /** The one environment this account serves (a provider's test account is `sandbox`). */
  readonly environment: Environment
  /** Overrides the connector's documented base URL for the environment (a simulator, a proxy). */
  readonly baseUrl: string | undefined
  /** Budget of one upstream call; the connector's default when undefined. */
  readonly timeoutMs: number | undefined
  /** The connector's `secrets`, by name. */
  readonly secrets: Readonly<Record<string, Redacted.Redacted<string>>>
  /** The connector's `settings` that were given, by name. */
  readonly values: Readonly<Record<string, string>>
}

export type ConnectorRequirements = HttpClient.HttpClient | Mac.Mac

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
  readonly paymentProvider?: ((settings: ConnectorSettings) => Effect.Effect<PaymentProvider, never, ConnectorRequirements>) | undefined
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
