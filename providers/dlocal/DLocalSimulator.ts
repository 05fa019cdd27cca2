/**
 * dLocal's Payins API in miniature (`Wire.ts`, `Rails.ts`), on `SimulatorServer`: what the pay-in
 * connector, the kit and the host tests run against over real sockets. Test tooling, never
 * imported by the plugin; signatures are checked and made with `node:crypto` (`SimulatorSigning.ts`).
 *
 * - Every call must be signed with this account's credentials, else `403 { code: 3001 }` (the
 *   message echoes the `X-Trans-Key` it got, as careless APIs do, so scrubbing is tested); an
 *   `X-Version` other than `2.1` is `400 5017`.
 * - `POST /payments` -> `200` a `PENDING` payment with a `redirect_url`. A body that does not
 *   match, or an amount that is not a positive decimal with at most two decimals, is `400 5000`; a
 *   method dLocal does not list `400 5010`; a country other than the method's `400 5003`; a
 *   currency the method does not take `400 5004`; the document {@link invalidDocument} `400 5005`;
 *   an `order_id` already held `400 5009`. Amounts are read from the raw JSON text and compared as
 *   `BigDecimal`s, never as floats.
 * - `GET /payments/{id}` answers the payment object; `GET /orders/{order_id}` the order object
 *   (`payment_id`, `status`...), as documented; else `404 4000`.
 * - `POST /refunds` -> `200 { id, payment_id, status: "SUCCESS" }`. The same `order_refund_id` on
 *   the same payment with the same body answers the same refund, with another body `400 5000` (an
 *   assumption: dLocal does not document it); a payment that is not `PAID` is `400 5002`, more than
 *   what is left `400 5007`. A full refund makes the payment `REFUNDED`.
 * - Modes: `ok`; `unavailable` (`503 7000`); `slow` (the work is done, the answer comes after
 *   `slowMs`); `decline` (payments are created `REJECTED`, as dLocal answers a refused buyer).
 *   `setRefusal({ status, code })` answers every `POST /payments` with that documented error.
 * - `complete(id)` / `fail(id, detail)` / `setStatus(id, status)` move a payment and POST it, signed,
 *   to its `notification_url` (or the callback target); `dropCallbacks(true)` loses them.
 */
import { BigDecimal, Effect, Option, Schema, type Scope } from "effect"
import { type Answer, type RecordedRequest, type SentCallback, serve, type SimulatorRequest } from "../kit/SimulatorServer.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import { railOfMethodId, rails } from "./Rails.ts"
import { amountTextOf, isSigned, notificationHeaders, type SimulatorCredentials } from "./SimulatorSigning.ts"
import * as Wire from "./Wire.ts"

export type Mode = "ok" | "unavailable" | "slow" | "decline"

export const invalidDocument = "00000000000"

export interface SimulatedRefund {
  readonly id: string
  readonly orderRefundId: string
  readonly amountText: string
  /** The request exactly as received. */
  readonly raw: string
}

export interface SimulatedPayment {
  readonly id: string
  readonly orderId: string
  /** The amount exactly as the request's JSON wrote it. */
  readonly amountText: string
  readonly body: Wire.PaymentBody
  /** The request exactly as received. */
  readonly raw: string
  status: string
  statusDetail: string
  /** Sum of the refunds, decimal text. */
  refunded: string
  readonly refunds: Array<SimulatedRefund>
}

export interface DLocalSimulator {
  readonly baseUrl: string
  readonly charges: ReadonlyMap<string, SimulatedPayment>
  readonly requests: ReadonlyArray<RecordedRequest>
  readonly callbacksSent: ReadonlyArray<SentCallback>
  readonly setMode: (mode: Mode) => Effect.Effect<void>
  /** Every `POST /payments` is answered `{ code }` with this HTTP status (undefined: stop). */
  readonly setRefusal: (refusal: { readonly status: number; readonly code: number } | undefined) => Effect.Effect<void>
  readonly complete: (id: string) => Effect.Effect<void>
  readonly fail: (id: string, detail: string) => Effect.Effect<void>
  readonly setStatus: (id: string, status: string, detail?: string) => Effect.Effect<void>
  readonly setCallbackTarget: (url: string | undefined) => Effect.Effect<void>
  readonly dropCallbacks: (drop: boolean) => Effect.Effect<void>
  /** The body dLocal would notify for the payment now. */
  readonly notificationBody: (id: string) => string
}

