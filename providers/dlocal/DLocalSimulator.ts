/**
 * dLocal's Payins API in miniature (`Wire.ts`, `Rails.ts`), on `SimulatorServer`: what the pay-in
 * connector, the kit and the host tests run against over real sockets. Test tooling, never
 * imported by the plugin; signatures are checked and made with `node:crypto` (`SimulatorSigning.ts`).
 *
 * - Every call must be signed with this account's credentials, else `403 { code: 3001 }` (the
 *   message echoes the `X-Trans-Key` it got, as careless APIs do, so scrubbing is tested); an
 *   `X-Version` other than `2.1` is `400 5017`. No `X-Version` is taken as 2.1: dLocal's own Postman
 *   collection and ActiveMerchant's dLocal gateway send none.
 * - `POST /payments` -> `200` a `PENDING` payment with a `redirect_url`. A body that does not
 *   match, or an amount that is not a positive decimal with at most the currency's dLocal decimals
 *   (two; none for COP and CLP), is `400 5000`; a payer without `name`, `email` or (in the
 *   countries served, where dLocal's country reference says "required") `document`, or with one
 *   empty, `400 5001`; a `DIRECT` payment without `payment_method_id` `400 5001` (a `REDIRECT` one
 *   without it is dLocal's checkout, where the buyer picks the method); a method dLocal does not
 *   list `400 5010`; a country other than the method's `400 5003`; a currency the method does not
 *   take (USD is taken everywhere, converted by dLocal) `400 5004`; the document
 *   {@link invalidDocument} `400 5005`; an `order_id` already held `400 5009`. Amounts are read
 *   from the raw JSON text and compared as `BigDecimal`s, never as floats.
 * - `POST /secure_payments`: a card payment, `SimulatorCards.ts` (paid, rejected with its code, a
 *   3-D Secure step at `/three-ds/{id}`, or slow, by the card number).
 * - `GET /payments/{id}` answers the payment object; `GET /orders/{order_id}` the order object
 *   (`payment_id`, `status`...), as documented; else `404 4000`.
 * - Refunds: `SimulatorRefunds.ts` (`POST /refunds`, `GET /refunds/{id}`, `GET /orders/{order_refund_id}`,
 *   a second `order_refund_id` `400 5011`).
 * - Modes: `ok`; `unavailable` (`503 7000`); `slow` (the work is done, the answer comes after
 *   `slowMs`); `slowWrites` (the same for POSTs only: a lost create whose look-up answers);
 *   `decline` (payments are created `REJECTED`, as dLocal answers a refused buyer).
 *   `setRefusal({ status, code })` answers every `POST /payments` with that documented error.
 * - `complete(id)` / `fail(id, detail)` / `setStatus(id, status)` move a payment and POST it, signed,
 *   to its `notification_url` (or the callback target); `dropCallbacks(true)` loses them.
 * - Refund controls: `setRefundMode("pending")` leaves new refunds `PENDING`; `settleRefund(id)` /
 *   `rejectRefund(id, detail)` end one and notify it; `refundOf(id)` reads one.
 * - `seedPayment(...)` holds a `PAID` payment made elsewhere (a documented example's `payment_id`).
 * - `reports`: the settlement report of what it captured, refunded and charged back in a period,
 *   each move stamped with the simulator's clock when it happened (`SimulatorReport.ts`).
 */
import { BigDecimal, Clock, Effect, Option, Schema, type Scope } from "effect"
import type { SimulatorReports } from "../kit/SimulatorReports.ts"
import { type Answer, type Handled, type RecordedRequest, type SentCallback, serve, type SimulatorRequest } from "../kit/SimulatorServer.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import * as CardWire from "./CardWire.ts"
import { cardMethodId, dlocalDecimals, railOfMethodId, rails } from "./Rails.ts"
import { detailOf, isAnswer, judge, type SimulatedCard } from "./SimulatorCards.ts"
import { makeRefundDesk, amountWithin, type RefundMode, type SimulatedRefund } from "./SimulatorRefunds.ts"
import { type BookedMove, makeSimulatorReports } from "./SimulatorReport.ts"
import { isSigned, notificationHeaders, type SimulatorCredentials } from "./SimulatorSigning.ts"
import * as Wire from "./Wire.ts"

