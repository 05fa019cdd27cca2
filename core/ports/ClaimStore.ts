import { Context, type Effect, type Option } from "effect"
import type { Claim } from "../claims/Claim.ts"
import type { Environment } from "../Environment.ts"

export class ClaimStore extends Context.Service<ClaimStore, {
  readonly insert: (claim: Claim) => Effect.Effect<void>
  readonly find: (environment: Environment, shopId: string, id: string) => Effect.Effect<Option.Option<Claim>>
  readonly findById: (id: string) => Effect.Effect<Option.Option<Claim>>
  /** Oldest first. */
  readonly forPayment: (transactionId: string) => Effect.Effect<ReadonlyArray<Claim>>
  /** Writes `claim` if the stored version is `claim.version - 1`; false when another writer won. */
  readonly update: (claim: Claim) => Effect.Effect<boolean>
}>()("core/ports/ClaimStore") {}
