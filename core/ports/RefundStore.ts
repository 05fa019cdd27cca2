import { Context, type Effect, type Option } from "effect"
import type { Claim, ClaimKind, ClaimStatus } from "../refunds/Claim.ts"
import type { Environment } from "../Environment.ts"

export class RefundStore extends Context.Service<RefundStore, {
  readonly insert: (claim: Claim) => Effect.Effect<void>
  readonly find: (environment: Environment, shopId: string, id: string) => Effect.Effect<Option.Option<Claim>>
  readonly findById: (id: string) => Effect.Effect<Option.Option<Claim>>
  /** Oldest first. */
  readonly forPayment: (transactionId: string) => Effect.Effect<ReadonlyArray<Claim>>
  /** Writes `claim` if the stored version is `claim.version - 1`; false when another writer won. */
  readonly update: (claim: Claim) => Effect.Effect<boolean>
  /** Every shop's claims, newest first, for the operator's queue. */
  readonly listAll: (
    filter: { readonly environment?: Environment | undefined; readonly kind?: ClaimKind | undefined; readonly status?: ClaimStatus | undefined },
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Claim>; readonly total: number }>
}>()("core/ports/RefundStore") {}
