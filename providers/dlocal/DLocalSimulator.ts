/**
 * dLocal's Payins API in miniature (`Wire.ts`), on `SimulatorServer`: what the pay-in connector,
 * the kit and the host tests run against over real sockets. Test tooling, never imported by the
 * plugin; signatures are checked and made with `node:crypto` (`SimulatorSigning.ts`).
 *
 * - Every call must be signed with this account's credentials, else `403 { code: 3001 }` (the
 *   message echoes the `X-Trans-Key` it got, as careless APIs do, so scrubbing is tested).
 * - `POST /payments` -> `200` a `PENDING` payment with a `redirect_url`; a body that does not
 *   match is `400 5000`; a method dLocal does not list `400 5010`; the document
 *   {@link invalidDocument} `400 5005`; an `order_id` already held `400 5009`.
 *   `GET /payments/{id}` and `GET /orders/{order_id}` answer the payment or `404 4000`.
 * - `POST /refunds` -> `200 { id, payment_id, status: "SUCCESS" }`; the same refund `id` again
 *   answers the same refund; a payment that is not `PAID` is `400 5002`, more than what is left
 *   `400 5007`. A full refund makes the payment `REFUNDED`.
 * - Modes: `ok`; `unavailable` (`503 7000`); `slow` (the work is done, the answer comes after
 *   `slowMs`); `decline` (payments are created `REJECTED`, as dLocal answers a refused buyer).
 * - `complete(id)` / `fail(id, detail)` / `setStatus(id, status)` move a payment and POST it, signed,
 *   to its `notification_url` (or the callback target); `dropCallbacks(true)` loses them.
 */
import { BigDecimal, Effect, Option, Schema, type Scope } from "effect"
import { type Answer, type SentCallback, serve, type SimulatorRequest } from "../kit/SimulatorServer.ts"
import { amountTextOf, isSigned, notificationHeaders, type SimulatorCredentials } from "./SimulatorSigning.ts"
import * as Wire from "./Wire.ts"

export type Mode = "ok" | "unavailable" | "slow" | "decline"

export const invalidDocument = "00000000000"

export interface SimulatedPayment {
  readonly id: string
  readonly orderId: string
  /** The amount exactly as the request's JSON wrote it. */
  readonly amountText: string
  readonly body: Wire.PaymentBody
  status: string
  statusDetail: string
  /** Sum of the refunds, decimal text. */
  refunded: string
  readonly refunds: Array<{ readonly id: string; readonly amountText: string }>
}

