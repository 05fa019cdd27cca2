/**
 * The payment state machine, pure: `(status, event) -> next status | InvalidTransition`.
 *
 * | from      | event               | to         |
 * |-----------|---------------------|------------|
 * | initiated | routed              | pending    |
 * | initiated | failed              | failed     |
 * | pending   | confirmed           | completed  |
 * | pending   | failed              | failed     |
 * | pending   | expired             | expired    |
 * | pending   | authorized          | authorized |
 * | authorized| captured            | completed  |
 * | authorized| voided              | voided     |
 * | authorized| expired             | expired    |
 * | completed | refunded_in_full    | refunded   |
 * | completed | chargeback_opened   | chargeback |
 *
 * `authorized` is a card charge made with `capture: false`: the provider holds the authorization
 * and nothing reaches the balance until it is captured (`core/payments/Capture.ts`), voided, or
 * lapses at its `authorizationExpiresAt` (the expiry job).
 *
 * `initiated` is the write-ahead state: the record is committed before the first provider is
 * called, and leaves it when a provider accepted (or the cascade gave up). The API shows it as
 * `pending` (`publicStatus`).
 *
 * Every other pair is refused. A repeated event that names the state already reached
 * (a callback and the reconcile poll both confirming) is `Unchanged`, so handlers are idempotent.
 *
 * `advance` is the one way a payment record's next version is made: every writer of a payment
 * (creation's routing, the life cycle, settlement, claims) goes through it, so a status moves
 * only by an event of this table and every write bumps the version the store checks.
 */
import { Data, type DateTime, Result, Schema } from "effect"
import type { Payment } from "./Payment.ts"
import { PaymentRecordStatus } from "./PaymentStatus.ts"

// The statuses are their own file so that the payment record (which carries one) does not import
// the machine that advances it.
export { PaymentRecordStatus, PaymentStatus, publicStatus } from "./PaymentStatus.ts"

export type PaymentEvent =
  | "routed"
  | "confirmed"
  | "failed"
  | "expired"
  | "refunded_in_full"
  | "chargeback_opened"
  | "authorized"
  | "captured"
  | "voided"

export const paymentEvents: ReadonlyArray<PaymentEvent> = [
  "routed",
  "confirmed",
  "failed",
  "expired",
  "refunded_in_full",
  "chargeback_opened",
  "authorized",
  "captured",
  "voided"
]

const table: Readonly<Record<PaymentRecordStatus, Partial<Record<PaymentEvent, PaymentRecordStatus>>>> = {
  initiated: { routed: "pending", failed: "failed" },
  pending: { confirmed: "completed", failed: "failed", expired: "expired", authorized: "authorized" },
  authorized: { captured: "completed", voided: "voided", expired: "expired" },
  completed: { refunded_in_full: "refunded", chargeback_opened: "chargeback" },
  failed: {},
  expired: {},
  refunded: {},
  chargeback: {},
  voided: {}
}

/** The status an event leads to from anywhere (used to recognise repeats). */
const targetOf: Readonly<Record<PaymentEvent, PaymentRecordStatus>> = {
  routed: "pending",
  confirmed: "completed",
  failed: "failed",
  expired: "expired",
  refunded_in_full: "refunded",
  chargeback_opened: "chargeback",
  authorized: "authorized",
  captured: "completed",
  voided: "voided"
}

export class InvalidTransition extends Schema.TaggedError<InvalidTransition>()("InvalidTransition", {
  from: PaymentRecordStatus,
  event: Schema.String
}) {}

export type Transition = Data.TaggedEnum<{
  Moved: { readonly from: PaymentRecordStatus; readonly to: PaymentRecordStatus }
  Unchanged: { readonly status: PaymentRecordStatus }
}>
export const Transition = Data.taggedEnum<Transition>()

export const transition = (from: PaymentRecordStatus, event: PaymentEvent): Result.Result<Transition, InvalidTransition> => {
  const to = table[from][event]
  if (to !== undefined) return Result.succeed(Transition.Moved({ from, to }))
  if (targetOf[event] === from) return Result.succeed(Transition.Unchanged({ status: from }))
  return Result.fail(new InvalidTransition({ from, event }))
}

export const isFinal = (status: PaymentRecordStatus): boolean => Object.keys(table[status]).length === 0

/** What a writer may change on a payment beside its status (which only an event moves). */
export type PaymentChanges = Partial<Omit<Payment, "id" | "status" | "version" | "updatedAt" | "createdAt" | "environment" | "merchantId" | "shopId">>

/**
 * The next version of `p` at `at`: `event` (when given) moves its status through the table, the
 * changes are applied, `updatedAt` is `at` and the version goes up by one (the store writes it only
 * over the version it replaces). A refused event is `InvalidTransition`; a repeated one leaves the
 * status as it is. A payment that is no longer pending keeps no `nextAction`.
 */
export const advance = (
  p: Payment,
  at: DateTime.Utc,
  changes: PaymentChanges,
  event?: PaymentEvent
): Result.Result<Payment, InvalidTransition> => {
  const step = event === undefined ? Result.succeed(Transition.Unchanged({ status: p.status })) : transition(p.status, event)
  return Result.map(step, (moved) => {
    const status = moved._tag === "Moved" ? moved.to : p.status
    const next = { ...p, ...changes, status, updatedAt: at, version: p.version + 1 }
    // What the buyer had to do (a 3-D Secure challenge) is over once the payment is no longer pending.
    return status === "pending" || next.nextAction === null ? next : { ...next, nextAction: null }
  })
}