const decodePayment = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.PaymentBody))
const decodeRefund = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.RefundBody))

const error = (status: number, code: number, message: string): Answer => ({ status, body: { code, message } })

/** A positive decimal with at most two decimals (dLocal's "16,2"), as exact text; else undefined. */
const amountOf = (raw: string) => {
  const text = amountTextOf(raw)
  if (text === undefined || !/^\d+(\.\d{1,2})?$/.test(text)) return undefined
  const amount = BigDecimal.fromStringUnsafe(text)
  return BigDecimal.isPositive(amount) ? { text, amount } : undefined
}

const statusCodes: Readonly<Record<string, string>> = { PENDING: "100", PAID: "200", REJECTED: "300", CANCELLED: "400", AUTHORIZED: "600", VERIFIED: "700" }

export const start = (
  credentials: SimulatorCredentials,
  options: { readonly slowMs?: number | undefined } = {}
): Effect.Effect<DLocalSimulator, never, Scope.Scope> =>
  Effect.gen(function*() {
    const payments = new Map<string, SimulatedPayment>()
    const countries = new Set(rails.map((rail) => rail.country))
    let mode: Mode = "ok"
    let refusal: { readonly status: number; readonly code: number } | undefined
    let target: string | undefined
    let dropping = false
    let sequence = 0

    const statusOf = (payment: SimulatedPayment) => ({
      status: payment.status,
      status_detail: payment.statusDetail,
      status_code: statusCodes[payment.status] ?? "0"
    })

    /** The payment object; `amount` as a JSON number (answers) or spliced from its text (notifications). */
    const view = (payment: SimulatedPayment, amount: unknown = Number(payment.amountText)) => ({
      id: payment.id,
      amount,
      currency: payment.body.currency,
      country: payment.body.country,
      payment_method_id: payment.body.payment_method_id,
      payment_method_type: "TICKET",
      payment_method_flow: payment.body.payment_method_flow,
      ...statusOf(payment),
      order_id: payment.orderId,
      ...(payment.body.notification_url === undefined ? {} : { notification_url: payment.body.notification_url }),
      redirect_url: `${server.baseUrl}/collect/pay/${payment.id}`
    })

    const create = (raw: string): Answer => {
      const body = decodePayment(raw)
      const amount = amountOf(raw)
      if (Option.isNone(body) || amount === undefined) return error(400, 5000, "Invalid request.")
      const rail = railOfMethodId(body.value.payment_method_id)
      if (rail === undefined) return error(400, 5010, "Method not available.")
      if (!countries.has(body.value.country) || body.value.country !== rail.country) return error(400, 5003, "Country not supported.")
      if (!rail.currencies.includes(body.value.currency)) return error(400, 5004, "Currency not allowed for this country.")
      if (body.value.payer.document === invalidDocument) return error(400, 5005, "User unauthorized due to cadastral situation.")
      if ([...payments.values()].some((p) => p.orderId === body.value.order_id)) return error(400, 5009, "Order ID is duplicated.")
      const payment: SimulatedPayment = {
        id: `D-4-${String(++sequence).padStart(8, "0")}`,
        orderId: body.value.order_id,
        amountText: amount.text,
        body: body.value,
        raw,
        status: mode === "decline" ? "REJECTED" : "PENDING",
        statusDetail: mode === "decline" ? "The payment was rejected." : "The payment is pending.",
        refunded: "0",
        refunds: []
      }
      payments.set(payment.id, payment)
      return { status: 200, body: view(payment) }
    }

    const refund = (raw: string): Answer => {
      const body = decodeRefund(raw)
      const amount = amountOf(raw)
      if (Option.isNone(body) || amount === undefined) return error(400, 5000, "Invalid request.")
      const payment = payments.get(body.value.payment_id)
      if (payment === undefined) return error(404, 4000, "Payment not found.")
      const answerOf = (made: SimulatedRefund): Answer => ({
        status: 200,
        body: { id: made.id, payment_id: payment.id, status: "SUCCESS", status_code: 200, status_detail: "The refund was paid.", amount: Number(made.amountText), currency: payment.body.currency }
      })
      const seen = payment.refunds.find((r) => r.orderRefundId === body.value.order_refund_id)
      if (seen !== undefined) return seen.raw === raw ? answerOf(seen) : error(400, 5000, "Invalid request.")
      if (payment.status !== "PAID") return error(400, 5002, "Invalid transaction status.")
      if (body.value.currency !== payment.body.currency) return error(400, 5000, "Invalid request.")
      const total = BigDecimal.sum(BigDecimal.fromStringUnsafe(payment.refunded), amount.amount)
      const paid = BigDecimal.fromStringUnsafe(payment.amountText)
      if (BigDecimal.isGreaterThan(total, paid)) return error(400, 5007, "Amount exceeded.")
      const made: SimulatedRefund = { id: `REF-${String(++sequence).padStart(8, "0")}`, orderRefundId: body.value.order_refund_id, amountText: amount.text, raw }
      payment.refunds.push(made)
      payment.refunded = BigDecimal.format(BigDecimal.normalize(total))
      if (BigDecimal.equals(total, paid)) {
        payment.status = "REFUNDED"
        payment.statusDetail = "The payment was refunded."
      }
      return answerOf(made)
    }

    const found = (payment: SimulatedPayment | undefined): Answer =>
      payment === undefined ? error(404, 4000, "Payment not found.") : { status: 200, body: view(payment) }

    const order = (orderId: string): Answer => {
      const payment = [...payments.values()].find((p) => p.orderId === orderId)
      if (payment === undefined) return error(404, 4000, "Payment not found.")
      return {
        status: 200,
        body: { order_id: payment.orderId, payment_id: payment.id, currency: payment.body.currency, amount: Number(payment.amountText), ...statusOf(payment) }
      }
    }

    const route = (req: SimulatorRequest): Answer => {
      if (mode === "unavailable") return error(503, 7000, "Failed to process the request.")
      if (req.headers["x-version"] !== "2.1") return error(400, 5017, "Invalid API Version.")
      if (req.method === "POST" && req.path === "/payments") {
        return refusal === undefined ? create(req.body) : error(refusal.status, refusal.code, `Refused with ${refusal.code}.`)
      }
      if (req.method === "POST" && req.path === "/refunds") return refund(req.body)
      const byId = /^\/payments\/([^/]+)$/.exec(req.path)
      if (req.method === "GET" && byId !== null) return found(payments.get(decodeURIComponent(byId[1]!)))
      const byOrder = /^\/orders\/([^/]+)$/.exec(req.path)
      if (req.method === "GET" && byOrder !== null) return order(decodeURIComponent(byOrder[1]!))
      return error(404, 4000, "Not found.")
    }

    const server = yield* serve((req) => {
      const ok = isSigned(credentials, req)
      return {
        authorized: ok,
        answer: ok ? route(req) : error(403, 3001, `Invalid Credentials: ${req.headers["x-trans-key"] ?? ""}`),
        delayMs: ok && mode === "slow" ? options.slowMs ?? 1_500 : 0
      }
    })

    const paymentOf = (id: string) => {
      const payment = payments.get(id)
      if (payment === undefined) throw new Error(`simulator: no payment '${id}'`)
      return payment
    }

    /** The payment object as dLocal notifies it, its amount the exact decimal text. */
    const notificationBody = (id: string) => {
      const payment = paymentOf(id)
      return UpstreamHttp.jsonText(view(payment, new UpstreamHttp.JsonDecimal(BigDecimal.fromStringUnsafe(payment.amountText))))
    }

    const setStatus = (id: string, status: string, detail?: string) =>
      Effect.promise(async () => {
        const payment = paymentOf(id)
        payment.status = status
        payment.statusDetail = detail ?? `The payment is ${status.toLowerCase()}.`
        const url = target ?? payment.body.notification_url
        if (url === undefined) return
        const body = notificationBody(id)
        await server.sendCallback(url, notificationHeaders(credentials, body), body, { drop: dropping })
      })

    return {
      baseUrl: server.baseUrl,
      charges: payments,
      requests: server.requests,
      callbacksSent: server.callbacksSent,
      setMode: (next) => Effect.sync(() => void (mode = next)),
      setRefusal: (next) => Effect.sync(() => void (refusal = next)),
      complete: (id) => setStatus(id, "PAID", "The payment was paid."),
      fail: (id, detail) => setStatus(id, "REJECTED", detail),
      setStatus,
      setCallbackTarget: (url) => Effect.sync(() => void (target = url)),
      dropCallbacks: (drop) => Effect.sync(() => void (dropping = drop)),
      notificationBody
    } satisfies DLocalSimulator
  })

export const DLocalSimulator = { start, invalidDocument }