export type Mode = "ok" | "unavailable" | "slow" | "slowWrites" | "decline"
export type { RefundMode, SimulatedRefund }

export const invalidDocument = "00000000000"

/** Countries whose payer `document` dLocal requires (the country reference's "document required": yes). */
const documentRequired = new Set(["AR", "BR", "CL", "CO", "MX", "PE"])

export interface SimulatedPayment {
  readonly id: string
  readonly orderId: string
  /** The amount exactly as the request's JSON wrote it. */
  readonly amountText: string
  readonly currency: string
  readonly body: Wire.PaymentBody
  /** The request exactly as received. */
  readonly raw: string
  status: string
  statusDetail: string
  /** Sum of the refunds, decimal text. */
  refunded: string
  readonly refunds: Array<SimulatedRefund>
  /** When the payment was made, first `PAID` and charged back (epoch ms, the simulator's clock). */
  readonly createdAt: number
  capturedAt?: number | undefined
  chargedBackAt?: number | undefined
  /** A card payment's card (masked, as dLocal answers it). */
  readonly card?: SimulatedCard | undefined
  /** A card payment's own status code (a rejection's 3xx, `101` waiting for 3-D Secure). */
  statusCode?: string | undefined
}

export interface DLocalSimulator {
  readonly baseUrl: string
  readonly charges: ReadonlyMap<string, SimulatedPayment>
  readonly requests: ReadonlyArray<RecordedRequest>
  /** Every `POST /payments` body as received, refused ones too. */
  readonly paymentBodies: ReadonlyArray<string>
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
  readonly refunds: ReadonlyMap<string, SimulatedRefund>
  readonly refundOf: (id: string) => SimulatedRefund
  readonly setRefundMode: (mode: RefundMode) => Effect.Effect<void>
  readonly settleRefund: (id: string) => Effect.Effect<void>
  readonly rejectRefund: (id: string, detail: string) => Effect.Effect<void>
  /** Holds a `PAID` payment (a documented example's), as if it had been made and paid. */
  readonly seedPayment: (payment: { readonly id: string; readonly orderId: string; readonly amount: string; readonly currency: string; readonly country: string }) => Effect.Effect<void>
  /** dLocal's settlement report of what the simulator captured, refunded and charged back (`SimulatorReport.ts`). */
  readonly reports: SimulatorReports
}

const decodePayment = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.PaymentBody))
const decodeCardPayment = Schema.decodeUnknownOption(Schema.fromJsonString(CardWire.CardPaymentBody))

const error = (status: number, code: number, message: string): Answer => ({ status, body: { code, message } })


const statusCodes: Readonly<Record<string, string>> = { PENDING: "100", PAID: "200", REJECTED: "300", CANCELLED: "400", AUTHORIZED: "600", VERIFIED: "700" }

