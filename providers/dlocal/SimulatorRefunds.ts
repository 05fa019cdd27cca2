/**
 * The refunds of `DLocalSimulator.ts` (test tooling, never imported by a plugin), as dLocal
 * documents them (https://docs.dlocal.com/api-documentation/payins-api-reference/refunds,
 * https://docs.dlocal.com/reference/the-refund-object, https://docs.dlocal.com/reference/retrieve-order-refund):
 *
 * - `POST /refunds` with `payment_id` and, together or not at all, `amount` and `currency` (none:
 *   all that is left of the payment). The currency is the payment's, or USD for a payment made in
 *   USD. A payment not found is `404 4000`; one not `PAID` (or partly refunded) `400 5002`; more
 *   than what is left `400 5007`; an amount with more decimals than the currency takes at dLocal
 *   (`Rails.dlocalDecimals`) `400 5000`; an `order_refund_id` already used `400 5011` ("Order
 *   refund id is duplicated"). A refund is made `SUCCESS` (200), or `PENDING` (100) in the
 *   `pending` refund mode; its amount is counted against the payment at once.
 * - `GET /refunds/{id}` answers the refund object, `GET /refunds/{id}/status` its status;
 *   `GET /orders/{order_refund_id}` the refund object of that `order_refund_id` (the shape of that
 *   answer is not shown by dLocal's pages: see the README, "Not confirmed").
 * - `settle(id)` / `reject(id, detail)` end a pending refund and POST the refund object, signed,
 *   to its `notification_url` (or the callback target). A rejected refund's amount is free again;
 *   when `SUCCESS` refunds cover the payment it is `REFUNDED`.
 */
import { BigDecimal, Option, Schema } from "effect"
import type { Answer } from "../kit/SimulatorServer.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import { dlocalDecimals } from "./Rails.ts"
import { amountTextOf } from "./SimulatorSigning.ts"
import * as Wire from "./Wire.ts"

export type RefundMode = "paid" | "pending"

export interface SimulatedRefund {
  readonly id: string
  readonly paymentId: string
  readonly orderRefundId: string | undefined
  /** The amount exactly as the request's JSON wrote it (or the payment's remainder). */
  readonly amountText: string
  readonly currency: string
  readonly notificationUrl: string | undefined
  /** The request exactly as received. */
  readonly raw: string
  status: string
  statusDetail: string
  /** When the refund was made (epoch ms, the simulator's clock). */
  readonly createdAt: number
  /** When the refund was paid (`SUCCESS`), epoch ms; undefined while it is not. */
  paidAt: number | undefined
}

/** What the refund desk needs of the payment it refunds. */
export interface RefundablePayment {
  readonly id: string
  readonly amountText: string
  readonly currency: string
  status: string
  statusDetail: string
  /** Sum of the refunds not rejected, decimal text. */
  refunded: string
  readonly refunds: Array<SimulatedRefund>
}

const decodeRefund = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.RefundBody))

const error = (status: number, code: number, message: string): Answer => ({ status, body: { code, message } })

const statusCodes: Readonly<Record<string, string>> = { PENDING: "100", SUCCESS: "200", REJECTED: "300", CANCELLED: "400" }

const decimal = (text: string) => BigDecimal.fromStringUnsafe(text)
const text = (amount: BigDecimal.BigDecimal) => BigDecimal.format(BigDecimal.normalize(amount))

/** A positive decimal with at most `decimals` decimals, as exact text; else undefined. */
export const amountWithin = (raw: string, decimals: number) => {
  const written = amountTextOf(raw)
  const pattern = decimals === 0 ? /^\d+(\.0+)?$/ : new RegExp(`^\\d+(\\.\\d{1,${decimals}})?$`)
  if (written === undefined || !pattern.test(written)) return undefined
  const amount = decimal(written)
  return BigDecimal.isPositive(amount) ? { text: text(amount), amount } : undefined
}

