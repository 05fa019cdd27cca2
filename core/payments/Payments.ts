/**
 * Pay-ins: create a payment through the routing cascade, read and list payments, and move them
 * through their life cycle. The operations live beside this file, one concern each:
 *
 * - `Checks.ts`: what a request must satisfy (rail, amount, currency, limits);
 * - `Create.ts`: creating a payment, written ahead and continued after a crash, in named steps
 *   (`CreateRequest.ts` before anything is written, `CreateRoute.ts` from the write-ahead on);
 * - `Incoming.ts`: recording money that already arrived (a deposit) as a completed pay-in;
 * - `Cascade.ts`: trying the providers in order;
 * - `Lifecycle.ts`: status changes from callbacks, the reconcile poll and the sandbox;
 * - `Postings.ts`: the journal postings of each step;
 * - `PaymentJobs.ts`: expiry, settlement, reserve release and the reconcile poll as jobs.
 */
import { type BigDecimal, Context, type Duration, Effect, Layer, Option } from "effect"
import { type ApiErrorOf, notFound } from "../ApiError.ts"
import type { Conversion } from "../fx/Fx.ts"
import type { Executed, KeyHandle } from "../idempotency/Idempotency.ts"
import type { KeyTaken } from "../ports/IdempotencyStore.ts"
import type { ChargeUpdate } from "../ports/PaymentProvider.ts"
import type { Conflict } from "../ports/Transactions.ts"
import { type PaymentFilter, PaymentStore } from "../ports/PaymentStore.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { type CreatePayment, makeCreate } from "./Create.ts"
import { type IncomingPayment, makeRecordIncoming } from "./Incoming.ts"
import { makeCapture, type SettleCode, type VoidCode } from "./Capture.ts"
import { makeLifecycle } from "./Lifecycle.ts"
import type { Payment } from "./Payment.ts"
import type { PaymentStatus } from "./PaymentState.ts"
import type { InstallmentsQuote } from "./InstallmentsQuote.ts"
import type { CreatedView } from "./PaymentView.ts"
import { registerPaymentJobs } from "./PaymentJobs.ts"

export { maxPaymentUsd } from "./Checks.ts"
export type { SettleCode } from "./Capture.ts"
export type { CreatePayment, PaymentKey } from "./Create.ts"
export type { IncomingPayment } from "./Incoming.ts"
export { JobKinds, reconcileAfter, reconcileEvery } from "./Lifecycle.ts"

/** What creating a payment can fail with. */
export type CreateCode =
  | "invalid_request"
  | "cascade_exhausted"
  | "provider_outcome_unknown"
  | "amount_out_of_limits"
  | "fx_unavailable"
  | "missing_required_fields"
  | "capture_requires_card"
  | "capture_not_supported"
  | CardCode
  | InstallmentCode
/** A create's installments checks (`Installments.ts`). */
export type InstallmentCode = "installments_not_accepted" | "installment_interest_not_supported" | "installments_invalid"
/** A create's card checks (`CreateCard.ts`). */
export type CardCode = "card_required" | "card_not_accepted" | "card_token_not_found" | "card_brand_mismatch" | "card_expired" | "card_vault_unavailable"

