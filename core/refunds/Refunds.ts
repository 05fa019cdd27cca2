/**
 * Refunds and chargebacks, both "claims" on a paid payment (a claim of kind `user_dispute` is a
 * refund). The operations live beside this file, one concern each:
 *
 * - `Claim.ts`: the record and its pure state machine;
 * - `RefundRequests.ts`: opening a refund and resolving it with the provider;
 * - `Chargebacks.ts`: opening a chargeback and resolving it (provider, sandbox, operator);
 * - `Funds.ts`: how a claim takes the shop's money and gives it back;
 * - `ClaimView.ts`: how a claim reads in the API and in events.
 */
import { Context, Effect, Layer, Option } from "effect"
import { type ApiErrorOf, notFound } from "../ApiError.ts"
import type { JournalEntry } from "../ledger/Journal.ts"
import type { Payment } from "../payments/Payment.ts"
import { RefundStore } from "../ports/RefundStore.ts"
import { LedgerStore } from "../ports/LedgerStore.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import type { RefundOutcome } from "../ports/PaymentProvider.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { type ChargebackOutcome, makeChargebacks } from "./Chargebacks.ts"
import type { Claim } from "./Claim.ts"
import { makeFunds } from "./Funds.ts"
import { makeRefunds, type RefundInput } from "./RefundRequests.ts"

export { claimView, refundView } from "./ClaimView.ts"
export { JobKinds, refundableOf } from "./RefundRequests.ts"
export type { ChargebackOutcome } from "./Chargebacks.ts"

/** What a refund request can fail with (documented for `POST /payments/{id}/refund`). */
export type RefundCode = "not_found" | "invalid_request" | "refund_not_allowed" | "refund_amount_exceeds_remaining" | "balance_insufficient" | "amount_rounds_to_zero"

/** What opening a chargeback on an existing payment can fail with. */
export type LateChargebackCode = "not_found" | "chargeback_already_opened" | "chargeback_not_allowed" | "chargeback_nothing_remaining"

/** What deciding a chargeback's outcome can fail with. */
export type DecideCode = "not_found" | "claim_not_chargeback" | "claim_already_resolved"

