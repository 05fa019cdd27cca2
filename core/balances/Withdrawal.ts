/**
 * A withdrawal of the USD pay-in balance to the merchant's own bank account (issue 6; the spec
 * shows no request shape). Its life cycle is the payout's: `processing` until the bank transfer is
 * confirmed, then `completed` or `failed` (final), moved by the same pure `transitionPayout`.
 */
import { Schema } from "effect"
import { Environment } from "../Environment.ts"
import { PayoutStatus } from "../payouts/Payout.ts"

export const WithdrawalDestination = Schema.Struct({
  accountHolder: Schema.String,
  bankName: Schema.String,
  accountNumber: Schema.String,
  swiftCode: Schema.NullOr(Schema.String)
})
export type WithdrawalDestination = typeof WithdrawalDestination.Type

export const Withdrawal = Schema.Struct({
  id: Schema.String,
  environment: Environment,
  merchantId: Schema.String,
  shopId: Schema.String,
  /** USD sent to the bank. */
  amount: Schema.BigDecimal,
  /** USD, the tier's `withdrawalFeeUsd`; charged on top of `amount`, returned if the withdrawal fails. */
  fee: Schema.BigDecimal,
  status: PayoutStatus,
  destination: WithdrawalDestination,
  failureReason: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc,
  completedAt: Schema.NullOr(Schema.DateTimeUtc),
  version: Schema.Int
})
export type Withdrawal = typeof Withdrawal.Type

export const WithdrawalJson = Schema.toCodecJson(Withdrawal)
