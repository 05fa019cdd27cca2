/** A hosted-checkout session and its pure state machine. */
import { Effect, Result, Schema } from "effect"
import { Environment } from "../Environment.ts"
import { BuyerAddress, SandboxSimulate } from "../ports/PaymentProvider.ts"

/**
 * | from             | event             | to        |
 * |------------------|-------------------|-----------|
 * | awaiting_method  | method_selected   | completed |
 * | awaiting_details | details_completed | completed |
 *
 * A one-shot session whose buyer data was complete is created `pending` (its transaction exists)
 * and has no further moves; every other pair is refused. Expiry (24 hours) is not a state: an
 * expired token answers like an unknown one.
 */
/** The hosted checkout's trip to the card vault's page and back (`CheckoutCard.ts`). */
export const CardStep = Schema.Struct({
  /** Lowercase hex SHA-256 of the state the vault's return carries; the state itself is never stored. */
  stateHash: Schema.String,
  /** The card rail the buyer picked. */
  paymentMethodId: Schema.String,
  /** The instalment count the buyer chose before the card page; absent for one payment. */
  installments: Schema.optionalKey(Schema.Int),
  expiresAt: Schema.DateTimeUtc
})
export type CardStep = typeof CardStep.Type

export const SessionStatus = Schema.Literals(["awaiting_method", "awaiting_details", "pending", "completed"])
export type SessionStatus = typeof SessionStatus.Type

export type SessionEvent = "method_selected" | "details_completed"
export const sessionEvents: ReadonlyArray<SessionEvent> = ["method_selected", "details_completed"]

const table: Readonly<Record<SessionStatus, Partial<Record<SessionEvent, SessionStatus>>>> = {
  awaiting_method: { method_selected: "completed" },
  awaiting_details: { details_completed: "completed" },
  pending: {},
  completed: {}
}

export class SessionTransitionRefused extends Schema.TaggedError<SessionTransitionRefused>()("SessionTransitionRefused", {
  from: SessionStatus,
  event: Schema.String
}) {}

export const transitionSession = (from: SessionStatus, event: SessionEvent): Result.Result<SessionStatus, SessionTransitionRefused> => {
  const to = table[from][event]
  return to === undefined ? Result.fail(new SessionTransitionRefused({ from, event })) : Result.succeed(to)
}

export const Customer = Schema.Struct({
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  documentId: Schema.NullOr(Schema.String),
  /** Held, like the documentId, only until the transaction is created. Sessions written before it decode as null. */
  address: Schema.NullOr(BuyerAddress).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(null)))
})
export type Customer = typeof Customer.Type

export const CheckoutSession = Schema.Struct({
  /** `cs_...`; in one-shot mode with complete data, the transaction id. */
  id: Schema.String,
  /**
   * Lowercase hex SHA-256 of the public, unguessable token of the buyer's URL (24 random bytes):
   * the session is found by it, and the token itself is never stored.
   */
  token: Schema.String,
  environment: Environment,
  merchantId: Schema.String,
  shopId: Schema.String,
  mode: Schema.Literals(["selector", "one_shot"]),
  status: SessionStatus,
  amount: Schema.BigDecimal,
  currency: Schema.String,
  /** ISO-3, or null: the grid lists every method of the shop. */
  country: Schema.NullOr(Schema.String),
  /** One-shot mode: the method chosen by the merchant. */
  paymentMethodId: Schema.NullOr(Schema.String),
  /**
   * Buyer data known so far. The documentId and the address are held only until the transaction
   * is created and then cleared: they are forwarded to the provider, never kept.
   */
  customer: Customer,
  customerIp: Schema.NullOr(Schema.String),
  returnUrl: Schema.NullOr(Schema.String),
  merchantOrderId: Schema.NullOr(Schema.String),
  simulate: Schema.NullOr(SandboxSimulate),
  completedTxId: Schema.NullOr(Schema.String),
  /** The buyer's pending trip to the card vault's page (`CheckoutCard.ts`); sessions written before it decode as null. */
  cardStep: Schema.NullOr(CardStep).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(null))),
  expiresAt: Schema.DateTimeUtc,
  createdAt: Schema.DateTimeUtc,
  version: Schema.Int
})
export type CheckoutSession = typeof CheckoutSession.Type

export const CheckoutSessionJson = Schema.toCodecJson(CheckoutSession)
