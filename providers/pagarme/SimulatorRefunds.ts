/**
 * Refunds in the Pagar.me simulator (`PagarmeSimulator.ts`): `DELETE /charges/{id}` ("cancelar
 * cobrança"), as the PIX page says a PIX is refunded. A test tool, never imported by the plugin.
 *
 * - Body: none, `{}`, or `{ amount }` in centavos (other fields, such as the SDK's
 *   `operation_reference`, are accepted and ignored); no `amount` is all that is left.
 * - An unpaid charge (`pending`) is canceled whole (`canceled`; no money moved). A paid PIX
 *   charge gets a refund transaction (`transaction_type: "pix"`), `refunded` at once or
 *   `pending_refund` while refunds are held pending; the charge is `canceled` once refunds not
 *   failed reach what was paid. A paid boleto needs the buyer's bank account (`bank_account`) to
 *   be refunded: without it `422`.
 * - `amount` not a positive integer, or more than what is left: `422`. A charge that is
 *   `failed` or already `canceled`: `412` (business validation).
 * - The answer is the charge (`200`), its `last_transaction` the refund.
 * - `decide(charge, refundId, outcome)` settles (`refunded`) or rejects (`failed`: the amount is
 *   the charge's again) a `pending_refund`.
 */
import { Option, Schema } from "effect"
import type { Answer } from "../kit/SimulatorServer.ts"
import { invalid, type SimCharge, type SimTransaction } from "./SimulatorRules.ts"

const CancelBody = Schema.Struct({
  amount: Schema.optionalKey(Schema.Unknown),
  bank_account: Schema.optionalKey(Schema.Unknown)
})
const decodeCancel = Schema.decodeUnknownOption(Schema.fromJsonString(CancelBody))

const business = (message: string): Answer => ({ status: 412, body: { message } })

/** Centavos still refundable: paid minus refunds that did not fail. */
export const refundable = (c: SimCharge) =>
  c.paidAmount - c.transactions.filter((t) => t.kind === "refund" && t.status !== "failed").reduce((sum, t) => sum + t.amount, 0)

const restate = (c: SimCharge) => {
  c.canceledAmount = c.transactions.filter((t) => t.kind === "refund" && t.status !== "failed").reduce((sum, t) => sum + t.amount, 0)
  if (c.paidAmount > 0) c.status = c.canceledAmount >= c.paidAmount ? "canceled" : "paid"
}

export const cancelCharge = (
  c: SimCharge,
  raw: string,
  next: { readonly id: () => string; readonly pending: boolean; readonly now: string; readonly idempotencyKey: string | undefined },
  view: (c: SimCharge) => unknown
): Answer => {
  const parsed = raw.trim() === "" ? Option.some({} as typeof CancelBody.Type) : decodeCancel(raw)
  if (Option.isNone(parsed)) return invalid({ request: ["The request body is not valid JSON."] })
  const { amount, bank_account } = parsed.value
  if (amount !== undefined && (typeof amount !== "number" || !Number.isInteger(amount) || amount < 1)) {
    return invalid({ amount: ["The amount must be a positive integer (centavos)."] })
  }
  if (c.status === "failed" || (c.status === "canceled" && c.paidAmount === 0)) return business("Charge can't be canceled.")
  c.updatedAt = next.now
  if (c.paidAmount === 0) {
    // Not paid yet: canceling the charge stops the QR code / boleto.
    c.status = "canceled"
    const payment = c.transactions.find((t) => t.kind === "payment")
    if (payment !== undefined) [payment.status, payment.updatedAt] = ["canceled", next.now]
    return { status: 200, body: view(c) }
  }
  const left = refundable(c)
  const value = amount === undefined ? left : amount
  if (left <= 0) return business("Charge can't be canceled.")
  if (value > left) return invalid({ amount: [`The amount exceeds what can be refunded (${left}).`] })
  if (c.method === "boleto" && bank_account === undefined) {
    return invalid({ bank_account: ["The bank account is required to refund a boleto."] })
  }
  const refund: SimTransaction = {
    id: next.id(),
    kind: "refund",
    type: c.method,
    amount: value,
    status: next.pending ? "pending_refund" : "refunded",
    createdAt: next.now,
    updatedAt: next.now,
    idempotencyKey: next.idempotencyKey,
    refundedAt: next.pending ? undefined : Date.parse(next.now)
  }
  c.transactions.push(refund)
  restate(c)
  return { status: 200, body: view(c) }
}

/** Settles or rejects a `pending_refund`; false when there is none with that id. */
export const decide = (c: SimCharge, refundId: string, outcome: "refunded" | "failed", now: string): boolean => {
  const refund = c.transactions.find((t) => t.id === refundId && t.kind === "refund")
  if (refund === undefined || refund.status !== "pending_refund") return false
  refund.status = outcome
  refund.updatedAt = now
  if (outcome === "refunded") refund.refundedAt = Date.parse(now)
  c.updatedAt = now
  restate(c)
  return true
}
