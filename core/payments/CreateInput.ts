/**
 * What creating a payment takes (`CreatePayment`, the client's key `PaymentKey`), what it answers
 * (`Routed`), and how routing a record can end without a payment to answer (`RouteCode`); the
 * operation is `Create.ts`, its steps `CreateRequest.ts` and `CreateRoute.ts`.
 */
import type { BigDecimal, Redacted } from "effect"
import type { KeyHandle } from "../idempotency/Idempotency.ts"
import type { KeyCompletion } from "../ports/IdempotencyStore.ts"
import type { BuyerAddress, SandboxSimulate } from "../ports/PaymentProvider.ts"
import type { BuyerText } from "./BuyerData.ts"
import type { InstallmentInterest } from "./Installments.ts"
import type { Payment } from "./Payment.ts"
import type { CreatedView } from "./PaymentView.ts"

export interface CreatePayment {
  /** The transaction id to use (hosted checkout reserves it before charging); new when absent. */
  readonly id?: string | undefined
  readonly amount: BigDecimal.BigDecimal
  readonly currency?: string | undefined
  readonly paymentMethodId?: string | undefined
  readonly paymentMethod?: string | undefined
  readonly country?: string | undefined
  /** Buyer data is `Redacted` from the API's decoding to the provider's wire (`BuyerData.ts`). */
  readonly userName?: BuyerText | undefined
  readonly userEmail?: BuyerText | undefined
  readonly documentId?: BuyerText | undefined
  readonly userPhone?: BuyerText | undefined
  readonly userIp?: string | undefined
  /** Forwarded to the provider, never stored (like `documentId`). */
  readonly userAddress?: Redacted.Redacted<BuyerAddress> | undefined
  readonly merchantOrderId?: string | undefined
  readonly tag1?: string | undefined
  readonly tag2?: string | undefined
  readonly tag3?: string | undefined
  readonly hostedCheckout?: boolean | undefined
  readonly returnUrl?: string | undefined
  readonly simulate?: SandboxSimulate | undefined
  /** A card rail's card: a token the card vault gave this merchant (`CreateCard.ts`). */
  readonly card?: { readonly token: string } | undefined
  /** Card rails: `false` authorizes only; the merchant captures or voids later (`CaptureCreate.ts`, `Capture.ts`). */
  readonly capture?: boolean | undefined
  /** Card rails: pay in `count` instalments; `interest` defaults to `merchant` (`Installments.ts`). */
  readonly installments?: { readonly count: number; readonly interest?: InstallmentInterest | undefined } | undefined
}

/**
 * The client's `Idempotency-Key` of a create: bound to the record in its write-ahead (`handle`).
 * With `answersView`, the request answers with the payment's create view (`CreatedView`), and a
 * payment that ends its routing pending stores that view as the key's response in its last write
 * (`PaymentStore.updateCompletingKey`, one statement on SQL) instead of a write of its own after
 * the request; without it, the caller's run stores its own answer.
 */
export interface PaymentKey {
  readonly handle: KeyHandle
  readonly answersView: boolean
}

/** The create view a record's last write stored as its key's response, with that response. */
export interface StoredView {
  readonly view: CreatedView
  readonly completion: KeyCompletion
}

/** A record a create (or its continuation) answers for, with the view its last write stored for the key, if it did. */
export interface Routed {
  readonly payment: Payment
  readonly stored: StoredView | undefined
}

/** How routing a record can end without a payment to answer: no provider took it, or no answer yet. */
export type RouteCode = "cascade_exhausted" | "provider_outcome_unknown"
