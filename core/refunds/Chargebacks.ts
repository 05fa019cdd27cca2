/**
 * Chargebacks: the buyer's bank disputes a completed payment.
 *
 * - Opening (a provider's `chargeback` callback or poll answer, the sandbox `chargeback`
 *   simulation at creation, the operator's late chargeback on an existing payment, or its sandbox
 *   rehearsal; the last two refuse precisely what the first two ignore): the payment becomes `chargeback`; what remains of it is frozen (its USD headline
 *   less its refunds approved or open, so nothing is disputed twice) and the tier's chargeback fee
 *   charged, both taken from the payment's own pending and reserve shares, then `available`; what
 *   they cannot cover is owed by the shop (`merchant_receivable`). `chargeback.created` and
 *   `claim.opened`.
 * - Resolution, once: `won` (the frozen amount returns to the shop, repaying what it owes first;
 *   the fee is kept, as Stripe keeps its dispute fee) or `lost` (the frozen amount leaves to the
 *   provider, which returns it to the buyer). By the provider (`chargeback_won` /
 *   `chargeback_lost` statuses), by the sandbox simulation, or by the operator. `claim.resolved`.
 *   The payment stays `chargeback`; the claim tells the outcome. Repeating the same outcome
 *   changes nothing; the other outcome is refused (409 `claim_already_resolved`).
 */
import { BigDecimal, DateTime, Effect, Option, Result } from "effect"
import { type ApiError, apiError, notFound } from "../ApiError.ts"
import { ShopClocks } from "../clock/ShopClocks.ts"
import { Ids } from "../Ids.ts"
import * as Money from "../Money.ts"
import { RefundStore } from "../ports/RefundStore.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { TenancyStore } from "../ports/TenancyStore.ts"
import { Audit } from "../audit/Audit.ts"
import { Conflict, retryOnConflict, Transactions } from "../ports/Transactions.ts"
import type { Payment } from "../payments/Payment.ts"
import { publicStatus, transition } from "../payments/PaymentState.ts"
import { readView } from "../payments/PaymentView.ts"
import { chargebackFeeUsd } from "../payments/Pricing.ts"
import * as Shares from "../payments/Shares.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { Events, paymentEvent } from "../webhooks/Events.ts"
import { type Claim, type ClaimResolver, transitionClaim } from "./Claim.ts"
import { claimView } from "./ClaimView.ts"
import { type Funds, sum } from "./Funds.ts"

export type ChargebackOutcome = "won" | "lost"

