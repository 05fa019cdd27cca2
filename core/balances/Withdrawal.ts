/**
 * A withdrawal of the USD pay-in balance to the merchant's own bank account (the spec
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

/** A bank account as the API takes it (withdrawals, settlement schedules). */
export interface BankAccountInput {
  readonly accountHolder: string
  readonly bankName: string
  readonly accountNumber: string
  readonly swiftCode?: string | null | undefined
}

/** The problems of a bank account, each with its path under `destination.`; empty when valid. */
export const destinationIssues = (d: BankAccountInput): ReadonlyArray<{ readonly path: string; readonly message: string }> => {
  const issues: Array<{ readonly path: string; readonly message: string }> = []
  const text = (path: string, value: string) => {
    if (value.trim().length < 2 || value.trim().length > 140) issues.push({ path: `destination.${path}`, message: "Expected 2 to 140 characters" })
  }
  text("accountHolder", d.accountHolder)
  text("bankName", d.bankName)
  if (!/^[A-Z0-9]{4,34}$/.test(d.accountNumber.replace(/[\s-]/g, "").toUpperCase())) {
    issues.push({ path: "destination.accountNumber", message: "Expected 4 to 34 letters or digits (an IBAN or a local account number)" })
  }
  if (d.swiftCode != null && !/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(d.swiftCode.toUpperCase())) {
    issues.push({ path: "destination.swiftCode", message: "Expected a BIC of 8 or 11 characters" })
  }
  return issues
}

/** A valid bank account as stored: trimmed, the account number without spaces or dashes, codes upper case. */
export const normalizeDestination = (d: BankAccountInput): WithdrawalDestination => ({
  accountHolder: d.accountHolder.trim(),
  bankName: d.bankName.trim(),
  accountNumber: d.accountNumber.replace(/[\s-]/g, "").toUpperCase(),
  swiftCode: d.swiftCode?.toUpperCase() ?? null
})

/** The account number as shown back: its last four characters. */
export const maskedAccount = (accountNumber: string) => `****${accountNumber.slice(-4)}`

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
  /** The settlement batch this withdrawal pays (a schedule whose destination is a bank account); absent otherwise. */
  settlementId: Schema.optionalKey(Schema.String),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc,
  completedAt: Schema.NullOr(Schema.DateTimeUtc),
  version: Schema.Int
})
export type Withdrawal = typeof Withdrawal.Type

export const WithdrawalJson = Schema.toCodecJson(Withdrawal)
