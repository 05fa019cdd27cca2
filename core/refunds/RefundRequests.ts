/**
 * Refunds as claims (spec 2.7, 3.3, 4.8): a refund opens a `user_dispute` claim that freezes its
 * USD amount, asks the payment's provider to refund, and resolves: approved, the frozen money
 * leaves the balance (the refund's ledger movement); rejected, it returns to the shop.
 *
 * - The amount is in the payment's local currency; default: all that remains. Refunds that are
 *   open or approved count against what remains; each creation re-reads them after writing a new
 *   payment version, so racing refunds serialise and never exceed the payment.
 * - The USD frozen is the payment's USD headline pro rata, rounded up (the merchant pays it) and
 *   never more than what is left of the headline; the refund that takes the remainder to zero
 *   gets the exact USD remainder, so a full refund returns the headline to the cent, and no
 *   sequence of partial refunds takes more USD than the whole refund would, nor less pro rata.
 *   A refund whose USD share is nothing (what is left of the headline is 0) is refused with 422
 *   `amount_rounds_to_zero`: the buyer would be paid while nothing leaves the shop's balance.
 * - Funds come from the payment's own share of `pending` (its net, until it settles), then its
 *   own share of the rolling reserve, then the shop's `available`, never from another payment's
 *   share (`Shares.ts`). What they cannot cover (at least the payment's fees, for a full refund
 *   before settlement) is owed by the shop (`merchant_receivable`), allowed only while the shop's
 *   whole balance less what it already owes covers the refund; otherwise 422
 *   `balance_insufficient`. Fees are not returned: a full refund costs the merchant its fees too.
 * - A rejected refund gives the frozen money back: what the shop owes is repaid first.
 * - Events: `claim.opened` at creation; `payment.refunded` (in full or in part) and
 *   `claim.resolved` at approval; `claim.resolved` at rejection. The payment becomes `refunded`
 *   when its refunds cover it in full.
 */
import { absurd, BigDecimal, DateTime, Duration, Effect, Option, Result, Schema } from "effect"
import { apiError, invalidRequest, notFound } from "../ApiError.ts"
import { EngineConfig } from "../EngineConfig.ts"
import { Ids } from "../Ids.ts"
import { Jobs } from "../jobs/Jobs.ts"
import * as Money from "../Money.ts"
import { RefundStore } from "../ports/RefundStore.ts"
import type { RefundOutcome } from "../ports/PaymentProvider.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { Conflict, retryOnConflict, Transactions } from "../ports/Transactions.ts"
import { transition } from "../payments/PaymentState.ts"
import { readView } from "../payments/PaymentView.ts"
import { ProviderRegistry } from "../ports/ProviderRegistry.ts"
import * as Shares from "../payments/Shares.ts"
import { callbackUrlOf } from "../payments/Upstream.ts"
import type { Payment } from "../payments/Payment.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { Events, paymentEvent } from "../webhooks/Events.ts"
import { type Claim, transitionClaim } from "./Claim.ts"
import { claimView, refundView } from "./ClaimView.ts"
import { type Funds, sum } from "./Funds.ts"

export const JobKinds = { resolveRefund: "claim.resolve_refund" } as const

/**
 * How long the engine waits before asking the provider again about a refund it has pending: 1, 5
 * and 15 minutes, 1 hour, then every 6 hours, for about 30 days. Past that the refund stays
 * pending (its money frozen) and an error is logged: an operator settles it from the provider's
 * report.
 */
export const refundPollDelays: ReadonlyArray<Duration.Duration> = [
  Duration.minutes(1),
  Duration.minutes(5),
  Duration.minutes(15),
  Duration.hours(1)
]
export const refundPollEvery = Duration.hours(6)
export const refundPollLimit = refundPollDelays.length + 30 * 4

const RefundJobPayload = Schema.Struct({
  claimId: Schema.String,
  /** How many times the provider answered `pending` already. */
  poll: Schema.optionalKey(Schema.Int)
})

/**
 * What a refund of `payment` may still take, in its local currency: nothing unless it is
 * completed, else its amount less its refunds not rejected. The one rule: a refund is checked
 * against it and `GET /payments/{id}` shows it.
 */
export const refundableOf = (payment: Payment, claims: ReadonlyArray<Claim>): BigDecimal.BigDecimal =>
  payment.status !== "completed"
    ? Money.zero
    : BigDecimal.subtract(
      payment.amountLocal,
      sum(claims.filter((c) => c.transactionId === payment.id && c.kind === "user_dispute" && c.status !== "rejected").map((c) => c.amount))
    )

export interface RefundInput {
  readonly amount?: BigDecimal.BigDecimal | undefined
  readonly reason?: string | undefined
}

