/**
 * Claims: refunds (kind `user_dispute`) and chargebacks, with their pure state machine.
 *
 * | kind         | from | event   | to       | money                                              |
 * |--------------|------|---------|----------|----------------------------------------------------|
 * | user_dispute | open | approve | approved | the frozen amount leaves (the refund is paid)      |
 * | user_dispute | open | reject  | rejected | the frozen amount returns to the shop              |
 * | chargeback   | open | win     | won      | the frozen amount returns to the shop; fee kept    |
 * | chargeback   | open | lose    | lost     | the frozen amount leaves to the provider (buyer)   |
 *
 * A claim opens by freezing its USD amount in the shop's balance (`payin_frozen`). The event that
 * led to a claim's status, repeated, is `Unchanged` (a provider that says "won" twice); every
 * other pair is refused, including an event of the other kind. A refund shows `open` as
 * `pending`, `approved` as `succeeded`, `rejected` as `failed`.
 */
import { Data, Effect, Result, Schema } from "effect"
import { Environment } from "../Environment.ts"

export const ClaimKind = Schema.Literals(["user_dispute", "chargeback"])
export type ClaimKind = typeof ClaimKind.Type

export const ClaimStatus = Schema.Literals(["open", "approved", "rejected", "won", "lost"])
export type ClaimStatus = typeof ClaimStatus.Type

export type ClaimEvent = "approve" | "reject" | "win" | "lose"
export const claimEvents: ReadonlyArray<ClaimEvent> = ["approve", "reject", "win", "lose"]

/** Who resolved a claim: the provider (refund answer, callback, poll), the sandbox simulation, or the operator. */
export const ClaimResolver = Schema.Literals(["provider", "sandbox", "operator"])
export type ClaimResolver = typeof ClaimResolver.Type

export class ClaimTransitionRefused extends Schema.TaggedError<ClaimTransitionRefused>()("ClaimTransitionRefused", {
  kind: ClaimKind,
  from: ClaimStatus,
  event: Schema.String
}) {}

/** The only moves: from `open`, by the events of the claim's kind. */
const table: Readonly<Record<ClaimKind, Partial<Record<ClaimEvent, ClaimStatus>>>> = {
  user_dispute: { approve: "approved", reject: "rejected" },
  chargeback: { win: "won", lose: "lost" }
}

export type ClaimTransition = Data.TaggedEnum<{
  Moved: { readonly to: ClaimStatus }
  Unchanged: { readonly status: ClaimStatus }
}>
export const ClaimTransition = Data.taggedEnum<ClaimTransition>()

export const transitionClaim = (
  kind: ClaimKind,
  from: ClaimStatus,
  event: ClaimEvent
): Result.Result<ClaimTransition, ClaimTransitionRefused> => {
  const to = table[kind][event]
  if (to === undefined) return Result.fail(new ClaimTransitionRefused({ kind, from, event }))
  if (from === "open") return Result.succeed(ClaimTransition.Moved({ to }))
  if (from === to) return Result.succeed(ClaimTransition.Unchanged({ status: from }))
  return Result.fail(new ClaimTransitionRefused({ kind, from, event }))
}

export const refundStatusOf = (status: ClaimStatus) =>
  status === "open" ? "pending" as const : status === "approved" ? "succeeded" as const : "failed" as const

export const Claim = Schema.Struct({
  id: Schema.String,
  environment: Environment,
  merchantId: Schema.String,
  shopId: Schema.String,
  transactionId: Schema.String,
  kind: ClaimKind,
  status: ClaimStatus,
  /** In the transaction's local currency. */
  amount: Schema.BigDecimal,
  currency: Schema.String,
  /** The USD frozen for it (pro rata of the payment's USD headline). */
  amountUsd: Schema.BigDecimal,
  /** Chargebacks: the fee charged to the merchant, USD (kept whatever the outcome). */
  feeUsd: Schema.BigDecimal,
  reason: Schema.NullOr(Schema.String),
  resolution: Schema.NullOr(Schema.String),
  /** Who resolved it; documents written before this field decode as null. */
  resolvedBy: Schema.NullOr(ClaimResolver).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(null))),
  providerRef: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtc,
  resolvedAt: Schema.NullOr(Schema.DateTimeUtc),
  version: Schema.Int
})
export type Claim = typeof Claim.Type

export const ClaimJson = Schema.toCodecJson(Claim)
