/**
 * Claims: refunds (kind `user_dispute`) and chargebacks, with their pure state machine.
 *
 * | from | event    | to       | money                                             |
 * |------|----------|----------|---------------------------------------------------|
 * | open | approve  | approved | the frozen amount leaves (refund paid / chargeback lost) |
 * | open | reject   | rejected | the frozen amount returns to `available`          |
 *
 * A claim opens by freezing its USD amount in the shop's balance (`payin_frozen`); every other
 * pair is refused. A refund shows `open` as `pending`, `approved` as `succeeded`, `rejected` as
 * `failed`.
 */
import { Result, Schema } from "effect"
import { Environment } from "../Environment.ts"

export const ClaimStatus = Schema.Literals(["open", "approved", "rejected"])
export type ClaimStatus = typeof ClaimStatus.Type

export type ClaimEvent = "approve" | "reject"
export const claimEvents: ReadonlyArray<ClaimEvent> = ["approve", "reject"]

export class ClaimTransitionRefused extends Schema.TaggedError<ClaimTransitionRefused>()("ClaimTransitionRefused", {
  from: ClaimStatus,
  event: Schema.String
}) {}

export const transitionClaim = (from: ClaimStatus, event: ClaimEvent): Result.Result<ClaimStatus, ClaimTransitionRefused> =>
  from === "open"
    ? Result.succeed(event === "approve" ? "approved" : "rejected")
    : Result.fail(new ClaimTransitionRefused({ from, event }))

export const refundStatusOf = (status: ClaimStatus) =>
  status === "open" ? "pending" as const : status === "approved" ? "succeeded" as const : "failed" as const

export const Claim = Schema.Struct({
  id: Schema.String,
  environment: Environment,
  merchantId: Schema.String,
  shopId: Schema.String,
  transactionId: Schema.String,
  kind: Schema.Literals(["user_dispute", "chargeback"]),
  status: ClaimStatus,
  /** In the transaction's local currency. */
  amount: Schema.BigDecimal,
  currency: Schema.String,
  /** The USD frozen for it (pro rata of the payment's USD headline). */
  amountUsd: Schema.BigDecimal,
  /** Chargebacks: the fee charged to the merchant, USD. */
  feeUsd: Schema.BigDecimal,
  reason: Schema.NullOr(Schema.String),
  resolution: Schema.NullOr(Schema.String),
  providerRef: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtc,
  resolvedAt: Schema.NullOr(Schema.DateTimeUtc),
  version: Schema.Int
})
export type Claim = typeof Claim.Type

export const ClaimJson = Schema.toCodecJson(Claim)
