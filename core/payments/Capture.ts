/**
 * Capturing and voiding an authorization (a card payment made with `capture: false`), exactly
 * once like every upstream call (docs/architecture.md, "Exactly-once with upstreams"):
 *
 * 1. one transaction writes the operation ahead on the payment (`authorization.operation`,
 *    `in_flight`, with the idempotency key the provider will see: `<id>:<kind>:<version>`) and
 *    binds the client's `Idempotency-Key` to the payment;
 * 2. the provider is called with that key, outside any transaction;
 * 3. one transaction applies the answer: a capture moves the payment `authorized -> completed`
 *    and books the completion's entry for what was captured (`Lifecycle.booked`, the entry a
 *    normal completion books: `Postings.completion`); a void moves it to `voided` and books
 *    nothing (`payment.voided`).
 *
 * A partial capture releases the rest: the payment's `amountLocal` and USD `amount` become what
 * was captured (the USD pro rata, rounded down: what the merchant receives), its fees and reserve
 * are priced again on it, and the authorization keeps what was authorized. A refusal
 * (`Declined`) or a failure that left nothing upstream leaves the payment `authorized` (422
 * `capture_declined`, 503 `capture_failed`). No answer (`OutcomeUnknown`, or a provider's
 * `pending`) leaves the operation `unknown` and the key bound to the payment (503
 * `provider_outcome_unknown`): a retry with the same key asks the same provider again with the
 * same upstream key, never a new operation.
 *
 * An authorization not captured by its `expiresAt` lapses: the job `payment.authorization_expire`
 * (enqueued when the provider authorized) makes it `expired`, unless a capture or void is still
 * unanswered (then it is left for that operation's retry, and logged).
 */
import { BigDecimal, DateTime, Effect, Option, Result, Schema } from "effect"
import { type ApiErrorOf, apiError, invalidRequest, notFound } from "../ApiError.ts"
import { Catalog } from "../catalog/Catalog.ts"
import { ShopClocks } from "../clock/ShopClocks.ts"
import type { KeyHandle } from "../idempotency/Idempotency.ts"
import { Jobs } from "../jobs/Jobs.ts"
import * as Money from "../Money.ts"
import type { KeyTaken } from "../ports/IdempotencyStore.ts"
import type { CaptureOutcome, PaymentProvider, ProviderError } from "../ports/PaymentProvider.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { ProviderRegistry } from "../ports/ProviderRegistry.ts"
import { Conflict, retryOnConflict, Transactions } from "../ports/Transactions.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { limitError } from "./Checks.ts"
import { JobKinds, type Lifecycle } from "./Lifecycle.ts"
import type { AuthorizationOperation, Payment, PaymentAuthorization } from "./Payment.ts"
import { advance, type PaymentChanges, type PaymentEvent } from "./PaymentState.ts"
import * as Pricing from "./Pricing.ts"

/** What a capture or a void can fail with (documented for `POST /payments/{id}/capture` and `/void`). */
export type SettleCode =
  | "not_found"
  | "invalid_request"
  | "payment_not_authorized"
  | "capture_amount_exceeds_authorized"
  | "amount_out_of_limits"
  | "capture_declined"
  | "capture_failed"
  | "provider_outcome_unknown"

/** What a void can fail with: a capture's, less its amount's. */
export type VoidCode = Exclude<SettleCode, "capture_amount_exceeds_authorized" | "amount_out_of_limits">

export type OperationKind = AuthorizationOperation["kind"]

/** An operation the provider has not answered: it may have been done, so it is continued, never started again. */
const isOpen = (op: AuthorizationOperation | null): op is AuthorizationOperation => op !== null && (op.outcome === "in_flight" || op.outcome === "unknown")

const PaymentJobPayload = Schema.Struct({ paymentId: Schema.String })

