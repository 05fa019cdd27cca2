import { Context, type Effect, type Option } from "effect"
import type { ConnectorAccount } from "../connectors/ConnectorAccount.ts"

/** Connector accounts (`core/connectors/`). Every replica reads `versions` about once a second to pick up changes. */
export class ConnectorAccountStore extends Context.Service<ConnectorAccountStore, {
  /** False when the id is taken. */
  readonly insert: (account: ConnectorAccount) => Effect.Effect<boolean>
  /** Writes `account` over version `account.version - 1`; false when another change came first. */
  readonly update: (account: ConnectorAccount) => Effect.Effect<boolean>
  readonly remove: (id: string) => Effect.Effect<boolean>
  readonly find: (id: string) => Effect.Effect<Option.Option<ConnectorAccount>>
  /** A merchant's accounts (null: the operator's own), oldest first; `undefined`: every account. */
  readonly list: (merchantId: string | null | undefined) => Effect.Effect<ReadonlyArray<ConnectorAccount>>
  /** Every account's id and version: what a replica compares with what it has built. */
  readonly versions: Effect.Effect<ReadonlyArray<{ readonly id: string; readonly version: number }>>
}>()("core/ports/ConnectorAccountStore") {}
