/**
 * Refunds as claims (spec 2.7, 3.3, 4.8): a refund opens a `user_dispute` claim that freezes its
 * USD amount, asks the payment's provider to refund, and resolves: approved, the frozen money
 * leaves the balance (the refund's ledger movement); rejected, it returns to `available`.
 *
 * - The amount is in the payment's local currency; default: all that remains. Refunds that are
 *   open or approved count against what remains; each creation re-reads them after writing a new
 *   payment version, so racing refunds serialise and never exceed the payment.
 * - The USD frozen is the payment's USD headline pro rata; the refund that takes the remainder to
 *   zero gets the exact USD remainder, so a full refund returns the headline to the cent.
 * - Funds come from the payment's own share of `pending` (its net, until it settles), then its
 *   own share of the rolling reserve, then the shop's `available`, never from another payment's
 *   share (`Shares.ts`). What they cannot cover (at least the payment's fees, for a full refund
 *   before settlement) is owed by the shop (`merchant_receivable`), allowed only while the shop's
 *   whole balance less what it already owes covers the refund; otherwise 422
 *   `balance_insufficient`. Fees are not returned: a full refund costs the merchant its fees too.
 * - Events: `claim.opened` at creation; `payment.refunded` (in full or in part) and
 *   `claim.resolved` at approval; `claim.resolved` at rejection. The payment becomes `refunded`
 *   when its refunds cover it in full.
 */
import { BigDecimal, Context, DateTime, Effect, Layer, Option, Result, Schema } from "effect"
import { type ApiError, apiError, invalidRequest, notFound } from "../ApiError.ts"
import * as Owed from "../balances/Owed.ts"
import { Ids } from "../Ids.ts"
import { Jobs } from "../jobs/Jobs.ts"
import type { Book, Posting } from "../ledger/Journal.ts"
import { Ledger } from "../ledger/Ledger.ts"
import * as Money from "../Money.ts"
import { ClaimStore } from "../ports/ClaimStore.ts"
import { LedgerStore } from "../ports/LedgerStore.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { TenancyStore } from "../ports/TenancyStore.ts"
import { Conflict, Transactions } from "../ports/Transactions.ts"
import type { Payment } from "../payments/Payment.ts"
import { chargebackFeeUsd } from "../payments/Pricing.ts"
import { transition } from "../payments/PaymentState.ts"
import { readView } from "../payments/PaymentView.ts"
import { ProviderRegistry } from "../payments/ProviderRegistry.ts"
import * as Shares from "../payments/Shares.ts"
import type { Scope } from "../tenancy/Scopes.ts"
import { Events, paymentEvent } from "../webhooks/Events.ts"
import { type Claim, refundStatusOf, transitionClaim } from "./Claim.ts"

export const JobKinds = { resolveRefund: "claim.resolve_refund" } as const

const sum = (xs: ReadonlyArray<BigDecimal.BigDecimal>) => xs.reduce(BigDecimal.sum, Money.zero)

export const refundView = (c: Claim) => ({
  refundId: c.id,
  transactionId: c.transactionId,
  amount: Money.toJsonNumber(c.amount),
  amountUsd: Money.toJsonNumber(c.amountUsd),
  currency: c.currency,
  status: refundStatusOf(c.status),
  reason: c.reason,
  createdAt: DateTime.formatIso(c.createdAt)
})

export const claimView = (c: Claim) => ({
  id: c.id,
  kind: c.kind,
  status: c.status,
  transactionId: c.transactionId,
  amount: Money.toJsonNumber(c.amount),
  currency: c.currency,
  amountUsd: Money.toJsonNumber(c.amountUsd),
  feeUsd: Money.toJsonNumber(c.feeUsd),
  reason: c.reason,
  resolution: c.resolution,
  createdAt: DateTime.formatIso(c.createdAt),
  resolvedAt: c.resolvedAt === null ? null : DateTime.formatIso(c.resolvedAt),
  ...(c.kind === "user_dispute" ? { refundStatus: refundStatusOf(c.status) } : {})
})