export const makeCapture = Effect.fnUntraced(function*(lifecycle: Lifecycle) {
  const store = yield* PaymentStore
  const registry = yield* ProviderRegistry
  const catalog = yield* Catalog
  const tx = yield* Transactions
  const jobs = yield* Jobs
  const clocks = yield* ShopClocks

  const save = (next: Payment) => Effect.flatMap(store.update(next), (written) => written ? Effect.void : Effect.fail(new Conflict()))
  const nextOf = (p: Payment, changes: PaymentChanges, event?: PaymentEvent) =>
    Effect.flatMap(DateTime.now, (at) => Effect.map(Effect.orDie(Effect.fromResult(advance(p, at, changes, event))), (next) => ({ next, at })))
  const withOperation = (a: PaymentAuthorization, operation: AuthorizationOperation): PaymentAuthorization => ({ ...a, operation })

  /** What is captured, checked against what was authorized. */
  const captureAmount = (p: Payment, a: PaymentAuthorization, requested: BigDecimal.BigDecimal | undefined) => {
    const amount = requested ?? a.amountLocal
    if (!BigDecimal.isPositive(amount) || !Money.fitsExponent(amount, p.currencyLocal)) {
      return Effect.fail(invalidRequest(`amount must be a positive ${p.currencyLocal} amount`, [{
        path: "amount",
        message: `Expected a number greater than 0 with at most ${Money.exponent(p.currencyLocal)} decimals`
      }]))
    }
    if (BigDecimal.isGreaterThan(amount, a.amountLocal)) {
      return Effect.fail(apiError("capture_amount_exceeds_authorized", `Only ${Money.toText(a.amountLocal)} ${p.currencyLocal} were authorized`, {
        requested: Money.toJsonNumber(amount),
        authorized: Money.toJsonNumber(a.amountLocal),
        currency: p.currencyLocal
      }))
    }
    return Effect.succeed(amount)
  }

  /**
   * The payment as a partial capture of `amountLocal` leaves it: its amounts what was captured,
   * its fees and reserve priced on that (the merchant's tier of `scope`).
   */
  const capturedChanges = (scope: Pick<ShopScope, "merchant">, p: Payment, a: PaymentAuthorization, amountLocal: BigDecimal.BigDecimal) =>
    Effect.gen(function*() {
      if (BigDecimal.equals(amountLocal, a.amountLocal)) return { amountLocal: a.amountLocal, amount: a.amountUsd } satisfies PaymentChanges
      const method = catalog.find(p.environment, p.paymentMethodId)
      if (method === undefined) return yield* Effect.die(new Error(`payment ${p.id}: rail ${p.paymentMethodId} is gone from the catalog`))
      const usd = Money.roundFor(BigDecimal.divideUnsafe(BigDecimal.multiply(a.amountUsd, amountLocal), a.amountLocal), "USD", "receives")
      const fees = Pricing.fees(usd, method, scope.merchant.tier)
      const settlement = Pricing.settlement(usd, method, scope.merchant.tier)
      if (!BigDecimal.isPositive(Pricing.net(usd, fees, settlement))) {
        return yield* limitError(`${Money.toText(usd)} USD does not cover the fees of ${Money.toText(fees.total)} USD`, {
          amountUsd: Money.toJsonNumber(usd),
          feesUsd: Money.toJsonNumber(fees.total)
        })
      }
      return { amountLocal, amount: usd, fees, settlement } satisfies PaymentChanges
    })

  /**
   * Step 1: the operation written ahead with its upstream key, the client's key bound to the
   * payment in the same transaction; or the open operation a retry continues.
   */
  const writeAhead = (
    scope: Pick<ShopScope, "environment" | "shop" | "merchant">,
    id: string,
    kind: OperationKind,
    requested: BigDecimal.BigDecimal | undefined,
    key: KeyHandle | undefined
  ) =>
    tx.run(Effect.gen(function*() {
      const found = yield* store.find(scope.environment, scope.shop.id, id)
      if (Option.isNone(found)) return yield* notFound("payment", id)
      const p = found.value
      const a = p.authorization
      const op = a?.operation ?? null
      // Already done by this very key (a crash between the answer and the key's stored result).
      if (key?.resume === p.id && op?.kind === kind && op.outcome === "succeeded") return { p, op, done: true }
      if (p.status !== "authorized" || a === undefined) {
        return yield* apiError("payment_not_authorized", `A ${p.status === "initiated" ? "pending" : p.status} payment cannot be ${kind === "capture" ? "captured" : "voided"}`, {
          status: p.status === "initiated" ? "pending" : p.status
        })
      }
      if (isOpen(op)) {
        // Only the same operation is continued; another one waits for its answer.
        if (op.kind !== kind) {
          return yield* apiError("payment_not_authorized", `A ${op.kind} of this payment is still waiting for the provider's answer`, {
            status: p.status,
            operation: op.kind
          })
        }
        if (key !== undefined && key.resume !== p.id) yield* key.bind(p.id)
        return { p, op, done: false }
      }
      const amountLocal = kind === "capture" ? yield* captureAmount(p, a, requested) : a.amountLocal
      if (kind === "capture") yield* capturedChanges(scope, p, a, amountLocal)
      const at = yield* DateTime.now
      const written: AuthorizationOperation = {
        kind,
        amountLocal,
        idempotencyKey: `${p.id}:${kind}:${p.version}`,
        outcome: "in_flight",
        reason: null,
        at
      }
      const { next } = yield* nextOf(p, { authorization: withOperation(a, written) })
      yield* save(next)
      if (key !== undefined) yield* key.bind(p.id)
      return { p: next, op: written, done: false }
    })).pipe(retryOnConflict(`${kind} of ${id}`, 20))

  /** Step 2: the provider asked, with the operation's own key. */
  const ask = (provider: PaymentProvider, p: Payment, op: AuthorizationOperation): Effect.Effect<CaptureOutcome, ProviderError> | undefined => {
    const call = op.kind === "capture" ? provider.capture : provider.void
    if (call === undefined) return undefined
    return op.kind === "capture"
      ? provider.capture!({
        transactionId: p.id,
        providerRef: p.providerRef,
        idempotencyKey: op.idempotencyKey,
        amount: op.amountLocal,
        currency: p.currencyLocal,
        authorizedAmount: p.authorization!.amountLocal
      })
      : provider.void!({ transactionId: p.id, providerRef: p.providerRef, idempotencyKey: op.idempotencyKey, amount: op.amountLocal, currency: p.currencyLocal })
  }

  /** Step 3: the answer written, with its entry and events when it succeeded. */
  const apply = (scope: Pick<ShopScope, "merchant">, id: string, op: AuthorizationOperation, outcome: AuthorizationOperation["outcome"], reason: string | null) =>
    tx.run(Effect.gen(function*() {
      const p = Option.getOrThrow(yield* store.findById(id))
      const a = p.authorization
      // Only the operation written ahead is answered (another execution may have answered it).
      if (a === undefined || a.operation?.idempotencyKey !== op.idempotencyKey || !isOpen(a.operation)) return p
      const operation: AuthorizationOperation = { ...op, outcome, reason }
      if (outcome !== "succeeded") {
        const { next } = yield* nextOf(p, { authorization: withOperation(a, operation) })
        yield* save(next)
        return next
      }
      if (op.kind === "void") {
        const { next } = yield* nextOf(p, { authorization: withOperation(a, operation), settlement: { ...p.settlement, status: "none", reserve: Money.zero } }, "voided")
        yield* save(next)
        yield* lifecycle.emit(next, "payment.voided")
        return next
      }
      const changes = yield* capturedChanges(scope, p, a, op.amountLocal).pipe(Effect.orDie)
      const { at, next } = yield* nextOf(p, { ...changes, authorization: withOperation(a, operation), completedAt: null }, "captured")
      const completed = { ...next, completedAt: at }
      yield* save(completed)
      return yield* lifecycle.booked(completed, at)
    })).pipe(retryOnConflict(`${op.kind} of ${id}`, 20))

  /** A capture or a void, steps 1 to 3; answers the payment as it is after. */
  const settle = Effect.fnUntraced(function*(
    scope: Pick<ShopScope, "environment" | "shop" | "merchant">,
    id: string,
    kind: OperationKind,
    requested: BigDecimal.BigDecimal | undefined,
    key: KeyHandle | undefined
  ): Effect.fn.Return<Payment, ApiErrorOf<SettleCode> | KeyTaken> {
    const { done, op, p } = yield* writeAhead(scope, id, kind, requested, key)
    if (done) return p
    const provider = Option.getOrUndefined(yield* registry.get(p.provider))
    const asked = provider === undefined ? undefined : ask(provider, p, op)
    if (asked === undefined) {
      // The provider that holds the authorization can no longer be asked: nothing was sent.
      yield* apply(scope, id, op, "failed", `${p.provider} can no longer ${kind}`)
      return yield* apiError("capture_failed", `${p.provider} can no longer be asked to ${kind} this payment`, { operation: kind, providerCode: "provider_not_configured" })
    }
    const result = yield* Effect.result(asked)
    if (Result.isSuccess(result) && result.success.status === "succeeded") return yield* apply(scope, id, op, "succeeded", null)
    if (Result.isSuccess(result) || result.failure.reason._tag === "OutcomeUnknown") {
      const detail = Result.isSuccess(result) ? `${p.provider} has the ${kind} pending` : result.failure.code
      yield* apply(scope, id, op, "unknown", detail)
      return yield* apiError("provider_outcome_unknown",
        `${p.provider} gave no final answer about the ${kind}: retry with the same Idempotency-Key, which asks it again with the same key`,
        { transactionId: id, provider: p.provider, reason: detail })
    }
    const failure = result.failure
    if (failure.reason._tag === "Declined") {
      yield* apply(scope, id, op, "declined", failure.code)
      return yield* apiError("capture_declined", `${p.provider} refused the ${kind}: ${failure.code}`, { operation: kind, providerCode: failure.code })
    }
    yield* apply(scope, id, op, "failed", failure.code)
    return yield* apiError("capture_failed", `${p.provider} could not take the ${kind} now (${failure.code}): nothing was done there`, {
      operation: kind,
      providerCode: failure.code
    })
  })

  const onShopClock = <A, E>(scope: Pick<ShopScope, "environment" | "shop">, effect: Effect.Effect<A, E>) => clocks.within(scope.environment, scope.shop.id, effect)

  // An authorization still held at its expiry lapses; one whose capture or void is unanswered is
  // left to that operation (its retry settles it).
  yield* jobs.handle(JobKinds.authorizationExpire, (payload) =>
    Effect.flatMap(Schema.decodeUnknownEffect(PaymentJobPayload)(payload), ({ paymentId }) =>
      Effect.gen(function*() {
        const found = yield* store.findById(paymentId)
        if (Option.isNone(found) || found.value.status !== "authorized") return
        if (isOpen(found.value.authorization?.operation ?? null)) {
          return yield* Effect.logWarning(`payment ${paymentId}: authorization expired with a ${found.value.authorization!.operation!.kind} unanswered`)
        }
        yield* lifecycle.applyUpdate(paymentId, { providerRef: found.value.providerRef, status: "expired", detail: "authorization_expired" })
      })))

  return {
    capture: (scope: Pick<ShopScope, "environment" | "shop" | "merchant">, id: string, amount: BigDecimal.BigDecimal | undefined, key: KeyHandle | undefined) =>
      onShopClock(scope, settle(scope, id, "capture", amount, key)).pipe(Effect.withSpan("Payments.capture")),
    void: (scope: Pick<ShopScope, "environment" | "shop" | "merchant">, id: string, key: KeyHandle | undefined) =>
      // A void checks no amount (`captureAmount` and `capturedChanges` run for captures only).
      onShopClock(scope, settle(scope, id, "void", undefined, key) as Effect.Effect<Payment, ApiErrorOf<VoidCode> | KeyTaken>).pipe(
        Effect.withSpan("Payments.void")
      )
  }
})

export type Capture = Effect.Success<ReturnType<typeof makeCapture>>
