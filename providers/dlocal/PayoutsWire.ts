/**
 * dLocal Payouts API v3 on the wire, as Schemas, and its status map
 * (https://docs.dlocal.com/docs/payouts-api-integration-v3, https://docs.dlocal.com/reference/requesting-payout-v3,
 * https://docs.dlocal.com/reference/payout-status-v3, https://docs.dlocal.com/reference/notification-parameters-payouts-v3,
 * https://docs.dlocal.com/reference/get-payout).
 *
 * | call         | request                                              | answer                 |
 * |--------------|------------------------------------------------------|------------------------|
 * | submit       | `POST /payouts/v3` {@link PayoutBody}                | `200` {@link PayoutObject} |
 * | get          | `GET /payouts/v3/{payout_id}`                        | `200` {@link PayoutObject} |
 * | by reference | `GET /payouts/v3?external_id=<payout id>`            | `200` {@link PayoutObject} |
 * | notification | dLocal `POST`s the {@link PayoutObject}, signed      | `200`                  |
 * | errors       | `4xx/5xx` `{ code, message }`                        |                        |
 *
 * Amounts are JSON numbers in major units of `currency`, written from decimal text.
 */
import { Schema } from "effect"
import type { PayoutUpdate } from "../../core/ports/PayoutProvider.ts"
import { type StatusMap, statusOf } from "../kit/StatusMap.ts"

const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(4096)))

export const Beneficiary = Schema.Struct({
  first_name: Schema.String,
  last_name: Schema.String,
  email: Schema.optionalKey(Schema.String),
  document: Schema.Struct({ type: Schema.optionalKey(Schema.String), id: Schema.String }),
  bank_account: Schema.Struct({
    code: Schema.optionalKey(Schema.String),
    type: Schema.optionalKey(Schema.String),
    account: Schema.String
  })
})

export const PayoutBody = Schema.Struct({
  external_id: Schema.String,
  country: Schema.String,
  payment_method_id: Schema.Literals(["BANK_TRANSFER", "INSTANT_PAYMENT"]),
  amount: Schema.Number,
  currency: Schema.String,
  currency_to_pay: Schema.String,
  purpose: Schema.String,
  flow_type: Schema.String,
  notification_url: Schema.String,
  beneficiary: Beneficiary
})
export type PayoutBody = typeof PayoutBody.Type

export const PayoutObject = Schema.Struct({
  id: Schema.NonEmptyString,
  external_id: Schema.String,
  status: Text,
  status_code: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number])),
  status_detail: Schema.optionalKey(Text)
})
export type PayoutObject = typeof PayoutObject.Type

/**
 * The payout statuses dLocal documents (https://docs.dlocal.com/reference/payout-status-v3), with
 * their codes: PAID (200) is paid; REJECTED (300) and CANCELLED (400) end it unpaid; PENDING (100),
 * DELIVERED (500, "being processed"), ON_HOLD (600) and ON_HOLD_BY_COMPLIANCE (700) are still on
 * the way, and so is anything dLocal adds later: only an explicit verdict moves money.
 */
export const DocumentedPayoutStatus = Schema.Literals(["PENDING", "PAID", "REJECTED", "CANCELLED", "DELIVERED", "ON_HOLD", "ON_HOLD_BY_COMPLIANCE"])
export type DocumentedPayoutStatus = typeof DocumentedPayoutStatus.Type
export const payoutStatuses = DocumentedPayoutStatus.literals

export const payoutStatusMap = {
  PENDING: "processing",
  PAID: "completed",
  REJECTED: "failed",
  CANCELLED: "failed",
  DELIVERED: "processing",
  ON_HOLD: "processing",
  ON_HOLD_BY_COMPLIANCE: "processing"
} satisfies StatusMap<typeof DocumentedPayoutStatus, PayoutUpdate["status"]>

export const toPayoutStatus = (status: string): PayoutUpdate["status"] =>
  statusOf(payoutStatusMap, status.toUpperCase(), "processing")