export const start = (
  credentials: SimulatorCredentials,
  options: {
    readonly slowMs?: number | undefined
    /**
     * Answers the requests it takes (`undefined`: not its own) before the pay-in API sees them:
     * the standalone simulator serves payouts v3 on the same base URL this way.
     */
    readonly beside?: ((request: SimulatorRequest) => Promise<Handled> | undefined) | undefined
  } = {}
): Effect.Effect<DLocalSimulator, never, Scope.Scope> =>
  Effect.gen(function*() {
    const payments = new Map<string, SimulatedPayment>()
    const paymentBodies: Array<string> = []
    const countries = new Set(rails.map((rail) => rail.country))
    let mode: Mode = "ok"
    let refusal: { readonly status: number; readonly code: number } | undefined
    let target: string | undefined
    let dropping = false
    let sequence = 0
    /** The card payment just created answers late (its card number says so). */
    let slowAnswer = false
    const clock = yield* Clock.Clock
    const now = () => clock.currentTimeMillisUnsafe()

    const statusOf = (payment: SimulatedPayment) => ({
      status: payment.status,
      status_detail: payment.statusDetail,
      status_code: payment.statusCode ?? statusCodes[payment.status] ?? "0"
    })

    /** A card payment's own fields: its card, masked, and its 3-D Secure step while it waits. */
    const cardView = (payment: SimulatedPayment) =>
      payment.card === undefined ? { redirect_url: `${server.baseUrl}/collect/pay/${payment.id}` } : {
        card: {
          holder_name: payment.card.holderName,
          expiration_month: payment.card.expMonth,
          expiration_year: payment.card.expYear,
          brand: payment.card.brand,
          last4: payment.card.last4
        },
        ...(payment.statusCode === CardWire.pendingThreeDSecure && payment.status === "PENDING"
          ? { three_dsecure: { redirect_url: `${server.baseUrl}/three-ds/${payment.id}` } }
          : {})
      }

    /** The payment object; `amount` as a JSON number (answers) or spliced from its text (notifications). */
    const view = (payment: SimulatedPayment, amount: unknown = Number(payment.amountText)) => ({
      id: payment.id,
      amount,
      currency: payment.currency,
      country: payment.body.country,
      ...(payment.body.payment_method_id === undefined ? {} : { payment_method_id: payment.body.payment_method_id }),
      payment_method_type: payment.card === undefined ? "TICKET" : "CARD",
      payment_method_flow: payment.body.payment_method_flow,
      ...statusOf(payment),
      order_id: payment.orderId,
      ...(payment.body.notification_url === undefined ? {} : { notification_url: payment.body.notification_url }),
      ...cardView(payment)
    })

    /** A payer field dLocal requires, present and not empty. */
    const given = (value: string | undefined) => value !== undefined && value.trim() !== ""

    const create = (raw: string): Answer => {
      paymentBodies.push(raw)
      const body = decodePayment(raw)
      if (Option.isNone(body)) return error(400, 5000, "Invalid request.")
      const request = body.value
      const amount = amountWithin(raw, dlocalDecimals(request.currency))
      if (amount === undefined) return error(400, 5000, "Invalid request: amount.")
      for (const field of ["name", "email"] as const) {
        if (!given(request.payer[field])) return error(400, 5001, `Invalid parameter: payer.${field}`)
      }
      if (documentRequired.has(request.country) && !given(request.payer.document)) return error(400, 5001, "Invalid parameter: payer.document")
      if (request.payment_method_id === undefined && request.payment_method_flow === "DIRECT") {
        return error(400, 5001, "Invalid parameter: payment_method_id")
      }
      const rail = request.payment_method_id === undefined ? undefined : railOfMethodId(request.payment_method_id)
      if (request.payment_method_id !== undefined && rail === undefined) return error(400, 5010, "Method not available.")
      if (!countries.has(request.country) || (rail !== undefined && request.country !== rail.country)) return error(400, 5003, "Country not supported.")
      const local = rail?.currencies ?? rails.filter((r) => r.country === request.country).flatMap((r) => r.currencies)
      if (request.currency !== "USD" && !local.includes(request.currency)) return error(400, 5004, "Currency not allowed for this country.")
      if (request.payer.document === invalidDocument) return error(400, 5005, "User unauthorized due to cadastral situation.")
      if ([...payments.values()].some((p) => p.orderId === request.order_id)) return error(400, 5009, "Order ID is duplicated.")
      const payment: SimulatedPayment = {
        id: `D-4-${String(++sequence).padStart(8, "0")}`,
        orderId: request.order_id,
        amountText: amount.text,
        currency: request.currency,
        body: request,
        raw,
        status: mode === "decline" ? "REJECTED" : "PENDING",
        statusDetail: mode === "decline" ? "The payment was rejected." : "The payment is pending.",
        refunded: "0",
        refunds: [],
        createdAt: now()
      }
      payments.set(payment.id, payment)
      return { status: 200, body: view(payment) }
    }

    /** `POST /secure_payments`: the checks of `create`, then the card's (`SimulatorCards.ts`). */
    const createCard = (raw: string): Answer => {
      paymentBodies.push(raw)
      const body = decodeCardPayment(raw)
      if (Option.isNone(body)) return error(400, 5000, "Invalid request.")
      const request = body.value
      if (request.payment_method_id !== cardMethodId || request.payment_method_flow !== "DIRECT") return error(400, 5010, "Method not available.")
      const amount = amountWithin(raw, dlocalDecimals(request.currency))
      if (amount === undefined) return error(400, 5000, "Invalid request: amount.")
      for (const field of ["name", "email"] as const) {
        if (!given(request.payer[field])) return error(400, 5001, `Invalid parameter: payer.${field}`)
      }
      if (documentRequired.has(request.country) && !given(request.payer.document)) return error(400, 5001, "Invalid parameter: payer.document")
      if (!countries.has(request.country)) return error(400, 5003, "Country not supported.")
      const local = rails.filter((r) => r.country === request.country).flatMap((r) => r.currencies)
      if (request.currency !== "USD" && !local.includes(request.currency)) return error(400, 5004, "Currency not allowed for this country.")
      if ([...payments.values()].some((p) => p.orderId === request.order_id)) return error(400, 5009, "Order ID is duplicated.")
      const verdict = judge(request.card, request.description, now())
      if (isAnswer(verdict)) return verdict
      const outcome = verdict.outcome
      slowAnswer = outcome.status === "SLOW"
      const [status, statusCode, statusDetail] = outcome.status === "REJECTED"
        ? ["REJECTED", outcome.code, detailOf(outcome.code)]
        : outcome.status === "CHALLENGE"
        ? ["PENDING", CardWire.pendingThreeDSecure, "The payment is pending 3D Secure authentication."]
        : ["PAID", "200", "The payment was paid."]
      const payment: SimulatedPayment = {
        id: `D-4-${String(++sequence).padStart(8, "0")}`,
        orderId: request.order_id,
        amountText: amount.text,
        currency: request.currency,
        body: request,
        raw,
        status,
        statusDetail,
        statusCode,
        card: verdict.card,
        refunded: "0",
        refunds: [],
        createdAt: now(),
        capturedAt: status === "PAID" ? now() : undefined
      }
      payments.set(payment.id, payment)
      return { status: 200, body: view(payment) }
    }

    const desk = makeRefundDesk({
      payment: (id) => payments.get(id),
      nextId: () => String(++sequence).padStart(8, "0"),
      now,
      notify: async (url, body) => {
        const to = target ?? url
        if (to === undefined) return
        await server.sendCallback(to, notificationHeaders(credentials, body), body, { drop: dropping })
      }
    })

    const found = (payment: SimulatedPayment | undefined): Answer =>
      payment === undefined ? error(404, 4000, "Payment not found.") : { status: 200, body: view(payment) }

    const order = (orderId: string): Answer => {
      const payment = [...payments.values()].find((p) => p.orderId === orderId)
      if (payment === undefined) return error(404, 4000, "Payment not found.")
      return {
        status: 200,
        body: { order_id: payment.orderId, payment_id: payment.id, currency: payment.currency, amount: Number(payment.amountText), ...statusOf(payment) }
      }
    }

    const route = (req: SimulatorRequest): Answer => {
      if (mode === "unavailable") return error(503, 7000, "Failed to process the request.")
      const version = req.headers["x-version"]
      if (version !== undefined && version !== "2.1") return error(400, 5017, "Invalid API Version.")
      if (req.method === "POST" && req.path === "/payments") {
        return refusal === undefined ? create(req.body) : error(refusal.status, refusal.code, `Refused with ${refusal.code}.`)
      }
      if (req.method === "POST" && req.path === "/secure_payments") return createCard(req.body)
      if (req.method === "POST" && req.path === "/refunds") return desk.create(req.body)
      const refundRead = req.method === "GET" ? desk.read(req.path) : undefined
      if (refundRead !== undefined) return refundRead
      const byId = /^\/payments\/([^/]+)$/.exec(req.path)
      if (req.method === "GET" && byId !== null) return found(payments.get(decodeURIComponent(byId[1]!)))
      const byOrder = /^\/orders\/([^/]+)$/.exec(req.path)
      if (req.method === "GET" && byOrder !== null) return order(decodeURIComponent(byOrder[1]!))
      return error(404, 4000, "Not found.")
    }

    const server = yield* serve((req) => {
      const beside = options.beside?.(req)
      if (beside !== undefined) return beside
      const ok = isSigned(credentials, req)
      slowAnswer = false
      const answer = ok ? route(req) : error(403, 3001, `Invalid Credentials: ${req.headers["x-trans-key"] ?? ""}`)
      return {
        authorized: ok,
        answer,
        delayMs: ok && (slowAnswer || mode === "slow" || (mode === "slowWrites" && req.method === "POST")) ? options.slowMs ?? 1_500 : 0
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
        payment.statusCode = undefined
        payment.statusDetail = detail ?? `The payment is ${status.toLowerCase()}.`
        if (status === "PAID" && payment.capturedAt === undefined) payment.capturedAt = now()
        if (status === "CHARGEBACK" && payment.chargedBackAt === undefined) payment.chargedBackAt = now()
        const url = target ?? payment.body.notification_url
        if (url === undefined) return
        const body = notificationBody(id)
        await server.sendCallback(url, notificationHeaders(credentials, body), body, { drop: dropping })
      })

    /** Every capture, paid refund and chargeback, for the settlement report. */
    const booked = (): ReadonlyArray<BookedMove> =>
      [...payments.values()].flatMap((p) => {
        const base = { paymentId: p.id, orderId: p.orderId, country: p.body.country, amountText: p.amountText, currency: p.currency, createdAt: p.createdAt }
        return [
          ...(p.capturedAt === undefined ? [] : [{ ...base, kind: "PAYMENT" as const, id: p.id, at: p.capturedAt }]),
          ...p.refunds.flatMap((r) =>
            r.paidAt === undefined ? [] : [{ ...base, kind: "REFUND" as const, id: r.id, amountText: r.amountText, currency: r.currency, createdAt: r.createdAt, at: r.paidAt }]
          ),
          ...(p.chargedBackAt === undefined ? [] : [{ ...base, kind: "CHARGEBACK" as const, id: `CHB-${p.id}`, at: p.chargedBackAt }])
        ]
      })

    return {
      baseUrl: server.baseUrl,
      charges: payments,
      requests: server.requests,
      paymentBodies,
      callbacksSent: server.callbacksSent,
      setMode: (next) => Effect.sync(() => void (mode = next)),
      setRefusal: (next) => Effect.sync(() => void (refusal = next)),
      complete: (id) => setStatus(id, "PAID", "The payment was paid."),
      fail: (id, detail) => setStatus(id, "REJECTED", detail),
      setStatus,
      setCallbackTarget: (url) => Effect.sync(() => void (target = url)),
      dropCallbacks: (drop) => Effect.sync(() => void (dropping = drop)),
      notificationBody,
      refunds: desk.refunds,
      refundOf: desk.refundOf,
      setRefundMode: (next) => Effect.sync(() => desk.setMode(next)),
      settleRefund: (id) => Effect.promise(() => desk.settle(id)),
      rejectRefund: (id, detail) => Effect.promise(() => desk.reject(id, detail)),
      seedPayment: (seed) =>
        Effect.sync(() => {
          const body = {
            amount: Number(seed.amount),
            currency: seed.currency,
            country: seed.country,
            payment_method_flow: "REDIRECT",
            payer: { name: "Seeded", email: "seeded@example.com", document: "00000000191" },
            order_id: seed.orderId
          } satisfies Wire.PaymentBody
          payments.set(seed.id, {
            id: seed.id, orderId: seed.orderId, amountText: seed.amount, currency: seed.currency, body, raw: JSON.stringify(body),
            status: "PAID", statusDetail: "The payment was paid.", refunded: "0", refunds: [], createdAt: now(), capturedAt: now()
          })
        }),
      reports: makeSimulatorReports(booked, credentials.login)
    } satisfies DLocalSimulator
  })

export const DLocalSimulator = { start, invalidDocument }