export class Refunds extends Context.Service<Refunds, {
  /** Opens a refund (see `Refunds.ts`). */
  readonly refund: (scope: Pick<ShopScope, "environment" | "shop">, transactionId: string, input: RefundInput) => Effect.Effect<Claim, ApiErrorOf<RefundCode>>
  readonly get: (scope: Pick<ShopScope, "environment" | "shop">, id: string) => Effect.Effect<Claim, ApiErrorOf<"not_found">>
  /** A payment of the shop and its claims (refunds and chargebacks), oldest first; 404 for another shop's. */
  readonly ofPayment: (
    scope: Pick<ShopScope, "environment" | "shop">,
    transactionId: string
  ) => Effect.Effect<{ readonly payment: Payment; readonly claims: ReadonlyArray<Claim> }, ApiErrorOf<"not_found">>
  /** The journal entries a payment of the shop caused, its claims' included, oldest first. */
  readonly ledgerOf: (scope: Pick<ShopScope, "environment" | "shop">, transactionId: string) => Effect.Effect<ReadonlyArray<JournalEntry>, ApiErrorOf<"not_found">>
  /** The provider's word on one of a payment's refunds, reported by itself (see `Refunds.ts`); idempotent. */
  readonly refundOutcome: (transactionId: string, outcome: RefundOutcome) => Effect.Effect<void>
  /**
   * Opens a chargeback on a completed payment (provider callback, or the sandbox `chargeback`
   * simulation): the payment becomes `chargeback`, what remains of it is frozen (its USD headline
   * less its refunds approved or open) and the tier's chargeback fee charged, from the payment's
   * own pending and reserve shares, then available; what they cannot cover is recorded as owed by
   * the merchant (`merchant_receivable`, reported in `ledgerWarnings`, repaid from later income).
   * `chargeback.created` and `claim.opened`. Idempotent: a second call changes nothing.
   */
  readonly openChargeback: (transactionId: string, reason: string) => Effect.Effect<Option.Option<Claim>>
  /**
   * The provider's word on the outcome of a payment's chargeback (opening it first if it was
   * never reported); idempotent, a refused outcome changes nothing.
   */
  readonly chargebackOutcome: (transactionId: string, outcome: ChargebackOutcome, detail: string) => Effect.Effect<Option.Option<Claim>>
  /**
   * The operator opens a chargeback on an existing payment (one a provider reported late), in the
   * payment's environment and on its shop's clock, with the same money as `openChargeback`. Refused
   * with 404 `not_found`, 409 `chargeback_already_opened`, 422 `chargeback_not_allowed` (not
   * completed) or `chargeback_nothing_remaining` (its refunds, approved or pending, cover it).
   */
  readonly openChargebackByOperator: (transactionId: string, reason: string | undefined) => Effect.Effect<Claim, ApiErrorOf<LateChargebackCode>>
  /** Sandbox only: the shop rehearses a late chargeback on one of its payments (same rules and refusals). */
  readonly simulateOpenChargeback: (
    scope: Pick<ShopScope, "environment" | "shop">,
    transactionId: string,
    reason: string | undefined
  ) => Effect.Effect<Claim, ApiErrorOf<LateChargebackCode | "simulate_sandbox_only">>
  /** Sandbox only: decides a chargeback of the shop as the card network would. */
  readonly simulateChargeback: (scope: Pick<ShopScope, "environment" | "shop">, claimId: string, outcome: ChargebackOutcome) => Effect.Effect<Claim, ApiErrorOf<"simulate_sandbox_only" | DecideCode>>
  /** The operator records a chargeback's outcome, in either environment. */
  readonly resolveChargeback: (claimId: string, outcome: ChargebackOutcome) => Effect.Effect<Claim, ApiErrorOf<DecideCode>>
}>()("core/refunds/Refunds") {
  static readonly layer = Layer.effect(
    Refunds,
    Effect.gen(function*() {
      const claims = yield* RefundStore
      const payments = yield* PaymentStore
      const ledger = yield* LedgerStore
      const funds = yield* makeFunds
      const { fromProvider, refund } = yield* makeRefunds(funds)
      const chargebacks = yield* makeChargebacks(funds)

      const get = Effect.fn("Claims.get")(function*(scope: Pick<ShopScope, "environment" | "shop">, id: string) {
        const found = yield* claims.find(scope.environment, scope.shop.id, id)
        if (Option.isNone(found)) return yield* notFound("claim", id)
        return found.value
      })

      const ofPayment = Effect.fn("Claims.ofPayment")(function*(scope: Pick<ShopScope, "environment" | "shop">, transactionId: string) {
        const found = yield* payments.find(scope.environment, scope.shop.id, transactionId)
        if (Option.isNone(found)) return yield* notFound("payment", transactionId)
        return { payment: found.value, claims: yield* claims.forPayment(transactionId) }
      })

      const ledgerOf = Effect.fn("Claims.ledgerOf")(function*(scope: Pick<ShopScope, "environment" | "shop">, transactionId: string) {
        const { claims: of } = yield* ofPayment(scope, transactionId)
        return yield* ledger.entriesFor(scope.environment, scope.shop.id, [transactionId, ...of.map((c) => c.id)])
      })

      return Refunds.of({
        refund,
        get,
        ofPayment,
        ledgerOf,
        refundOutcome: fromProvider,
        openChargeback: chargebacks.open,
        chargebackOutcome: chargebacks.fromProvider,
        openChargebackByOperator: chargebacks.openByOperator,
        simulateOpenChargeback: chargebacks.simulateOpen,
        simulateChargeback: chargebacks.simulate,
        resolveChargeback: chargebacks.resolveByOperator
      })
    })
  )
}