export const makeChargebacks = Effect.fnUntraced(function*(funds: Funds) {
  const claims = yield* RefundStore
  const payments = yield* PaymentStore
  const events = yield* Events
  const ids = yield* Ids
  const tx = yield* Transactions
  const audit = yield* Audit
  const clocks = yield* ShopClocks
  const tenancy = yield* TenancyStore

  /**
   * Opens the chargeback of `p`, read in this transaction and `completed`: what remains of it
   * after its refunds approved or open is frozen and the tier's fee charged, in one entry with
   * the payment's new version (`Conflict` when another writer moved it first).
   */
  const openOn = Effect.fnUntraced(function*(p: Payment, reason: string, refunds: ReadonlyArray<Claim>) {
    const tier = Option.match(yield* tenancy.findMerchant(p.merchantId), { onNone: () => "starter" as const, onSome: (m) => m.tier })
    const fee = Money.decimal(chargebackFeeUsd[tier])
    // What refunds already gave back (or hold frozen to give back) is not disputed again.
    const disputedUsd = BigDecimal.subtract(p.amount, sum(refunds.map((c) => c.amountUsd)))
    const disputedLocal = BigDecimal.subtract(p.amountLocal, sum(refunds.map((c) => c.amount)))
    const taken = Shares.drawDown(p, yield* funds.availableUsd(p), [
      { book: "payin_frozen", amount: disputedUsd },
      { book: "fees_chargeback", amount: fee }
    ])
    const claim: Claim = {
      id: yield* ids.next("claim"),
      environment: p.environment,
      merchantId: p.merchantId,
      shopId: p.shopId,
      transactionId: p.id,
      kind: "chargeback",
      status: "open",
      amount: disputedLocal,
      currency: p.currencyLocal,
      amountUsd: disputedUsd,
      feeUsd: fee,
      reason,
      resolution: null,
      resolvedBy: null,
      providerRef: null,
      createdAt: yield* DateTime.now,
      resolvedAt: null,
      version: 1
    }
    // Racing openings of one payment serialise here: the loser retries and finds it charged back.
    const next = yield* funds.bump(p, { settlement: taken.settlement }, "chargeback_opened")
    yield* claims.insert(claim)
    yield* funds.entry(p, "chargeback.opened", claim.id, taken.transfers)
    yield* events.emit(paymentEvent(p, "chargeback.created", { ...readView(next), claim: claimView(claim) }))
    yield* events.emit(paymentEvent(p, "claim.opened", claimView(claim)))
    return claim
  })

  const refundsOf = (p: Payment) =>
    Effect.map(claims.forPayment(p.id), (of) => of.filter((c) => c.kind === "user_dispute" && c.status !== "rejected"))

  /** The provider's (or the sandbox `chargeback` simulation's) opening: a payment not completed is left as it is. */
  const open = (transactionId: string, reason: string) =>
    tx.run(Effect.gen(function*() {
      const found = yield* payments.findById(transactionId)
      if (Option.isNone(found)) return Option.none<Claim>()
      const p = found.value
      const step = transition(p.status, "chargeback_opened")
      if (Result.isFailure(step) || step.success._tag !== "Moved") return Option.none<Claim>()
      return Option.some(yield* openOn(p, reason, yield* refundsOf(p)))
    })).pipe(Effect.retry({ while: (e) => e._tag === "Conflict", times: 20 }), Effect.orDie)

  /**
   * A chargeback asked for on a payment that exists (the operator recording one a provider
   * reported late, or a sandbox rehearsal), with a precise refusal: 409
   * `chargeback_already_opened`, 422 `chargeback_not_allowed` (not completed) or
   * `chargeback_nothing_remaining` (its refunds, approved or open, cover it all).
   */
  const openOnRequest = (find: Effect.Effect<Option.Option<Payment>>, transactionId: string, reason: string) =>
    tx.run(Effect.gen(function*() {
      const found = yield* find
      if (Option.isNone(found)) return yield* notFound("payment", transactionId)
      const p = found.value
      const existing = (yield* claims.forPayment(p.id)).find((c) => c.kind === "chargeback")
      if (existing !== undefined) {
        return yield* apiError("chargeback_already_opened", `The payment already has a chargeback: ${existing.id} (${existing.status})`, {
          claimId: existing.id,
          status: existing.status
        })
      }
      const refunds = yield* refundsOf(p)
      const refundedLocal = sum(refunds.map((c) => c.amount))
      if (p.status === "refunded" || (p.status === "completed" && !BigDecimal.isPositive(BigDecimal.subtract(p.amountLocal, refundedLocal)))) {
        return yield* apiError("chargeback_nothing_remaining", "The payment's refunds (approved or pending) cover all of it: nothing remains to dispute", {
          amount: Money.toJsonNumber(p.amountLocal),
          refunded: Money.toJsonNumber(refundedLocal),
          currency: p.currencyLocal
        })
      }
      if (p.status !== "completed") {
        return yield* apiError("chargeback_not_allowed", `A ${publicStatus(p.status)} payment cannot be charged back: only a completed one`, {
          status: publicStatus(p.status)
        })
      }
      return yield* openOn(p, reason, refunds)
    })).pipe(
      retryOnConflict(`chargeback of ${transactionId}`, 20)
    )

  /**
   * The operator opens a chargeback on any payment, in its own environment and on the clock of
   * its shop (a provider reported it late, outside its notifications).
   */
  const openByOperator = Effect.fn("Claims.openChargeback")(function*(transactionId: string, reason: string | undefined) {
    const found = yield* payments.findById(transactionId)
    if (Option.isNone(found)) return yield* notFound("payment", transactionId)
    const { environment, shopId } = found.value
    return yield* clocks.within(
      environment,
      shopId,
      openOnRequest(payments.find(environment, shopId, transactionId), transactionId, reason ?? "opened by the operator")
    )
  })

  /** Sandbox only: the shop rehearses a chargeback reported on one of its payments (production: 400 `simulate_sandbox_only`). */
  const simulateOpen = Effect.fn("Claims.simulateOpenChargeback")(function*(
    scope: Pick<ShopScope, "environment" | "shop">,
    transactionId: string,
    reason: string | undefined
  ) {
    if (scope.environment !== "sandbox") return yield* apiError("simulate_sandbox_only", "Chargeback simulation exists in sandbox only", {})
    return yield* openOnRequest(payments.find(scope.environment, scope.shop.id, transactionId), transactionId, reason ?? "sandbox: simulated chargeback")
  })

  /** Resolves a chargeback claim once; the same outcome again answers the claim unchanged. */
  const resolve = (claim: Claim, outcome: ChargebackOutcome, by: ClaimResolver) =>
    tx.run(Effect.gen(function*() {
      const current = Option.getOrThrow(yield* claims.findById(claim.id))
      const step = transitionClaim(current.kind, current.status, outcome === "won" ? "win" : "lose")
      if (Result.isFailure(step)) {
        return yield* current.kind === "chargeback"
          ? apiError("claim_already_resolved", `The chargeback was already resolved: ${current.status}`, { status: current.status })
          : apiError("claim_not_chargeback", "Only a chargeback is resolved this way; a refund is resolved by its provider", { kind: current.kind })
      }
      if (step.success._tag === "Unchanged") return current
      const p = Option.getOrThrow(yield* payments.findById(current.transactionId))
      const owed = outcome === "won" ? yield* funds.lockOwed(p) : Money.zero
      const resolved: Claim = {
        ...current,
        status: step.success.to,
        resolution: outcome,
        resolvedBy: by,
        resolvedAt: yield* DateTime.now,
        version: current.version + 1
      }
      if (!(yield* claims.update(resolved))) return yield* new Conflict()
      yield* funds.entry(p, `chargeback.${outcome}`, current.id, outcome === "won"
        ? funds.unfreeze(current.amountUsd, owed)
        : funds.payOut(current.amountUsd))
      yield* events.emit(paymentEvent(p, "claim.resolved", claimView(resolved)))
      if (by === "operator") {
        yield* audit.recordForShop(resolved.environment, resolved.shopId, { object: { type: "claim", id: resolved.id }, changes: { resolved: outcome } })
      }
      return resolved
    })).pipe(
      retryOnConflict(`claim ${claim.id}`, 20)
    )

  /** The sandbox simulation of the card network's decision (production: 400 `simulate_sandbox_only`). */
  const simulate = Effect.fn("Claims.simulateChargeback")(function*(
    scope: Pick<ShopScope, "environment" | "shop">,
    claimId: string,
    outcome: ChargebackOutcome
  ) {
    if (scope.environment !== "sandbox") return yield* apiError("simulate_sandbox_only", "Chargeback simulation exists in sandbox only", {})
    const found = yield* claims.find(scope.environment, scope.shop.id, claimId)
    if (Option.isNone(found)) return yield* notFound("claim", claimId)
    return yield* resolve(found.value, outcome, "sandbox")
  })

  /** The operator records the outcome, in either environment (on the clock of the claim's shop). */
  const resolveByOperator = Effect.fn("Claims.resolveChargeback")(function*(claimId: string, outcome: ChargebackOutcome) {
    const found = yield* claims.findById(claimId)
    if (Option.isNone(found)) return yield* notFound("claim", claimId)
    return yield* clocks.within(found.value.environment, found.value.shopId, resolve(found.value, outcome, "operator"))
  })

  /**
   * The provider's word on a payment's chargeback (callback or poll). A provider that reports
   * the outcome of a chargeback it never reported opening opens it first. A refused outcome is
   * logged and changes nothing.
   */
  const fromProvider = Effect.fnUntraced(function*(transactionId: string, outcome: ChargebackOutcome, detail: string) {
    const existing = (yield* claims.forPayment(transactionId)).find((c) => c.kind === "chargeback")
    const claim = existing === undefined ? yield* open(transactionId, detail) : Option.some(existing)
    if (Option.isNone(claim)) return Option.none<Claim>()
    return yield* resolve(claim.value, outcome, "provider").pipe(
      Effect.map(Option.some),
      Effect.catchTag("ApiError", (e: ApiError) =>
        Effect.as(Effect.logWarning(`payment ${transactionId}: chargeback ${outcome} refused: ${e.message}`), Option.none<Claim>()))
    )
  })

  return { open, openByOperator, simulateOpen, simulate, resolveByOperator, fromProvider }
})
