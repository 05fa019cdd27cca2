import { Context, type Effect, type Option } from "effect"
import type { Withdrawal } from "../balances/Withdrawal.ts"
import type { Environment } from "../Environment.ts"
import type { PayoutStatus } from "../payouts/Payout.ts"

export class WithdrawalStore extends Context.Service<WithdrawalStore, {
  readonly insert: (withdrawal: Withdrawal) => Effect.Effect<void>
  readonly find: (environment: Environment, shopId: string, id: string) => Effect.Effect<Option.Option<Withdrawal>>
  /** Any shop's withdrawal, for the operator. */
  readonly findById: (id: string) => Effect.Effect<Option.Option<Withdrawal>>
  /** Writes `withdrawal` if the stored version is `withdrawal.version - 1`; false when another writer won. */
  readonly update: (withdrawal: Withdrawal) => Effect.Effect<boolean>
  /** Newest first. */
  readonly list: (
    environment: Environment,
    shopId: string,
    filter: { readonly status?: PayoutStatus | undefined },
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Withdrawal>; readonly total: number }>
  /** Every shop's withdrawals, newest first, for the operator's queue. */
  readonly listAll: (
    filter: { readonly environment?: Environment | undefined; readonly status?: PayoutStatus | undefined },
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Withdrawal>; readonly total: number }>
}>()("core/ports/WithdrawalStore") {}
