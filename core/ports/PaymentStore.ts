import { type BigDecimal, Context, type DateTime, type Effect, type Option } from "effect"
import type { Environment } from "../Environment.ts"
import type { KeyCompletion } from "./IdempotencyStore.ts"
import type { Payment } from "../payments/Payment.ts"
import type { PaymentRecordStatus } from "../payments/PaymentState.ts"

export interface PaymentFilter {
  /** Any of these statuses. */
  readonly statuses?: ReadonlyArray<PaymentRecordStatus> | undefined
  readonly paymentMethodId?: string | undefined
  /** ISO-3. */
  readonly country?: string | undefined
  readonly merchantOrderId?: string | undefined
  /** The payment's own id (`TXN-...`). */
  readonly id?: string | undefined
  /** The buyer's email, compared without regard to case. */
  readonly userEmail?: string | undefined
  readonly method?: string | undefined
  /** Created at or after this instant. */
  readonly createdFrom?: DateTime.Utc | undefined
  /** Created strictly before this instant. */
  readonly createdBefore?: DateTime.Utc | undefined
  /** USD headline at least this (inclusive). */
  readonly amountMin?: BigDecimal.BigDecimal | undefined
  /** USD headline at most this (inclusive). */
  readonly amountMax?: BigDecimal.BigDecimal | undefined
  /**
   * Keyset paging: only the rows after this one in the list's order (newest first, by created
   * time then id), so that rows inserted meanwhile neither repeat nor skip one. `total` ignores it.
   */
  readonly after?: { readonly createdAt: DateTime.Utc; readonly id: string } | undefined
}

export class PaymentStore extends Context.Service<PaymentStore, {
  /** A write that can be part of `Transactions.batch`. */
  readonly insert: (payment: Payment) => Effect.Effect<void>
  /** A payment of that environment and shop; none for an id of another one. */
  readonly find: (environment: Environment, shopId: string, id: string) => Effect.Effect<Option.Option<Payment>>
  /** By id alone, for callbacks and jobs that carry only the id. */
  readonly findById: (id: string) => Effect.Effect<Option.Option<Payment>>
  /**
   * Writes `payment` if the stored version is `payment.version - 1` (optimistic check); false
   * when another writer got there first.
   */
  readonly update: (payment: Payment) => Effect.Effect<boolean>
  /**
   * `update`, and in the same write the idempotency key of the request completed with the
   * response it replays (`completion`), only if the payment is written: a request's last write on
   * its payment and its key's stored answer commit together or not at all, with no transaction
   * (one statement on SQL). The key is the `IdempotencyStore`'s record, so a store implements this
   * on the database that holds the keys.
   */
  readonly updateCompletingKey: (payment: Payment, completion: KeyCompletion) => Effect.Effect<boolean>
  /** Newest first, with the total of the filtered set. */
  readonly list: (
    environment: Environment,
    shopId: string,
    filter: PaymentFilter,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Payment>; readonly total: number }>
  /**
   * Pending payments created before `createdBefore` (real time), oldest first: the reconcile
   * poll's work. A sandbox payment's `createdAt` is on its shop's clock, so it counts when
   * `createdAt <= createdBefore + that shop's offset` (`SandboxClockStore`). With
   * `sandboxShopId`, only that sandbox shop's payments.
   */
  readonly pendingCreatedBefore: (
    createdBefore: DateTime.Utc,
    limit: number,
    sandboxShopId?: string
  ) => Effect.Effect<ReadonlyArray<Payment>>
  /** How many payments on the provider are not yet completed or final (initiated, pending, authorized). */
  readonly countOpenOnProvider: (providerId: string) => Effect.Effect<number>
}>()("core/ports/PaymentStore") {}