export interface DLocalSimulator {
  readonly baseUrl: string
  readonly charges: ReadonlyMap<string, SimulatedPayment>
  readonly callbacksSent: ReadonlyArray<SentCallback>
  readonly setMode: (mode: Mode) => Effect.Effect<void>
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

const decimal = (text: string) => BigDecimal.fromStringUnsafe(text)

export const start = (
  credentials: SimulatorCredentials,
  options: { readonly slowMs?: number | undefined } = {}
): Effect.Effect<DLocalSimulator, never, Scope.Scope> =>
  Effect.gen(function*() {
    const payments = new Map<string, SimulatedPayment>()
    const refunds = new Map<string, { readonly body: string; readonly answer: Answer }>()
    const served = new Set(Object.values(Wire.rails))
    let mode: Mode = "ok"
    let target: string | undefined
    let dropping = false
    let sequence = 0

    const view = (payment: SimulatedPayment) => ({
      id: payment.id,
      amount: Number(payment.amountText),
      currency: payment.body.currency,
      country: payment.body.country,
      payment_method_id: payment.body.payment_method_id,
      payment_method_flow: payment.body.payment_method_flow,
      status: payment.status,
      status_detail: payment.statusDetail,
      status_code: { PENDING: "100", PAID: "200", REJECTED: "300", CANCELLED: "400" }[payment.status] ?? "0",
      order_id: payment.orderId,
      notification_url: payment.body.notification_url,
      redirect_url: `${server.baseUrl}/collect/pay/${payment.id}`
    })

    const create = (raw: string): Answer => {
      const body = decodePayment(raw)
      const amountText = amountTextOf(raw)
      if (Option.isNone(body) || amountText === undefined || !(Number(amountText) > 0)) {
        return error(400, 5000, "Invalid request.")
      }
      if (!served.has(body.value.payment_method_id)) return error(400, 5010, "Method not available.")
      if (body.value.payer.document === invalidDocument) return error(400, 5005, "User unauthorized due to cadastral situation.")
      if ([...payments.values()].some((p) => p.orderId === body.value.order_id)) return error(400, 5009, "Order ID is duplicated.")
      const payment: SimulatedPayment = {
        id: `D-4-${String(++sequence).padStart(8, "0")}`,
        orderId: body.value.order_id,
        amountText,
        body: body.value,
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
      const amountText = amountTextOf(raw)
      if (Option.isNone(body) || amountText === undefined || !(Number(amountText) > 0)) return error(400, 5000, "Invalid request.")
      const seen = refunds.get(body.value.id)
      if (seen !== undefined) return seen.body === raw ? seen.answer : error(400, 5000, "Refund id already used with other data.")
      const payment = payments.get(body.value.payment_id)
      if (payment === undefined) return error(404, 4000, "Payment not found.")
      if (payment.status !== "PAID") return error(400, 5002, "Invalid transaction status.")
      if (body.value.currency !== payment.body.currency) return error(400, 5004, "Currency not allowed for this country.")
      const total = BigDecimal.sum(decimal(payment.refunded), decimal(amountText))
      if (BigDecimal.isGreaterThan(total, decimal(payment.amountText))) return error(400, 5007, "Amount exceeded.")
      const made = { id: `REF-${String(++sequence).padStart(8, "0")}`, amountText }
      payment.refunds.push(made)
      payment.refunded = BigDecimal.format(BigDecimal.normalize(total))
      if (BigDecimal.equals(total, decimal(payment.amountText))) payment.status = "REFUNDED"
      const answer = { status: 200, body: { id: made.id, payment_id: payment.id, status: "SUCCESS", amount: Number(amountText) } }
      refunds.set(body.value.id, { body: raw, answer })
      return answer
    }

    const found = (payment: SimulatedPayment | undefined): Answer =>
      payment === undefined ? error(404, 4000, "Payment not found.") : { status: 200, body: view(payment) }

    const route = (req: SimulatorRequest): Answer => {
      if (mode === "unavailable") return error(503, 7000, "Failed to process the request.")
      if (req.method === "POST" && req.path === "/payments") return create(req.body)
      if (req.method === "POST" && req.path === "/refunds") return refund(req.body)
      const payment = /^\/payments\/([^/]+)$/.exec(req.path)
      if (req.method === "GET" && payment !== null) return found(payments.get(decodeURIComponent(payment[1]!)))
      const order = /^\/orders\/([^/]+)$/.exec(req.path)
      if (req.method === "GET" && order !== null) {
        return found([...payments.values()].find((p) => p.orderId === decodeURIComponent(order[1]!)))
      }
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

    const setStatus = (id: string, status: string, detail?: string) =>
      Effect.promise(async () => {
        const payment = paymentOf(id)
        payment.status = status
        payment.statusDetail = detail ?? `The payment is ${status.toLowerCase()}.`
        const body = JSON.stringify(view(payment))
        await server.sendCallback(target ?? payment.body.notification_url, notificationHeaders(credentials, body), body, { drop: dropping })
      })

    return {
      baseUrl: server.baseUrl,
      charges: payments,
      callbacksSent: server.callbacksSent,
      setMode: (next) => Effect.sync(() => void (mode = next)),
      complete: (id) => setStatus(id, "PAID", "The payment was paid."),
      fail: (id, detail) => setStatus(id, "REJECTED", detail),
      setStatus,
      setCallbackTarget: (url) => Effect.sync(() => void (target = url)),
      dropCallbacks: (drop) => Effect.sync(() => void (dropping = drop)),
      notificationBody: (id) => JSON.stringify(view(paymentOf(id)))
    } satisfies DLocalSimulator
  })

export const DLocalSimulator = { start, invalidDocument }
