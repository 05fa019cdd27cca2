/**
 * Chargebacks: the buyer's bank disputes a completed payment.
 *
 * - Opening (a provider's `chargeback` callback or poll answer, or the sandbox `chargeback`
 *   simulation): the payment becomes `chargeback`; what remains of it is frozen (its USD headline
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
import { ClaimStore } from "../ports/ClaimStore.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { TenancyStore } from "../ports/TenancyStore.ts"
import { Conflict, retryOnConflict, Transactions } from "../ports/Transactions.ts"
import { transition } from "../payments/PaymentState.ts"
import { readView } from "../payments/PaymentView.ts"
import { chargebackFeeUsd } from "../payments/Pricing.ts"
import * as Shares from "../payments/Shares.ts"
import type { Scope } from "../tenancy/Scopes.ts"
import { Events, paymentEvent } from "../webhooks/Events.ts"
import { type Claim, type ClaimResolver, transitionClaim } from "./Claim.ts"
import { claimView } from "./ClaimView.ts"
import { type Funds, sum } from "./Funds.ts"

export type ChargebackOutcome = "won" | "lost"

export const makeChargebacks = (funds: Funds) =>
  Effect.gen(function*() {
    const claims = yield* ClaimStore
    const payments = yield* PaymentStore
    const events = yield* Events
    const ids = yield* Ids
    const tx = yield* Transactions
    const clocks = yield* ShopClocks
    const tenancy = yield* TenancyStore

    const open = (transactionId: string, reason: string) =>
      tx.run(Effect.gen(function*() {
        const found = yield* payments.findById(transactionId)
        if (Option.isNone(found)) return Option.none<Claim>()
        const p = found.value
        const step = transition(p.status, "chargeback_opened")
        if (Result.isFailure(step) || step.success._tag !== "Moved") return Option.none<Claim>()
        const tier = Option.match(yield* tenancy.findMerchant(p.merchantId), { onNone: () => "starter" as const, onSome: (m) => m.tier })
        const fee = Money.decimal(chargebackFeeUsd[tier])
        // What refunds already gave back (or hold frozen to give back) is not disputed again.
        const refunds = (yield* claims.forPayment(p.id)).filter((c) => c.kind === "user_dispute" && c.status !== "rejected")
        const disputedUsd = BigDecimal.subtract(p.amount, sum(refunds.map((c) => c.amountUsd)))
        const disputedLocal = BigDecimal.subtract(p.amountLocal, sum(refunds.map((c) => c.amount)))
        const taken = Shares.drawDown(p, yield* funds.availableUsd(p), BigDecimal.sum(disputedUsd, fee))
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
        const next = yield* funds.bump(p, { status: step.success.to, settlement: taken.settlement })
        yield* claims.insert(claim)
        yield* funds.entry(p, "chargeback.opened", claim.id, [
          ...taken.postings,
          { book: "payin_frozen", currency: "USD", amount: disputedUsd },
          { book: "fees_chargeback", currency: "USD", amount: fee },
          { book: "merchant_receivable", currency: "USD", amount: BigDecimal.negate(taken.shortfall) }
        ])
        yield* events.emit(paymentEvent(p, "chargeback.created", { ...readView(next), claim: claimView(claim) }))
        yield* events.emit(paymentEvent(p, "claim.opened", claimView(claim)))
        return Option.some(claim)
      })).pipe(Effect.retry({ while: (e) => e._tag === "Conflict", times: 20 }), Effect.orDie)

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
        return resolved
      })).pipe(
        retryOnConflict(`claim ${claim.id}`, 20)
      )

    /** The sandbox simulation of the card network's decision (production: 400 `simulate_sandbox_only`). */
    const simulate = Effect.fn("Claims.simulateChargeback")(function*(
      scope: Pick<Scope, "environment" | "shop">,
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
    const fromProvider = (transactionId: string, outcome: ChargebackOutcome, detail: string) =>
      Effect.gen(function*() {
        const existing = (yield* claims.forPayment(transactionId)).find((c) => c.kind === "chargeback")
        const claim = existing === undefined ? yield* open(transactionId, detail) : Option.some(existing)
        if (Option.isNone(claim)) return Option.none<Claim>()
        return yield* resolve(claim.value, outcome, "provider").pipe(
          Effect.map(Option.some),
          Effect.catchTag("ApiError", (e: ApiError) =>
            Effect.as(Effect.logWarning(`payment ${transactionId}: chargeback ${outcome} refused: ${e.message}`), Option.none<Claim>()))
        )
      })

    return { open, simulate, resolveByOperator, fromProvider }
  })
