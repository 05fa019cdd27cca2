import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Environment } from "../Environment.ts"
import type { Payout, PayoutStatus } from "../payouts/Payout.ts"

export class PayoutStore extends Context.Service<PayoutStore, {
  readonly insert: (payout: Payout) => Effect.Effect<void>
  readonly find: (environment: Environment, shopId: string, id: string) => Effect.Effect<Option.Option<Payout>>
  /** By id alone, for jobs that carry only the id. */
  readonly findById: (id: string) => Effect.Effect<Option.Option<Payout>>
  /** Writes `payout` if the stored version is `payout.version - 1`; false when another writer won. */
  readonly update: (payout: Payout) => Effect.Effect<boolean>
  /** Newest first. */
  readonly list: (
    environment: Environment,
    shopId: string,
    filter: { readonly status?: PayoutStatus | undefined; readonly methodId?: string | undefined },
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Payout>; readonly total: number }>
  /** Every shop's payouts, newest first, for the operator's queue (`createdBefore`: created earlier than that). */
  readonly listAll: (
    filter: { readonly environment?: Environment | undefined; readonly status?: PayoutStatus | undefined; readonly createdBefore?: DateTime.Utc | undefined },
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Payout>; readonly total: number }>
}>()("core/ports/PayoutStore") {}