export class Claims extends Context.Service<Claims, {
  readonly refund: (
    scope: Pick<Scope, "environment" | "shop">,
    transactionId: string,
    input: { readonly amount?: BigDecimal.BigDecimal | undefined; readonly reason?: string | undefined }
  ) => Effect.Effect<Claim, ApiError>
  readonly get: (scope: Pick<Scope, "environment" | "shop">, id: string) => Effect.Effect<Claim, ApiError>
  /**
   * Opens a chargeback on a completed payment (provider callback, or the sandbox `chargeback`
   * simulation): the payment becomes `chargeback`, what remains of it is frozen (its USD headline
   * less its refunds approved or open) and the tier's chargeback fee charged, from the payment's
   * own pending and reserve shares, then available; what they cannot cover is recorded as owed by
   * the merchant (`merchant_receivable`, reported in `ledgerWarnings`, repaid from later income).
   * `chargeback.created` and `claim.opened`. Idempotent: a second call changes nothing.
   */
  readonly openChargeback: (transactionId: string, reason: string) => Effect.Effect<Option.Option<Claim>>
}>()("core/claims/Claims") {
  static readonly layer = Layer.effect(
    Claims,
    Effect.gen(function*() {
      const claims = yield* ClaimStore
      const payments = yield* PaymentStore
      const ledger = yield* Ledger
      const balances = yield* LedgerStore
      const registry = yield* ProviderRegistry
      const events = yield* Events
      const jobs = yield* Jobs
      const ids = yield* Ids
      const tx = yield* Transactions
      const tenancy = yield* TenancyStore

      const entry = (p: Payment, kind: string, reference: string, postings: ReadonlyArray<Posting>) =>
        Effect.asVoid(ledger.record(p, kind, reference, postings).pipe(Effect.orDie))

      /** The shop's USD available balance now (a claim takes from it after the payment's own shares). */
      const availableUsd = (p: Payment) => balances.balance(p.environment, p.shopId, "payin_available", "USD")

      /** All the shop's USD a refund may count on: available, pending and reserve, less what it owes already. */
      const coverUsd = (p: Payment) =>
        Effect.map(
          Effect.forEach(["payin_available", "payin_pending", "payin_reserve", "merchant_receivable"] as const, (book) =>
            balances.balance(p.environment, p.shopId, book, "USD")),
          BigDecimal.sumAll
        )

      /**
       * A claim's entry. `available` was read before, so a concurrent withdrawal may have taken it:
       * the guard refuses the entry and the claim is tried again (`Conflict`).
       */
      const claimEntry = (p: Payment, kind: string, reference: string, postings: ReadonlyArray<Posting>) =>
        Effect.gen(function*() {
          // What the shop owes is locked first whenever it changes (one lock order, `Owed.ts`).
          if (postings.some((x) => x.book === "merchant_receivable" && !BigDecimal.isZero(x.amount))) yield* Owed.lockOwed(balances, p)
          yield* ledger.record(p, kind, reference, postings).pipe(Effect.catchTag("GuardViolation", () => Effect.fail(new Conflict())))
        })

      const bump = (p: Payment, changes: Partial<Payment> = {}) =>
        Effect.gen(function*() {
          const next: Payment = { ...p, ...changes, updatedAt: yield* DateTime.now, version: p.version + 1 }
          if (!(yield* payments.update(next))) return yield* new Conflict()
          return next
        })

      const openRefund = (scope: Pick<Scope, "environment" | "shop">, transactionId: string, input: {
        readonly amount?: BigDecimal.BigDecimal | undefined
        readonly reason?: string | undefined
      }) =>
        tx.run(Effect.gen(function*() {
          const found = yield* payments.find(scope.environment, scope.shop.id, transactionId)
          if (Option.isNone(found)) return yield* notFound("payment", transactionId)
          const p = found.value
          if (p.status !== "completed") {
            return yield* apiError("refund_not_allowed", `A ${p.status} payment cannot be refunded`, { status: p.status })
          }
          const counted = (yield* claims.forPayment(p.id)).filter((c) => c.kind === "user_dispute" && c.status !== "rejected")
          const remaining = BigDecimal.subtract(p.amountLocal, sum(counted.map((c) => c.amount)))
          const amount = input.amount ?? remaining
          if (!BigDecimal.isPositive(amount) || !Money.fitsExponent(amount, p.currencyLocal)) {
            return yield* invalidRequest(`amount must be a positive ${p.currencyLocal} amount`, [{
              path: "amount",
              message: `Expected a number greater than 0 with at most ${Money.exponent(p.currencyLocal)} decimals`
            }])
          }
          if (BigDecimal.isGreaterThan(amount, remaining)) {
            return yield* apiError("refund_amount_exceeds_remaining", `Only ${Money.toText(remaining)} ${p.currencyLocal} remain refundable`, {
              requested: Money.toJsonNumber(amount),
              remaining: Money.toJsonNumber(remaining),
              currency: p.currencyLocal
            })
          }
          const amountUsd = BigDecimal.equals(amount, remaining)
            ? BigDecimal.subtract(p.amount, sum(counted.map((c) => c.amountUsd)))
            : Money.round(BigDecimal.divideUnsafe(BigDecimal.multiply(p.amount, amount), p.amountLocal), "USD")
          const taken = Shares.drawDown(p, yield* availableUsd(p), amountUsd)
          if (BigDecimal.isPositive(taken.shortfall)) {
            // Beyond its own shares and available, the refund is owed by the shop, and allowed only
            // while the shop's other pending and reserved money (its future income) covers it.
            const cover = yield* coverUsd(p)
            if (BigDecimal.isGreaterThan(amountUsd, cover)) {
              return yield* apiError("balance_insufficient", "The balance cannot cover this refund", {
                requested: Money.toJsonNumber(amountUsd),
                available: Money.toJsonNumber(cover),
                shortfall: Money.toJsonNumber(BigDecimal.subtract(amountUsd, cover)),
                currency: "USD"
              })
            }
          }
          // Racing refunds of one payment serialise here: the loser retries and sees this one.
          yield* bump(p, { settlement: taken.settlement })
          const claim: Claim = {
            id: yield* ids.next("claim"),
            environment: p.environment,
            merchantId: p.merchantId,
            shopId: p.shopId,
            transactionId: p.id,
            kind: "user_dispute",
            status: "open",
            amount,
            currency: p.currencyLocal,
            amountUsd,
            feeUsd: Money.zero,
            reason: input.reason ?? null,
            resolution: null,
            providerRef: null,
            createdAt: yield* DateTime.now,
            resolvedAt: null,
            version: 1
          }
          yield* claims.insert(claim)
          yield* claimEntry(p, "claim.opened", claim.id, [
            ...taken.postings,
            { book: "payin_frozen", currency: "USD", amount: amountUsd },
            { book: "merchant_receivable", currency: "USD", amount: BigDecimal.negate(taken.shortfall) }
          ])
          yield* events.emit(paymentEvent(p, "claim.opened", claimView(claim)))
          yield* jobs.enqueue(JobKinds.resolveRefund, { claimId: claim.id }, { dedupeKey: `${JobKinds.resolveRefund}:${claim.id}` })
          return claim
        })).pipe(
          Effect.retry({ while: (e) => e._tag === "Conflict", times: 50 }),
          Effect.catchTag("Conflict", () => Effect.die(new Error("refund: too many concurrent refunds")))
        )

      const refund = Effect.fn("Claims.refund")(function*(
        scope: Pick<Scope, "environment" | "shop">,
        transactionId: string,
        input: { readonly amount?: BigDecimal.BigDecimal | undefined; readonly reason?: string | undefined }
      ) {
        return yield* openRefund(scope, transactionId, input)
      })

      const resolve = (claimId: string, outcome: { readonly approved: boolean; readonly resolution: string; readonly providerRef: string | null }) =>
        tx.run(Effect.gen(function*() {
          const found = yield* claims.findById(claimId)
          if (Option.isNone(found)) return
          const claim = found.value
          const next = transitionClaim(claim.status, outcome.approved ? "approve" : "reject")
          if (Result.isFailure(next)) return
          const resolved: Claim = {
            ...claim,
            status: next.success,
            resolution: outcome.resolution,
            providerRef: outcome.providerRef,
            resolvedAt: yield* DateTime.now,
            version: claim.version + 1
          }
          if (!(yield* claims.update(resolved))) return yield* new Conflict()
          const p = Option.getOrThrow(yield* payments.findById(claim.transactionId))
          const release: Book = outcome.approved ? "provider_clearing" : "payin_available"
          yield* entry(p, outcome.approved ? "refund.completed" : "claim.rejected", claim.id, [
            { book: "payin_frozen", currency: "USD", amount: BigDecimal.negate(claim.amountUsd) },
            { book: release, currency: "USD", amount: claim.amountUsd }
          ])
          let payment = p
          if (outcome.approved) {
            const approved = (yield* claims.forPayment(p.id)).filter((c) => c.kind === "user_dispute" && c.status === "approved")
            if (BigDecimal.equals(sum(approved.map((c) => c.amount)), p.amountLocal)) {
              const step = transition(p.status, "refunded_in_full")
              if (Result.isSuccess(step) && step.success._tag === "Moved") payment = yield* bump(p, { status: step.success.to })
            }
            yield* events.emit(paymentEvent(p, "payment.refunded", { ...readView(payment), refund: refundView(resolved) }))
          }
          yield* events.emit(paymentEvent(p, "claim.resolved", claimView(resolved)))
        })).pipe(Effect.retry({ while: (e) => e._tag === "Conflict", times: 20 }), Effect.orDie)

      yield* jobs.handle(JobKinds.resolveRefund, (payload) =>
        Effect.gen(function*() {
          const { claimId } = yield* Schema.decodeUnknownEffect(Schema.Struct({ claimId: Schema.String }))(payload)
          const claim = Option.getOrThrow(yield* claims.findById(claimId))
          if (claim.status !== "open") return
          const p = Option.getOrThrow(yield* payments.findById(claim.transactionId))
          const provider = yield* registry.get(p.provider)
          if (Option.isNone(provider)) {
            return yield* resolve(claimId, { approved: false, resolution: `the payment's receiver (${p.provider}) cannot refund`, providerRef: null })
          }
          const result = yield* provider.value.refund({
            transactionId: p.id,
            providerRef: p.providerRef,
            refundId: claim.id,
            idempotencyKey: claim.id,
            amount: claim.amount,
            currency: claim.currency
          }).pipe(Effect.result)
          if (Result.isSuccess(result)) {
            return yield* resolve(claimId, { approved: true, resolution: "refunded", providerRef: result.success.providerRef })
          }
          // A refusal resolves the claim; an outage makes the job retry with backoff.
          if (!result.failure.retryable) {
            return yield* resolve(claimId, { approved: false, resolution: `refused by ${p.provider}: ${result.failure.reason}`, providerRef: null })
          }
          return yield* Effect.fail(result.failure.message)
        }))

      const get = Effect.fn("Claims.get")(function*(scope: Pick<Scope, "environment" | "shop">, id: string) {
        const found = yield* claims.find(scope.environment, scope.shop.id, id)
        if (Option.isNone(found)) return yield* notFound("claim", id)
        return found.value
      })

      const openChargeback = (transactionId: string, reason: string) =>
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
          const due = BigDecimal.sum(disputedUsd, fee)
          const { postings: taken, settlement, shortfall } = Shares.drawDown(p, yield* availableUsd(p), due)
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
            providerRef: null,
            createdAt: yield* DateTime.now,
            resolvedAt: null,
            version: 1
          }
          const next = yield* bump(p, { status: step.success.to, settlement })
          yield* claims.insert(claim)
          yield* claimEntry(p, "chargeback.opened", claim.id, [
            ...taken,
            { book: "payin_frozen", currency: "USD", amount: disputedUsd },
            { book: "fees_chargeback", currency: "USD", amount: fee },
            { book: "merchant_receivable", currency: "USD", amount: BigDecimal.negate(shortfall) }
          ])
          yield* events.emit(paymentEvent(p, "chargeback.created", { ...readView(next), claim: claimView(claim) }))
          yield* events.emit(paymentEvent(p, "claim.opened", claimView(claim)))
          return Option.some(claim)
        })).pipe(Effect.retry({ while: (e) => e._tag === "Conflict", times: 20 }), Effect.orDie)

      return Claims.of({ refund, get, openChargeback })
    })
  )
}

