/**
 * The connector kinds an engine can make connector accounts of (`core/connectors/`): what each
 * kind needs configured (the names of its secret and plain settings) and how its pay-in plugin is
 * built from one account's settings. The reference host gives the engine its known connectors'
 * (`host/Connectors.ts`, from `providers/kit`'s `Connector`), their HTTP client, MACs and card
 * vault already provided; an embedding that gives none can make no account.
 */
import { Context, type Effect, Layer, type Redacted } from "effect"
import type { Environment } from "../Environment.ts"
import type { PaymentProvider } from "./PaymentProvider.ts"

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

export interface ConnectorKind {
  readonly kind: string
  /** Secret settings, all required (`LOGIN`, `TRANS_KEY`, `SECRET_KEY`). */
  readonly secrets: ReadonlyArray<string>
  /** Plain optional settings. */
  readonly settings: ReadonlyArray<string>
  /** Plain settings that must be given. */
  readonly requiredSettings: ReadonlyArray<string>
  /** Whether a base URL must be given (a connector with no documented public URL). */
  readonly baseUrlRequired: boolean
  /** The pay-in plugin of one account; none for a kind with no pay-ins (an account cannot be made of it). */
  readonly paymentProvider: ((settings: ConnectorSettings) => Effect.Effect<PaymentProvider>) | undefined
}

export class ConnectorKinds extends Context.Service<ConnectorKinds, {
  readonly kinds: ReadonlyArray<ConnectorKind>
}>()("core/ports/ConnectorKinds") {
  /** No kinds: every connector account is refused (`connector_kind_unknown`). */
  static readonly none = Layer.succeed(ConnectorKinds, ConnectorKinds.of({ kinds: [] }))
}
