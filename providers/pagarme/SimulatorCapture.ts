/**
 * Captures and voids of card authorizations in the Pagar.me simulator (`PagarmeSimulator.ts`),
 * an `auth_only` order's charge (`pending`, its transaction `authorized_pending_capture`,
 * `SimulatorCards.ts`). A test tool, never imported by the plugin.
 *
 * - `POST /charges/{id}/capture` ("captura de cobrança",
 *   https://connect-stone.stone.com.br/reference/captura-de-cobrança): body `{ amount?, code,
 *   operation_reference, split? }` as the SDK's `CreateCaptureChargeRequest` writes it; no
 *   `amount` captures all. A capture of less releases the rest: the charge is `paid` with
 *   `paid_amount` = what was captured, its transaction `captured`. `amount` not a positive integer,
 *   or more than authorized: `422`. A charge that is not a held authorization (paid, canceled,
 *   failed, not a card): `412`.
 * - `DELETE /charges/{id}` of a held authorization voids it: charge `canceled`, transaction
 *   `voided`, nothing paid (any `amount` in the body is read as the whole: a void is whole).
 * - Both answer the charge (`200`); the simulator's `Idempotency-Key` memo answers the same key's
 *   first answer again (`PagarmeSimulator.ts`, `once`).
 */
import { Option, Schema } from "effect"
import type { Answer } from "../kit/SimulatorServer.ts"
import { invalid, type SimCharge } from "./SimulatorRules.ts"

const CaptureBody = Schema.Struct({
  amount: Schema.optionalKey(Schema.Unknown),
  code: Schema.optionalKey(Schema.Unknown),
  operation_reference: Schema.optionalKey(Schema.Unknown)
})
const decodeCapture = Schema.decodeUnknownOption(Schema.fromJsonString(CaptureBody))

/** The charge is an authorization held for capture. */
export const isHeldAuthorization = (c: SimCharge) =>
  c.method === "credit_card" && c.status === "pending" &&
  c.transactions.some((t) => t.kind === "payment" && t.status === "authorized_pending_capture")

const payment = (c: SimCharge) => c.transactions.find((t) => t.kind === "payment")

export const captureCharge = (c: SimCharge, raw: string, now: string, view: (c: SimCharge) => unknown): Answer => {
  const parsed = raw.trim() === "" ? Option.some({} as typeof CaptureBody.Type) : decodeCapture(raw)
  if (Option.isNone(parsed)) return invalid({ request: ["The request body is not valid JSON."] })
  const { amount } = parsed.value
  if (amount !== undefined && (typeof amount !== "number" || !Number.isInteger(amount) || amount < 1)) {
    return invalid({ amount: ["The amount must be a positive integer (centavos)."] })
  }
  if (!isHeldAuthorization(c)) return { status: 412, body: { message: "Charge can't be captured." } }
  const value = amount ?? c.amount
  if (value > c.amount) return invalid({ amount: [`The amount exceeds what was authorized (${c.amount}).`] })
  const t = payment(c)!
  ;[t.status, t.updatedAt] = ["captured", now]
  c.status = "paid"
  c.paidAmount = value
  c.paidAt = Date.parse(now)
  c.updatedAt = now
  return { status: 200, body: view(c) }
}

export const voidAuthorization = (c: SimCharge, now: string, view: (c: SimCharge) => unknown): Answer => {
  const t = payment(c)!
  ;[t.status, t.updatedAt] = ["voided", now]
  c.status = "canceled"
  c.updatedAt = now
  return { status: 200, body: view(c) }
}