export const makeRefundDesk = (deps: {
  readonly payment: (id: string) => RefundablePayment | undefined
  readonly nextId: () => string
  /** The simulator's clock, epoch ms. */
  readonly now: () => number
  /** Sends the body, signed, to the refund's notification URL (or the callback target). */
  readonly notify: (url: string | undefined, body: string) => Promise<void>
}) => {
  const refunds = new Map<string, SimulatedRefund>()
  let mode: RefundMode = "paid"

  /** The refund object (`amount` a JSON number; the exact text in notifications). */
  const view = (refund: SimulatedRefund, amount: unknown = Number(refund.amountText)) => ({
    id: refund.id,
    payment_id: refund.paymentId,
    ...(refund.orderRefundId === undefined ? {} : { order_refund_id: refund.orderRefundId }),
    ...(refund.notificationUrl === undefined ? {} : { notification_url: refund.notificationUrl }),
    amount,
    currency: refund.currency,
    status: refund.status,
    status_code: Number(statusCodes[refund.status] ?? "0"),
    status_detail: refund.statusDetail,
    created_date: "2026-01-01T00:00:00.000+0000"
  })

  const create = (raw: string): Answer => {
    const body = decodeRefund(raw)
    if (Option.isNone(body)) return error(400, 5000, "Invalid request.")
    const request = body.value
    if ((request.amount === undefined) !== (request.currency === undefined)) return error(400, 5001, "Invalid parameter: amount and currency go together.")
    const payment = deps.payment(request.payment_id)
    if (payment === undefined) return error(404, 4000, "Payment not found.")
    if (request.order_refund_id !== undefined && [...refunds.values()].some((r) => r.orderRefundId === request.order_refund_id)) {
      return error(400, 5011, "Order refund id is duplicated.")
    }
    if (payment.status !== "PAID") return error(400, 5002, "Invalid transaction status.")
    const currency = request.currency ?? payment.currency
    if (currency !== payment.currency) return error(400, 5000, "Invalid request: the currency is not the payment's.")
    const left = BigDecimal.subtract(decimal(payment.amountText), decimal(payment.refunded))
    const asked = request.amount === undefined ? { text: text(left), amount: left } : amountWithin(raw, dlocalDecimals(currency))
    if (asked === undefined) return error(400, 5000, "Invalid request.")
    if (BigDecimal.isGreaterThan(asked.amount, left)) return error(400, 5007, "Amount exceeded.")
    const made: SimulatedRefund = {
      id: `REF-${deps.nextId()}`,
      paymentId: payment.id,
      orderRefundId: request.order_refund_id,
      amountText: asked.text,
      currency,
      notificationUrl: request.notification_url ?? undefined,
      raw,
      status: mode === "pending" ? "PENDING" : "SUCCESS",
      statusDetail: mode === "pending" ? "The refund is pending." : "The refund was paid.",
      createdAt: deps.now(),
      paidAt: mode === "pending" ? undefined : deps.now()
    }
    refunds.set(made.id, made)
    payment.refunds.push(made)
    payment.refunded = text(BigDecimal.sum(decimal(payment.refunded), asked.amount))
    settled(payment)
    return { status: 200, body: view(made) }
  }

  /** A payment whose paid refunds cover it is `REFUNDED`. */
  const settled = (payment: RefundablePayment) => {
    const paid = payment.refunds.filter((r) => r.status === "SUCCESS").reduce((sum, r) => BigDecimal.sum(sum, decimal(r.amountText)), decimal("0"))
    if (BigDecimal.equals(paid, decimal(payment.amountText))) {
      payment.status = "REFUNDED"
      payment.statusDetail = "The payment was refunded."
    }
  }

  const found = (refund: SimulatedRefund | undefined, shape: (r: SimulatedRefund) => unknown = view): Answer =>
    refund === undefined ? error(404, 4000, "Refund not found.") : { status: 200, body: shape(refund) }

  /** `GET /refunds/{id}`, `GET /refunds/{id}/status`, `GET /orders/{order_refund_id}` (undefined: not a refund route). */
  const read = (path: string): Answer | undefined => {
    const byId = /^\/refunds\/([^/]+)(\/status)?$/.exec(path)
    if (byId !== null) {
      const refund = refunds.get(decodeURIComponent(byId[1]!))
      return byId[2] === undefined
        ? found(refund)
        : found(refund, (r) => ({ id: r.id, status: r.status, status_code: statusCodes[r.status] ?? "0", status_detail: r.statusDetail }))
    }
    const byOrder = /^\/orders\/([^/]+)$/.exec(path)
    if (byOrder !== null) {
      const orderRefundId = decodeURIComponent(byOrder[1]!)
      const refund = [...refunds.values()].find((r) => r.orderRefundId === orderRefundId)
      return refund === undefined ? undefined : found(refund)
    }
    return undefined
  }

  const refundOf = (id: string) => {
    const refund = refunds.get(id)
    if (refund === undefined) throw new Error(`simulator: no refund '${id}'`)
    return refund
  }

  const end = async (id: string, status: "SUCCESS" | "REJECTED" | "CANCELLED", detail: string) => {
    const refund = refundOf(id)
    if (refund.status !== "PENDING") throw new Error(`simulator: refund '${id}' is ${refund.status}, not PENDING`)
    refund.status = status
    refund.statusDetail = detail
    if (status === "SUCCESS") refund.paidAt = deps.now()
    const payment = deps.payment(refund.paymentId)!
    if (status === "SUCCESS") settled(payment)
    else payment.refunded = text(BigDecimal.subtract(decimal(payment.refunded), decimal(refund.amountText)))
    await deps.notify(refund.notificationUrl, UpstreamHttp.jsonText(view(refund, new UpstreamHttp.JsonDecimal(decimal(refund.amountText)))))
  }

  return {
    refunds: refunds as ReadonlyMap<string, SimulatedRefund>,
    create,
    read,
    refundOf,
    setMode: (next: RefundMode) => void (mode = next),
    settle: (id: string) => end(id, "SUCCESS", "The refund was paid."),
    reject: (id: string, detail: string) => end(id, "REJECTED", detail)
  }
}
