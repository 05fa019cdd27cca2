/**
 * The refunds of the Mercado Pago simulator (`MercadoPagoSimulator.ts`): `POST`, `GET` and list of
 * `/v1/payments/{id}/refunds`, as the API reference describes them. A test tool, never imported
 * by the plugin.
 *
 * - `POST` body: none, or a body without `amount` (the official SDK's `total()` sends `{}`) is the
 *   whole of what is left; `{ amount }` a part (`4040` when not positive, `4041` when not a number,
 *   `400` when more than what is left). Only an `approved` payment is refundable (else `2063`).
 * - A refund is `approved` at once, or `in_process` while refunds are held pending; `settle` makes
 *   it `approved`, `reject` makes it `rejected` (its amount is the payment's again). A payment
 *   whose approved refunds reach its amount is `refunded`; one with some is `partially_refunded`.
 * - The same `X-Idempotency-Key` on the same payment finds the refund it made and answers it as
 *   it stands NOW (`201`), whatever the body: never a second refund.
 */
import { BigDecimal, Option, Schema } from "effect"
import { Money } from "../../core/ports/index.ts"
import type { Answer } from "../kit/SimulatorServer.ts"
import * as Wire from "./Wire.ts"

export interface SimulatedRefund {
  readonly id: string
  /** Decimal text. */
  readonly amount: string
  readonly idempotencyKey: string
  /** The request body exactly as received. */
  readonly rawBody: string
  status: "approved" | "in_process" | "rejected"
  readonly dateCreated: string
  /** When the refund was paid (`approved`, epoch ms), for the release report. */
  paidAt?: number | undefined
}

/** What a refund needs of its payment. */
export interface Refundable {
  readonly id: string
  /** Decimal text. */
  readonly amount: string
  status: string
  statusDetail: string
  /** Sum of the refunds not rejected (approved or in process), decimal text. */
  refunded: string
  readonly refunds: Array<SimulatedRefund>
}

export const errorAnswer = (status: number, errorCode: string, message: string, cause?: { code: number; description: string }): Answer => ({
  status,
  body: { message, error: errorCode, status, cause: cause === undefined ? [] : [cause] }
})

const decodeRefund = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.RefundBody))

export const viewRefund = (p: Refundable, r: SimulatedRefund) => ({
  id: Number(r.id),
  payment_id: Number(p.id),
  amount: Money.toJsonNumber(Money.decimal(r.amount)),
  metadata: {},
  source: { id: "1003743392", name: "Simulated collector", type: "collector" },
  date_created: r.dateCreated,
  unique_sequence_number: null,
  refund_mode: "standard",
  adjustment_amount: 0,
  status: r.status,
  reason: null
})

/** The approved refunds' sum (what `transaction_amount_refunded` reports). */
export const approvedSum = (p: Refundable) =>
  p.refunds.filter((r) => r.status === "approved").reduce((sum, r) => BigDecimal.sum(sum, Money.decimal(r.amount)), Money.decimal("0"))

/** Moves the payment's status after its refunds changed. */
const restate = (p: Refundable) => {
  const approved = approvedSum(p)
  if (BigDecimal.equals(approved, Money.decimal(p.amount))) [p.status, p.statusDetail] = ["refunded", "refunded"]
  else if (BigDecimal.isPositive(approved)) [p.status, p.statusDetail] = ["approved", "partially_refunded"]
  else if (p.status === "refunded" || p.statusDetail === "partially_refunded") [p.status, p.statusDetail] = ["approved", "accredited"]
}

export const createRefund = (
  p: Refundable,
  raw: string,
  key: string,
  next: { readonly id: () => string; readonly pending: boolean; readonly now: string; readonly nowMs?: number | undefined }
): Answer => {
  const earlier = p.refunds.find((r) => r.idempotencyKey === key)
  if (earlier !== undefined) return { status: 201, body: viewRefund(p, earlier) }
  if (p.status !== "approved") {
    return errorAnswer(400, "bad_request", "The action requested is not valid for the current payment state", {
      code: 2063,
      description: "The action requested is not valid for the current payment state"
    })
  }
  const left = BigDecimal.subtract(Money.decimal(p.amount), Money.decimal(p.refunded))
  const parsed: Option.Option<typeof Wire.RefundBody.Type> = raw.trim() === "" ? Option.some({}) : decodeRefund(raw)
  if (Option.isNone(parsed)) return errorAnswer(400, "bad_request", "amount attribute must be numeric", { code: 4041, description: "amount attribute must be numeric" })
  const amount = parsed.value.amount ?? left
  if (!BigDecimal.isPositive(amount)) return errorAnswer(400, "bad_request", "amount attribute must be positive", { code: 4040, description: "amount attribute must be positive" })
  if (BigDecimal.isGreaterThan(amount, left)) return errorAnswer(400, "bad_request", "The refund amount exceeds the amount left to refund")
  const refund: SimulatedRefund = {
    id: next.id(),
    amount: Money.toText(amount),
    idempotencyKey: key,
    rawBody: raw,
    status: next.pending ? "in_process" : "approved",
    dateCreated: next.now,
    paidAt: next.pending ? undefined : next.nowMs ?? Date.parse(next.now)
  }
  p.refunds.push(refund)
  p.refunded = Money.toText(BigDecimal.sum(Money.decimal(p.refunded), amount))
  restate(p)
  return { status: 201, body: viewRefund(p, refund) }
}

/** Settles (`approved`) or rejects (`rejected`) an `in_process` refund; false when there is none. */
export const decideRefund = (p: Refundable, refundId: string, outcome: "approved" | "rejected", nowMs: number = Date.now()): boolean => {
  const refund = p.refunds.find((r) => r.id === refundId)
  if (refund === undefined || refund.status !== "in_process") return false
  refund.status = outcome
  if (outcome === "approved") refund.paidAt = nowMs
  if (outcome === "rejected") p.refunded = Money.toText(BigDecimal.subtract(Money.decimal(p.refunded), Money.decimal(refund.amount)))
  restate(p)
  return true
}
