/**
 * The contract of a settlement payout plugin: how a closed settlement batch's net leaves the
 * platform for the merchant's own destination, a stablecoin address on a named chain (Circle's
 * USDC transfers). Like pay-outs, the engine writes the batch ahead (`paying`) with the
 * idempotency key the provider will see, calls `send`, and learns the outcome from the answer,
 * the status poll or a verified notification. Only an explicit `complete` or `failed` moves
 * money; anything else is `pending`.
 */
import type { BigDecimal, Effect } from "effect"
import { Context, Layer, Schema } from "effect"
import type { Environment } from "../Environment.ts"
import type { CallbackRejected } from "./PaymentProvider.ts"

/** Where a batch is paid: a blockchain address on a chain the provider names (Circle: `ETH`, `SOL`, `POLY`...). */
export interface ChainDestination {
  readonly chain: string
  readonly address: string
}

export interface SettlementPayoutRequest {
  /** The engine's batch id (`STL-...`). */
  readonly batchId: string
  /** The same on every retry of this batch's payout: `<batchId>:<providerId>`. */
  readonly idempotencyKey: string
  readonly environment: Environment
  /** In USD, major units, rounded to the cent; paid 1:1 in USDC. */
  readonly amountUsd: BigDecimal.BigDecimal
  readonly destination: ChainDestination
}

export type SettlementPayoutStatus = "pending" | "complete" | "failed"

/** A settlement payout as the provider reports it. */
export interface SettlementPayoutUpdate {
  readonly providerRef: string
  /** The engine's batch id, when the provider echoes it (its idempotency key or metadata). */
  readonly batchId?: string | undefined
  readonly status: SettlementPayoutStatus
  /** The transaction hash on chain, once the provider has one. */
  readonly transactionHash?: string | undefined
  /** The provider's words (failure reason...). */
  readonly detail?: string | undefined
}

/** The provider refused the payout outright (bad address, unsupported chain): the batch fails, its money returns. */
export class SettlementPayoutRejected extends Schema.TaggedError<SettlementPayoutRejected>()("SettlementPayoutRejected", {
  reason: Schema.String
}) {}

/** The provider could not be asked (outage, timeout, 5xx): the engine asks again with the same key. */
export class SettlementPayoutUnavailable extends Schema.TaggedError<SettlementPayoutUnavailable>()("SettlementPayoutUnavailable", {
  reason: Schema.String
}) {}

/**
 * A destination as the provider holds it where it pays only to approved destinations (Circle
 * Mint's address book): `approved` pays; `pending` waits for the account's administrator;
 * `denied` will not pay until it is entered again.
 */
export interface DestinationApproval {
  readonly status: "approved" | "pending" | "denied"
  /** The provider's id of the entry (Circle's address book id), once it has one. */
  readonly reference: string | null
  /** The provider's own word for the state (Circle: `active`, `pending_verification`...). */
  readonly detail: string
}

export interface SettlementPayoutProvider {
  readonly id: string
  readonly environments: ReadonlyArray<Environment>
  /** The chains it pays out on, by the provider's names. */
  readonly chains: ReadonlyArray<string>
  /**
   * Sends the payout, or, when the provider already holds one for this idempotency key, answers
   * that one as it stands now: never a second transfer.
   */
  readonly send: (request: SettlementPayoutRequest) => Effect.Effect<SettlementPayoutUpdate, SettlementPayoutRejected | SettlementPayoutUnavailable>
  /**
   * Where the provider pays only to destinations an administrator approved: enters `destination`
   * with the provider (once: the same destination is the same entry on every call) and answers
   * its state now. Absent where any address is paid. Never moves money.
   */
  readonly destination?: ((environment: Environment, destination: ChainDestination) => Effect.Effect<DestinationApproval, SettlementPayoutRejected | SettlementPayoutUnavailable>) | undefined
  /** The payout as it stands now (the poll when a notification was lost). */
  readonly status: (providerRef: string) => Effect.Effect<SettlementPayoutUpdate, SettlementPayoutUnavailable>
  /** Verifies and parses a notification exactly as the provider documents it; headers lowercase, the body the exact bytes. */
  readonly verifyCallback: (
    headers: Readonly<Record<string, string | undefined>>,
    rawBody: string
  ) => Effect.Effect<ReadonlyArray<SettlementPayoutUpdate>, CallbackRejected>
}

/** The settlement payout plugins a host configured; without one, production batches cannot be paid (schedules are refused). */
export class SettlementPayoutProviders extends Context.Service<SettlementPayoutProviders, {
  /** The provider that pays out on `chain` in `environment`, if one is configured. */
  readonly forChain: (environment: Environment, chain: string) => SettlementPayoutProvider | undefined
  readonly byId: (id: string) => SettlementPayoutProvider | undefined
  /** Every chain some provider pays on in `environment`. */
  readonly chains: (environment: Environment) => ReadonlyArray<string>
}>()("core/ports/SettlementPayoutProviders") {
  /** A registry of the given plugins (the first that names a chain pays on it). */
  static readonly layer = (providers: ReadonlyArray<SettlementPayoutProvider>): Layer.Layer<SettlementPayoutProviders> =>
    Layer.succeed(SettlementPayoutProviders, {
      forChain: (environment: Environment, chain: string) => providers.find((p) => p.environments.includes(environment) && p.chains.includes(chain)),
      byId: (id: string) => providers.find((p) => p.id === id),
      chains: (environment: Environment) => [...new Set(providers.filter((p) => p.environments.includes(environment)).flatMap((p) => p.chains))].sort()
    })
  static readonly none = SettlementPayoutProviders.layer([])
}
