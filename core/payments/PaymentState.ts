/**
 * The payment state machine, pure: `(status, event) -> next status | InvalidTransition`.
 *
 * | from      | event               | to         |
 * |-----------|---------------------|------------|
 * | pending   | confirmed           | completed  |
 * | pending   | failed              | failed     |
 * | pending   | expired             | expired    |
 * | completed | refunded_in_full    | refunded   |
 * | completed | chargeback_opened   | chargeback |
 *
 * Every other pair is refused. A repeated event that names the state already reached
 * (a callback and the reconcile poll both confirming) is `Unchanged`, so handlers are idempotent.
 */
import { Data, Result, Schema } from "effect"

export const PaymentStatus = Schema.Literals(["pending", "completed", "failed", "refunded", "expired", "chargeback"])
export type PaymentStatus = typeof PaymentStatus.Type

export type PaymentEvent = "confirmed" | "failed" | "expired" | "refunded_in_full" | "chargeback_opened"

export const paymentEvents: ReadonlyArray<PaymentEvent> = ["confirmed", "failed", "expired", "refunded_in_full", "chargeback_opened"]

const table: Readonly<Record<PaymentStatus, Partial<Record<PaymentEvent, PaymentStatus>>>> = {
  pending: { confirmed: "completed", failed: "failed", expired: "expired" },
  completed: { refunded_in_full: "refunded", chargeback_opened: "chargeback" },
  failed: {},
  expired: {},
  refunded: {},
  chargeback: {}
}

/** The status an event leads to from anywhere (used to recognise repeats). */
const targetOf: Readonly<Record<PaymentEvent, PaymentStatus>> = {
  confirmed: "completed",
  failed: "failed",
  expired: "expired",
  refunded_in_full: "refunded",
  chargeback_opened: "chargeback"
}

export class InvalidTransition extends Schema.TaggedError<InvalidTransition>()("InvalidTransition", {
  from: PaymentStatus,
  event: Schema.String
}) {}

export type Transition = Data.TaggedEnum<{
  Moved: { readonly from: PaymentStatus; readonly to: PaymentStatus }
  Unchanged: { readonly status: PaymentStatus }
}>
export const Transition = Data.taggedEnum<Transition>()

export const transition = (from: PaymentStatus, event: PaymentEvent): Result.Result<Transition, InvalidTransition> => {
  const to = table[from][event]
  if (to !== undefined) return Result.succeed(Transition.Moved({ from, to }))
  if (targetOf[event] === from) return Result.succeed(Transition.Unchanged({ status: from }))
  return Result.fail(new InvalidTransition({ from, event }))
}

export const isFinal = (status: PaymentStatus): boolean => Object.keys(table[status]).length === 0
