/** A payout and its pure state machine (spec 2.12, 3.4). */
import { type DateTime, Result, Schema } from "effect"
import { Environment } from "../Environment.ts"

/**
 * | from       | event                                   | to         |
 * |------------|-----------------------------------------|------------|
 * | processing | completed / paid                        | completed  |
 * | processing | failed / rejected / refunded / returned | failed     |
 * | processing | processing                              | processing (no-op) |
 *
 * Completed and failed are final: any further event is refused.
 */
export const PayoutStatus = Schema.Literals(["processing", "completed", "failed"])
export type PayoutStatus = typeof PayoutStatus.Type

export const PayoutAction = Schema.Literals(["completed", "paid", "failed", "rejected", "refunded", "returned", "processing"])
export type PayoutAction = typeof PayoutAction.Type

export class PayoutTransitionRefused extends Schema.TaggedError<PayoutTransitionRefused>()("PayoutTransitionRefused", {
  from: PayoutStatus,
  action: Schema.String
}) {}

export const transitionPayout = (from: PayoutStatus, action: PayoutAction): Result.Result<PayoutStatus, PayoutTransitionRefused> => {
  if (from !== "processing") return Result.fail(new PayoutTransitionRefused({ from, action }))
  switch (action) {
    case "completed":
    case "paid":
      return Result.succeed("completed")
    case "processing":
      return Result.succeed("processing")
    default:
      return Result.succeed("failed")
  }
}

/** The next version of a payout-like record (payout, withdrawal) moved to `status` at `at`. */
export const moved = <A extends {
  readonly status: PayoutStatus
  readonly failureReason: string | null
  readonly completedAt: DateTime.Utc | null
  readonly updatedAt: DateTime.Utc
  readonly version: number
}>(record: A, status: PayoutStatus, failureReason: string | null, at: DateTime.Utc): A => ({
  ...record,
  status,
  failureReason: status === "failed" ? failureReason : null,
  completedAt: status === "completed" ? at : null,
  updatedAt: at,
  version: record.version + 1
})

export const Payout = Schema.Struct({
  id: Schema.String,
  environment: Environment,
  merchantId: Schema.String,
  shopId: Schema.String,
  methodId: Schema.String,
  methodName: Schema.String,
  rail: Schema.String,
  country: Schema.String,
  currency: Schema.String,
  amount: Schema.BigDecimal,
  status: PayoutStatus,
  provider: Schema.String,
  providerRef: Schema.NullOr(Schema.String),
  /** True when the amount left the payout balance (real rails); false on sandbox synthetic rails. */
  debited: Schema.Boolean,
  recipient: Schema.Record(Schema.String, Schema.String),
  failureReason: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc,
  completedAt: Schema.NullOr(Schema.DateTimeUtc),
  version: Schema.Int
})
export type Payout = typeof Payout.Type

export const PayoutJson = Schema.toCodecJson(Payout)
