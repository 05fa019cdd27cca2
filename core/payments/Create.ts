/**
 * Creating a payment, exactly once (docs/architecture.md, "Exactly-once with upstreams"): checks and pricing,
 * then (1) one transaction writes the record `initiated` with its first attempt in flight and
 * binds the client's `Idempotency-Key` to it; (2) the routing cascade calls each provider with
 * the key `<transactionId>:<providerId>`, writing each attempt ahead; (3) one transaction applies
 * the answer (pending with its timers, or failed). A retry of the key, or the recovery job,
 * continues an interrupted record with the same keys (`resume`).
 *
 * The cascade moves to the next provider only after an answer that left nothing behind. A
 * provider that gave no answer about the charge (a timeout) may hold it: the record stays
 * `initiated` with that attempt `unknown`, the request answers 503 `provider_outcome_unknown`
 * with its key kept, and only that provider is asked again, with the same key, until it says
 * accepted or declined (or the payment expires: `abandon`).
 *
 * The steps are functions of their own, each taking the services it names: before anything is
 * written in `CreateRequest.ts` (`checkInput`, `price`, `chooseProviders`, `newRecord`), from the
 * write-ahead on in `CreateRoute.ts` (`writeAhead`, `route`, `accept`, `giveUp`, `outcome`).
 */
import { type BigDecimal, Effect, Option, Redacted } from "effect"
import { authorizeOnlyProviders, checkCaptureRail, withAuthorization } from "./CaptureCreate.ts"
import { checkCard, paymentCardOf } from "./CreateCard.ts"
import { checkInstallments } from "./Installments.ts"
import { quoteInstallments } from "./InstallmentsQuote.ts"
import { Executed, type KeyHandle } from "../idempotency/Idempotency.ts"
import * as Metrics from "../Metrics.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import type { CreatePayment, PaymentKey, Routed } from "./CreateInput.ts"
import { checkInput, chooseProviders, newRecord, price } from "./CreateRequest.ts"
import { abandon, continueRecord, drive, resume, writeAhead } from "./CreateRoute.ts"
import { type CreateServices, makeCreateServices } from "./CreateServices.ts"
import type { Lifecycle } from "./Lifecycle.ts"
import type { Payment } from "./Payment.ts"
import { type CreatedView, createView } from "./PaymentView.ts"
import type { Forwarded } from "./Upstream.ts"

export type { CreatePayment, PaymentKey, RouteCode, Routed } from "./CreateInput.ts"
export { recoverAfter } from "./CreateRoute.ts"

/** The buyer's data the request forwards to the provider and never stores. */
const forwardedOf = (input: CreatePayment, securityCodeHeld?: boolean): Forwarded => ({
  documentId: input.documentId,
  address: input.userAddress,
  ...(securityCodeHeld === undefined ? {} : { securityCodeHeld })
})

/**
 * Creates a payment, or continues the one `input.id` names (a retry of its key, a checkout's
 * reserved id); answers it with the view its last write stored for the key, when it did.
 */
export const createPayment = Effect.fn("Payments.create")(function*(s: CreateServices, scope: ShopScope, input: CreatePayment, key?: PaymentKey) {
  if (input.id !== undefined) {
    const existing = yield* s.store.find(scope.environment, scope.shop.id, input.id)
    if (Option.isSome(existing)) return yield* continueRecord(s, existing.value, forwardedOf(input), key)
  }
  const checked = yield* checkInput(s, scope, input)
  yield* checkCaptureRail(input.capture, checked.method)
  const card = yield* checkCard(s.vault, scope, input.card, checked.method)
  const priced = yield* price(s, scope, input, checked.method)
  const installments = yield* checkInstallments(input.installments, checked.method, priced.toLocal.converted, priced.localCurrency)
  const chosen = yield* authorizeOnlyProviders(
    input.capture,
    checked.method,
    yield* chooseProviders(s, scope, input, checked, priced, card, installments?.count)
  )
  const record = withAuthorization(input.capture, yield* newRecord(s, scope, input, checked, priced, chosen))
  const payment = {
    ...record,
    ...(card === undefined ? {} : { card: paymentCardOf(card, Redacted.make(card.holderName)) }),
    ...(installments === undefined ? {} : { installments })
  }
  yield* writeAhead(s, payment, key?.handle)
  yield* Metrics.count(Metrics.paymentsCreated, { rail: payment.paymentMethodId, country: payment.country })
  return yield* drive(s, payment, checked.method, chosen.providers, forwardedOf(input, card?.securityCodeHeld), key)
})

/** What a request answering the create view answers: the view the key stored, or the record's view now. */
const answerOf = (s: Pick<CreateServices, "config">, done: Routed): Executed<CreatedView> =>
  new Executed(done.stored?.view ?? createView(done.payment, s.config), done.stored?.completion)

export const makeCreate = Effect.fnUntraced(function*(lifecycle: Lifecycle) {
  const s = yield* makeCreateServices(lifecycle)
  return {
    create: (scope: ShopScope, input: CreatePayment, key?: PaymentKey) => createPayment(s, scope, input, key),
    /** A create whose request answers with the payment's create view, its key (if any) storing that view. */
    createAnswering: (scope: ShopScope, input: CreatePayment, key: KeyHandle | undefined) =>
      Effect.map(createPayment(s, scope, input, key === undefined ? undefined : { handle: key, answersView: true }), (done) => answerOf(s, done)),
    headline: s.checks.headline,
    quoteInstallments: (scope: ShopScope, paymentMethodId: string, amount: BigDecimal.BigDecimal) => quoteInstallments(s, scope, paymentMethodId, amount),
    resume: (p: Payment, forwarded?: Forwarded) => resume(s, p, forwarded),
    abandon: (p: Payment) => abandon(s, p)
  }
})