export const makeRefunds = Effect.fnUntraced(function*(funds: Funds) {
  const claims = yield* RefundStore
  const payments = yield* PaymentStore
  const registry = yield* ProviderRegistry
  const events = yield* Events
  const jobs = yield* Jobs
  const ids = yield* Ids
  const tx = yield* Transactions
  const config = yield* EngineConfig

  const open = (scope: Pick<ShopScope, "environment" | "shop">, transactionId: string, input: RefundInput) =>
    tx.run(Effect.gen(function*() {
      const found = yield* payments.find(scope.environment, scope.shop.id, transactionId)
      if (Option.isNone(found)) return yield* notFound("payment", transactionId)
      const p = found.value
      if (p.status !== "completed") {
        return yield* apiError("refund_not_allowed", `A ${p.status} payment cannot be refunded`, { status: p.status })
      }
      const counted = (yield* claims.forPayment(p.id)).filter((c) => c.kind === "user_dispute" && c.status !== "rejected")
      const remaining = refundableOf(p, counted)
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
      const remainingUsd = BigDecimal.subtract(p.amount, sum(counted.map((c) => c.amountUsd)))
      const amountUsd = BigDecimal.equals(amount, remaining) ? remainingUsd : BigDecimal.min(
        Money.roundFor(BigDecimal.divideUnsafe(BigDecimal.multiply(p.amount, amount), p.amountLocal), "USD", "pays"),
        remainingUsd
      )
      if (!BigDecimal.isPositive(amountUsd)) {
        return yield* apiError(
          "amount_rounds_to_zero",
          `Earlier refunds took all ${Money.toText(p.amount)} USD of this payment's headline: a refund of ${Money.toText(amount)} ${p.currencyLocal} would take nothing from the balance`,
          { amount: Money.toJsonNumber(amount), currency: p.currencyLocal, bookedCurrency: "USD" }
        )
      }
      const taken = Shares.drawDown(p, yield* funds.availableUsd(p), [{ book: "payin_frozen", amount: amountUsd }])
      if (BigDecimal.isPositive(taken.shortfall)) {
        // Beyond its own shares and available, the refund is owed by the shop, and allowed only
        // while the shop's other pending and reserved money (its future income) covers it.
        const cover = yield* funds.coverUsd(p)
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
      yield* funds.bump(p, { settlement: taken.settlement })
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
        resolvedBy: null,
        providerRef: null,
        createdAt: yield* DateTime.now,
        resolvedAt: null,
        version: 1
      }
      yield* claims.insert(claim)
      yield* funds.entry(p, "claim.opened", claim.id, taken.transfers)
      yield* events.emit(paymentEvent(p, "claim.opened", claimView(claim)))
      yield* jobs.enqueue(JobKinds.resolveRefund, { claimId: claim.id }, { dedupeKey: `${JobKinds.resolveRefund}:${claim.id}` })
      return claim
    })).pipe(
      retryOnConflict(`refund of ${transactionId}`, 50)
    )

  const refund = Effect.fn("Claims.refund")(function*(scope: Pick<ShopScope, "environment" | "shop">, transactionId: string, input: RefundInput) {
    return yield* open(scope, transactionId, input)
  })

  /** The provider's answer to a refund: approved (the money leaves) or rejected (it returns). */
  const resolve = (claimId: string, outcome: { readonly approved: boolean; readonly resolution: string; readonly providerRef: string | null }) =>
    tx.run(Effect.gen(function*() {
      const found = yield* claims.findById(claimId)
      if (Option.isNone(found)) return
      const claim = found.value
      const step = transitionClaim(claim.kind, claim.status, outcome.approved ? "approve" : "reject")
      if (Result.isFailure(step) || step.success._tag !== "Moved") return
      const p = Option.getOrThrow(yield* payments.findById(claim.transactionId))
      const owed = outcome.approved ? Money.zero : yield* funds.lockOwed(p)
      const resolved: Claim = {
        ...claim,
        status: step.success.to,
        resolution: outcome.resolution,
        resolvedBy: "provider",
        providerRef: outcome.providerRef,
        resolvedAt: yield* DateTime.now,
        version: claim.version + 1
      }
      if (!(yield* claims.update(resolved))) return yield* new Conflict()
      yield* funds.entry(p, outcome.approved ? "refund.completed" : "claim.rejected", claim.id, outcome.approved
        ? funds.payOut(claim.amountUsd)
        : funds.unfreeze(claim.amountUsd, owed))
      let payment = p
      if (outcome.approved) {
        const approved = (yield* claims.forPayment(p.id)).filter((c) => c.kind === "user_dispute" && c.status === "approved")
        if (BigDecimal.equals(sum(approved.map((c) => c.amount)), p.amountLocal)) {
          const moved = transition(p.status, "refunded_in_full")
          if (Result.isSuccess(moved) && moved.success._tag === "Moved") payment = yield* funds.bump(p, {}, "refunded_in_full")
        }
        yield* events.emit(paymentEvent(p, "payment.refunded", { ...readView(payment), refund: refundView(resolved) }))
      }
      yield* events.emit(paymentEvent(p, "claim.resolved", claimView(resolved)))
    })).pipe(Effect.retry({ while: (e) => e._tag === "Conflict", times: 20 }), Effect.orDie)

  /**
   * The provider holds the refund but has not paid it back: the claim stays open with the
   * provider's reference, and the next question is enqueued in the same transaction.
   */
  const awaitProvider = (claimId: string, providerRef: string, poll: number) =>
    tx.run(Effect.gen(function*() {
      const claim = Option.getOrThrow(yield* claims.findById(claimId))
      if (claim.status !== "open") return
      if (claim.providerRef !== providerRef && !(yield* claims.update({ ...claim, providerRef, version: claim.version + 1 }))) {
        return yield* new Conflict()
      }
      if (poll >= refundPollLimit) {
        return yield* Effect.logError(`refund ${claimId}: still pending at ${providerRef} after ${poll} questions; settle it from the provider's report`)
      }
      const delay = refundPollDelays[poll] ?? refundPollEvery
      yield* jobs.enqueue(JobKinds.resolveRefund, { claimId, poll: poll + 1 }, {
        runAt: DateTime.addDuration(yield* DateTime.now, delay),
        dedupeKey: `${JobKinds.resolveRefund}:${claimId}:${poll + 1}`
      })
    })).pipe(Effect.retry({ while: (e) => e._tag === "Conflict", times: 20 }), Effect.orDie)

  /**
   * The provider's word on a refund it reported by itself (a notification, a status read):
   * settles or fails the open refund of the payment that has that provider reference. A refund
   * the engine has not been answered about yet is left to its own job.
   */
  const fromProvider = Effect.fnUntraced(function*(transactionId: string, outcome: RefundOutcome) {
    if (outcome.status === "pending") return
    const claim = (yield* claims.forPayment(transactionId)).find((c) =>
      c.kind === "user_dispute" && c.status === "open" && c.providerRef === outcome.providerRef
    )
    if (claim === undefined) return
    const provider = Option.getOrThrow(yield* payments.findById(transactionId)).provider
    yield* resolve(claim.id, outcome.status === "succeeded"
      ? { approved: true, resolution: "refunded", providerRef: outcome.providerRef }
      : {
        approved: false,
        resolution: `rejected by ${provider} after it accepted the refund${outcome.detail === undefined ? "" : `: ${outcome.detail}`}`,
        providerRef: outcome.providerRef
      })
  })

  yield* jobs.handle(JobKinds.resolveRefund, Effect.fnUntraced(function*(payload: unknown) {
    const { claimId, poll = 0 } = yield* Schema.decodeUnknownEffect(RefundJobPayload)(payload)
    const claim = Option.getOrThrow(yield* claims.findById(claimId))
    if (claim.status !== "open") return
    const p = Option.getOrThrow(yield* payments.findById(claim.transactionId))
    const provider = yield* registry.get(p.provider)
    if (Option.isNone(provider)) {
      return yield* resolve(claimId, { approved: false, resolution: `the payment's receiver (${p.provider}) cannot refund`, providerRef: null })
    }
    // What the engine holds of the payment's other refunds: a connector whose provider keeps
    // nothing of ours on a refund tells its own refund from them (the port's RefundRequest).
    const others = (yield* claims.forPayment(p.id)).filter((c) => c.kind === "user_dispute" && c.id !== claim.id)
    const openedBefore = (c: Claim) => {
      const [a, b] = [DateTime.toEpochMillis(c.createdAt), DateTime.toEpochMillis(claim.createdAt)]
      return a < b || (a === b && c.id < claim.id)
    }
    const result = yield* provider.value.refund({
      callbackUrl: callbackUrlOf(config, provider.value.id),
      providerRefundRef: claim.providerRef ?? undefined,
      knownRefunds: others.flatMap((c) => c.providerRef === null ? [] : [c.providerRef]),
      refundsAhead: others.filter((c) => c.status === "open" && c.providerRef === null && openedBefore(c)).length,
      transactionId: p.id,
      providerRef: p.providerRef,
      refundId: claim.id,
      idempotencyKey: claim.id,
      amount: claim.amount,
      currency: claim.currency
    }).pipe(Effect.result)
    if (Result.isSuccess(result)) {
      const { detail, providerRef, status } = result.success
      switch (status) {
        case "succeeded":
          return yield* resolve(claimId, { approved: true, resolution: "refunded", providerRef })
        case "failed":
          return yield* resolve(claimId, {
            approved: false,
            resolution: `rejected by ${p.provider} after it accepted the refund${detail === undefined ? "" : `: ${detail}`}`,
            providerRef
          })
        case "pending":
          return yield* awaitProvider(claimId, providerRef, poll)
      }
    }
    // A refusal resolves the claim; anything else makes the job ask again with backoff, under the
    // same key: an unknown outcome may be a refund made, and a failure or a refused configuration
    // may pass later (a refund is only ever asked of the payment's own provider).
    const failure = result.failure
    switch (failure.reason._tag) {
      case "Declined":
        return yield* resolve(claimId, { approved: false, resolution: `refused by ${p.provider}: ${failure.code}`, providerRef: null })
      case "Failed":
      case "OutcomeUnknown":
      case "Misconfigured":
        return yield* Effect.fail(failure.message)
      default:
        return absurd<never>(failure.reason)
    }
  }))

  return { refund, fromProvider }
})