export class Payments extends Context.Service<Payments, {
  /** Creates a payment (or continues the one `input.id` names); see `createKeyed` for a client's key. */
  readonly create: (scope: ShopScope, input: CreatePayment) => Effect.Effect<Payment, ApiErrorOf<CreateCode>>
  /**
   * `create` for a request with an `Idempotency-Key` whose run stores its own answer (a
   * checkout's): the key is bound to the record in its write-ahead. `KeyTaken` only inside an
   * `Idempotency.run` that claims its key in the write-ahead (`claimInWriteAhead`), which answers
   * it from the key: nothing was written.
   */
  readonly createKeyed: (scope: ShopScope, input: CreatePayment, key: KeyHandle) => Effect.Effect<Payment, ApiErrorOf<CreateCode> | KeyTaken>
  /**
   * `create` for a request that answers with the payment's create view (`POST /payments`): the
   * view, made by the core. With a key, the key is bound to the record in its write-ahead and is
   * the view's to keep: a payment left pending stores the view as the key's response in its last
   * write (`PaymentStore.updateCompletingKey`), and it comes back with its completion
   * (`Executed`); otherwise the run stores it. `KeyTaken` as for `createKeyed`.
   */
  readonly createAnswering: (
    scope: ShopScope,
    input: CreatePayment,
    key: KeyHandle | undefined
  ) => Effect.Effect<Executed<CreatedView>, ApiErrorOf<CreateCode> | KeyTaken>
  /**
   * Records money that already arrived (a bank transfer to a deposit account) as a completed
   * pay-in: the payment, its ledger entry and its events, in the caller's transaction.
   */
  readonly recordIncoming: (scope: ShopScope, input: IncomingPayment) => Effect.Effect<Payment, ApiErrorOf<"amount_out_of_limits" | "fx_unavailable">>
  /** Validates an amount in a presentment currency (default USD) and converts it to the USD headline. */
  readonly headline: (
    amount: BigDecimal.BigDecimal,
    currency: string | undefined
  ) => Effect.Effect<{ readonly currency: string; readonly conversion: Conversion }, ApiErrorOf<"invalid_request" | "amount_out_of_limits" | "fx_unavailable">>
  /**
   * Each count a card rail takes for `amount` USD (priced as a create would be), with its
   * instalments (`InstallmentsQuote.ts`).
   */
  readonly quoteInstallments: (
    scope: ShopScope,
    paymentMethodId: string,
    amount: BigDecimal.BigDecimal
  ) => Effect.Effect<InstallmentsQuote, ApiErrorOf<"invalid_request" | "cascade_exhausted" | "amount_out_of_limits" | "fx_unavailable" | "installments_not_accepted">>
  readonly get: (scope: Pick<ShopScope, "environment" | "shop">, id: string) => Effect.Effect<Payment, ApiErrorOf<"not_found">>
  /** The shop a payment of that environment belongs to (to resolve a multi-shop credential's scope). */
  readonly shopOf: (environment: ShopScope["environment"], id: string) => Effect.Effect<string | undefined>
  /** `status` is the API's: `pending` also finds payments still being routed (`initiated`). */
  readonly list: (
    scope: Pick<ShopScope, "environment" | "shop">,
    filter: Omit<PaymentFilter, "statuses"> & { readonly status?: PaymentStatus | undefined },
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Payment>; readonly total: number }>
  /** Applies a provider's word about a charge (callback, poll or sandbox); idempotent. */
  readonly applyUpdate: (paymentId: string, update: ChargeUpdate) => Effect.Effect<Option.Option<Payment>>
  /** Verifies and applies a provider callback; `CallbackRejected` (401) changes nothing. */
  readonly handleCallback: (
    providerId: string,
    headers: Readonly<Record<string, string | undefined>>,
    rawBody: string,
    query?: Readonly<Record<string, string>>
  ) => Effect.Effect<number, ApiErrorOf<"not_found" | "authentication_failed">>
  /**
   * One pass of the reconcile poll: asks providers about pending payments created more than
   * `olderThan` ago (default 2 minutes; a sandbox payment's age on its shop's clock), or only
   * those of one sandbox shop; answers how many moved.
   */
  readonly reconcile: (olderThan?: Duration.Duration, sandboxShopId?: string) => Effect.Effect<number>
  /**
   * Asks the provider of a pending payment (any shop's: the id alone names it) how its charge
   * stands now, as the reconcile poll does, and applies the answer; answers the payment as it is
   * after (none for an unknown id). Only a provider's word moves it, so calling it changes nothing
   * a provider has not said: the 3-D Secure return page (`/3ds/return/{id}`) calls it.
   */
  readonly refresh: (paymentId: string) => Effect.Effect<Option.Option<Payment>>
  /**
   * Releases what is left of a completed payment's rolling reserve now, as its release job would
   * on its date (a settlement schedule that does not keep reserves); nothing when already released.
   */
  readonly releaseReserveNow: (paymentId: string) => Effect.Effect<void, Conflict>
  /**
   * Captures (part of) an authorized payment (`capture: false`), written ahead with the key the
   * provider sees and continued by a retry of `key` (`Capture.ts`); answers the payment after.
   */
  readonly capture: (
    scope: Pick<ShopScope, "environment" | "shop" | "merchant">,
    id: string,
    amount: BigDecimal.BigDecimal | undefined,
    key: KeyHandle | undefined
  ) => Effect.Effect<Payment, ApiErrorOf<SettleCode> | KeyTaken>
  /** Voids an authorized payment: `voided`, nothing booked (`Capture.ts`). */
  readonly void: (
    scope: Pick<ShopScope, "environment" | "shop" | "merchant">,
    id: string,
    key: KeyHandle | undefined
  ) => Effect.Effect<Payment, ApiErrorOf<VoidCode> | KeyTaken>
}>()("core/payments/Payments") {
  static readonly layer = Layer.effect(
    Payments,
    Effect.gen(function*() {
      const store = yield* PaymentStore
      const lifecycle = yield* makeLifecycle
      const { abandon, create, createAnswering, headline, quoteInstallments, resume } = yield* makeCreate(lifecycle)
      const recordIncoming = yield* makeRecordIncoming(lifecycle)
      const { releaseReserve } = yield* registerPaymentJobs(lifecycle, { resume, abandon })
      const settle = yield* makeCapture(lifecycle)

      const get = Effect.fn("Payments.get")(function*(scope: Pick<ShopScope, "environment" | "shop">, id: string) {
        const found = yield* store.find(scope.environment, scope.shop.id, id)
        if (Option.isNone(found)) return yield* notFound("payment", id)
        return found.value
      })

      const list = (
        scope: Pick<ShopScope, "environment" | "shop">,
        { status, ...filter }: Omit<PaymentFilter, "statuses"> & { readonly status?: PaymentStatus | undefined },
        page: { readonly limit: number; readonly offset: number }
      ) =>
        store.list(scope.environment, scope.shop.id, {
          ...filter,
          statuses: status === undefined ? undefined : status === "pending" ? ["pending", "initiated"] : [status]
        }, page)

      const shopOf = (environment: ShopScope["environment"], id: string) =>
        Effect.map(store.findById(id), (found) => Option.isSome(found) && found.value.environment === environment ? found.value.shopId : undefined)

      return Payments.of({
        shopOf,
        // Without a key nothing is claimed, so nothing can find one taken.
        create: (scope, input) => create(scope, input).pipe(Effect.map((done) => done.payment), Effect.catchTag("KeyTaken", Effect.die)),
        createKeyed: (scope, input, key) => Effect.map(create(scope, input, { handle: key, answersView: false }), (done) => done.payment),
        createAnswering,
        recordIncoming,
        headline,
        quoteInstallments,
        get,
        list,
        applyUpdate: lifecycle.applyUpdate,
        handleCallback: lifecycle.handleCallback,
        reconcile: lifecycle.reconcile,
        refresh: lifecycle.refresh,
        releaseReserveNow: releaseReserve,
        capture: settle.capture,
        void: settle.void
      })
    })
  )
}
