/**
 * One configured instance of a connector as the host reads it, in its own file so that the
 * connector's declaration (`Connector.ts`) and its conformance harness (`ConnectorConformance.ts`)
 * both depend on it and not on each other.
 */
import type { Redacted } from "effect"
import type { Environment } from "../../core/ports/index.ts"

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
