/**
 * A small Mercado Pago Payments API on `node:http` at `127.0.0.1:<free port>`, answering as the
 * documentation describes (README): what the connector and the conformance kit are tested against
 * over real sockets. A test tool, never imported by the plugin.
 *
 * - Every call needs `Authorization: Bearer <access token>`, else `401`.
 * - `POST /v1/payments` needs `X-Idempotency-Key` (else `400`, cause `4292`) and a body with
 *   `transaction_amount` (a positive JSON number), `payment_method_id` (a rail of `Rails.ts`),
 *   `payer.email`, `external_reference`, `notification_url`, `date_of_expiration`; PSE also
 *   `transaction_details.financial_institution`, `callback_url`, `payer.entity_type`. A bad body
 *   is `400 bad_request`; the document {@link invalidDocument} is cause `2067`, the payer email
 *   {@link mixedUsersEmail} cause `2034` "Invalid users involved". Answer `201`: the payment,
 *   `pending` with its PIX QR data and `ticket_url`, or its voucher `external_resource_url`. The
 *   same key answers the same payment again (documented), whatever the body.
 * - `GET /v1/payments/{id}` -> `200` the payment, or `404` (cause `2000` "Payment not found").
 * - `POST /v1/payments/{id}/refunds` (key required): no body = what is left; `{ amount }` = a part
 *   (`4040` when not positive, `400` when more than what is left). Only an `approved` payment is
 *   refundable (else cause `2063`). A refund that empties the payment makes it `refunded`, else
 *   its `status_detail` is `partially_refunded`. Idempotent like payments.
 * - Modes ({@link Mode}): `ok`; `unavailable` = `500 internal_error` on every call; `slow` = the
 *   work is done (a payment IS created) but the answer comes after `slowMs`; `decline` = payments
 *   are created `rejected` (`rejected_by_bank`); `echo` = every call is `400` with the request's
 *   `Authorization` header in the error body (for the secret-leak test).
 * - `complete(id)` (`approved` / `accredited`), `fail(id, detail)` (`rejected`), `setStatus(id,
 *   status, detail?)` move a payment and POST its Webhooks notification to its `notification_url`
 *   (or the callback target) with `?data.id=<id>&type=payment`, body `{ action, api_version, data:
 *   { id }, date_created, id, live_mode, type: "payment", user_id }` and headers `x-request-id`
 *   and `x-signature: ts=<unix s>,v1=<hex HMAC-SHA256 of id:<data.id>;request-id:<x-request-id>;
 *   ts:<ts>;>`, computed with `node:crypto`, independently of the plugin's verifier.
 *   `dropCallbacks(true)` loses them instead. (The real API also notifies `payment.created`;
 *   the simulator does not, to keep the recorded callbacks deterministic.)
 */
import { createHmac, randomUUID } from "node:crypto"
import { BigDecimal, Clock, Effect, Option, Schema, type Scope } from "effect"
import * as Money from "../../core/Money.ts"
import { type Answer, type RecordedRequest, type SentCallback, serve, type SimulatorRequest } from "../kit/SimulatorServer.ts"
import { psePaymentMethodId, rails } from "./Rails.ts"
import * as Wire from "./Wire.ts"

export type { RecordedRequest, SentCallback }

export type Mode = "ok" | "unavailable" | "slow" | "decline" | "echo"

/** The buyer document the simulator refuses (cause `2067`). */
export const invalidDocument = "00000000000"
/** The payer email the simulator refuses as a test/live mix-up (cause `2034`). */
export const mixedUsersEmail = "test_user_live@testuser.com"

export interface SimulatedPayment {
  readonly id: string
  readonly reference: string
  /** Decimal text. */
  readonly amount: string
  readonly currency: string
  readonly body: Wire.PaymentBody
  /** The request body exactly as received. */
  readonly rawBody: string
  readonly idempotencyKey: string
  readonly notificationUrl: string
  status: string
  statusDetail: string
  /** Sum of the refunds, decimal text. */
  refunded: string
  readonly refunds: Array<{ readonly id: string; readonly amount: string; readonly idempotencyKey: string; readonly rawBody: string }>
}

export interface MercadoPagoSimulator {
  readonly baseUrl: string
  readonly charges: ReadonlyMap<string, SimulatedPayment>
  readonly requests: ReadonlyArray<RecordedRequest>
  readonly callbacksSent: ReadonlyArray<SentCallback>
  readonly setMode: (mode: Mode) => Effect.Effect<void>
  readonly complete: (paymentId: string) => Effect.Effect<void>
  readonly fail: (paymentId: string, detail: string) => Effect.Effect<void>
  readonly setStatus: (paymentId: string, status: string, detail?: string) => Effect.Effect<void>
  readonly setCallbackTarget: (url: string | undefined) => Effect.Effect<void>
  readonly dropCallbacks: (drop: boolean) => Effect.Effect<void>
  /** The body Mercado Pago sends about a payment. */
  readonly notificationBody: (paymentId: string) => string
  /** `x-signature` and `x-request-id` for a notification body, at the Effect clock unless given. */
  readonly sign: (rawBody: string, timestampSeconds?: number) => Effect.Effect<Readonly<Record<string, string>>>
}

export interface StartOptions {
  readonly accessToken: string
  readonly webhookSecret: string
  /** How late `slow` answers are. Default 1 500 ms. */
  readonly slowMs?: number | undefined
}

/** The `x-signature` value of a notification about `dataId` (`node:crypto`). */
export const signatureOf = (secret: string, dataId: string, requestId: string, timestampSeconds: number): string => {
  const manifest = `id:${dataId.toLowerCase()};request-id:${requestId};ts:${timestampSeconds};`
  return `ts=${timestampSeconds},v1=${createHmac("sha256", secret).update(manifest).digest("hex")}`
}

const decodeNotification = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.Notification))

/**
 * Signed headers for a notification body. The manifest is written here, not taken from the
 * plugin, so the test checks the plugin against the documented scheme; a body without `data.id`
 * is signed without the `id:` pair, as the docs say for an absent value.
 */
export const headersFor = (secret: string, rawBody: string, timestampSeconds: number): Record<string, string> => {
  const dataId = Option.match(decodeNotification(rawBody), { onNone: () => "", onSome: (n) => String(n.data.id) })
  const requestId = randomUUID()
  const signature = dataId !== ""
    ? signatureOf(secret, dataId, requestId, timestampSeconds)
    : `ts=${timestampSeconds},v1=${createHmac("sha256", secret).update(`request-id:${requestId};ts:${timestampSeconds};`).digest("hex")}`
  return { "content-type": "application/json", "x-request-id": requestId, "x-signature": signature }
}

const decodePayment = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.PaymentBody))
const decodeRefund = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.RefundBody))

const nowSeconds = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))

const error = (status: number, errorCode: string, message: string, cause?: { code: number; description: string }): Answer => ({
  status,
  body: { message, error: errorCode, status, cause: cause === undefined ? [] : [cause] }
})

const notFound = error(404, "not_found", "Payment not found", { code: 2000, description: "Payment not found" })

export const start = (options: StartOptions): Effect.Effect<MercadoPagoSimulator, never, Scope.Scope> =>
  Effect.gen(function*() {
    const slowMs = options.slowMs ?? 1_500
    const charges = new Map<string, SimulatedPayment>()
    const memo = new Map<string, Answer>()
    let mode: Mode = "ok"
    let callbackTarget: string | undefined
    let dropping = false
    let sequence = 0
    let notifications = 0

    const nextId = () => String(90_000_000_000 + ++sequence)

    const view = (p: SimulatedPayment) => {
      const pix = p.body.payment_method_id === "pix"
      const voucher = `${server.baseUrl}/checkout/${p.body.payment_method_id}/${p.id}`
      return {
        id: Number(p.id),
        status: p.status,
        status_detail: p.statusDetail,
        external_reference: p.reference,
        payment_method_id: p.body.payment_method_id,
        currency_id: p.currency,
        transaction_amount: Money.toJsonNumber(Money.decimal(p.amount)),
        transaction_amount_refunded: Money.toJsonNumber(Money.decimal(p.refunded)),
        date_of_expiration: p.body.date_of_expiration,
        point_of_interaction: pix
          ? { type: "PIX", transaction_data: { qr_code: `00020126580014br.gov.bcb.pix0136${p.id}`, qr_code_base64: "iVBORw0KGgo=", ticket_url: `${server.baseUrl}/payments/${p.id}/ticket` } }
          : {},
        transaction_details: pix
          ? { external_resource_url: null }
          : { external_resource_url: voucher, payment_method_reference_id: p.id, digitable_line: p.body.payment_method_id === "bolbradesco" ? `23793.38128 60${p.id}` : null },
        barcode: p.body.payment_method_id === "bolbradesco" ? { content: `2379${p.id}` } : null
      }
    }

    const notificationBody = (paymentId: string) =>
      JSON.stringify({
        action: "payment.updated",
        api_version: "v1",
        data: { id: paymentId },
        date_created: new Date().toISOString(),
        id: 120_000_000 + ++notifications,
        live_mode: false,
        type: "payment",
        user_id: "1234567890"
      })

    const notify = async (p: SimulatedPayment, timestampSeconds: number): Promise<void> => {
      const body = notificationBody(p.id)
      const target = new URL(callbackTarget ?? p.notificationUrl)
      target.searchParams.set("data.id", p.id)
      target.searchParams.set("type", "payment")
      await server.sendCallback(target.toString(), headersFor(options.webhookSecret, body, timestampSeconds), body, { drop: dropping })
    }

    const createPayment = (raw: string, key: string): Answer => {
      const parsed = decodePayment(raw)
      if (Option.isNone(parsed) || !BigDecimal.isPositive(parsed.value.transaction_amount)) {
        return error(400, "bad_request", "The payment body does not match the API")
      }
      const body = parsed.value
      const rail = rails.find((r) => r.paymentMethodId === body.payment_method_id)
      if (rail === undefined) return error(400, "bad_request", "Invalid payment_method_id")
      if (rail.paymentMethodId === psePaymentMethodId && (body.transaction_details === undefined || (body.callback_url ?? "") === "" || body.payer.entity_type === undefined)) {
        return error(400, "bad_request", "callback_url, financial_institution and entity_type are required for pse")
      }
      if (body.payer.identification?.number === invalidDocument) {
        return error(400, "bad_request", "Invalid user identification number", { code: 2067, description: "Invalid user identification number" })
      }
      if (body.payer.email === mixedUsersEmail) {
        return error(400, "bad_request", "Invalid users involved", { code: 2034, description: "Invalid users involved" })
      }
      const payment: SimulatedPayment = {
        id: nextId(),
        reference: body.external_reference,
        amount: Money.toText(body.transaction_amount),
        currency: rail.currency,
        body,
        rawBody: raw,
        idempotencyKey: key,
        notificationUrl: body.notification_url,
        status: mode === "decline" ? "rejected" : "pending",
        statusDetail: mode === "decline" ? "rejected_by_bank" : rail.paymentMethodId === "pix" ? "pending_waiting_transfer" : "pending_waiting_payment",
        refunded: "0",
        refunds: []
      }
      charges.set(payment.id, payment)
      return { status: 201, body: view(payment) }
    }

    const createRefund = (p: SimulatedPayment, raw: string, key: string): Answer => {
      if (p.status !== "approved") {
        return error(400, "bad_request", "The action requested is not valid for the current payment state", {
          code: 2063,
          description: "The action requested is not valid for the current payment state"
        })
      }
      const total = Money.decimal(p.amount)
      const left = BigDecimal.subtract(total, Money.decimal(p.refunded))
      const parsed = raw.trim() === "" ? Option.some({ amount: left }) : decodeRefund(raw)
      if (Option.isNone(parsed)) return error(400, "bad_request", "amount attribute must be numeric", { code: 4041, description: "amount attribute must be numeric" })
      const amount = parsed.value.amount
      if (!BigDecimal.isPositive(amount)) return error(400, "bad_request", "amount attribute must be positive", { code: 4040, description: "amount attribute must be positive" })
      if (BigDecimal.isGreaterThan(amount, left)) return error(400, "bad_request", "The refund amount exceeds the amount left to refund")
      const refund = { id: nextId(), amount: Money.toText(amount), idempotencyKey: key, rawBody: raw }
      p.refunds.push(refund)
      const refunded = BigDecimal.sum(Money.decimal(p.refunded), amount)
      p.refunded = Money.toText(refunded)
      if (BigDecimal.equals(refunded, total)) [p.status, p.statusDetail] = ["refunded", "refunded"]
      else p.statusDetail = "partially_refunded"
      return { status: 201, body: { id: Number(refund.id), payment_id: Number(p.id), amount: Money.toJsonNumber(amount), status: "approved" } }
    }

    /** The same key answers what it answered first (refusals are not remembered). */
    const once = (scope: string, key: string | undefined, create: () => Answer): Answer => {
      if (key === undefined || key === "") {
        return error(400, "bad_request", "Header X-Idempotency-Key can't be null", { code: 4292, description: "Header X-Idempotency-Key can't be null" })
      }
      const earlier = memo.get(`${scope} ${key}`)
      if (earlier !== undefined) return earlier
      const answer = create()
      if (answer.status < 400) memo.set(`${scope} ${key}`, answer)
      return answer
    }

    const route = (req: SimulatorRequest): Answer => {
      if (mode === "unavailable") return error(500, "internal_error", "internal_error")
      if (mode === "echo") return error(400, "bad_request", `rejected ${req.headers.authorization ?? ""}`, { code: 1, description: `bad header ${req.headers.authorization ?? ""}` })
      const key = req.headers["x-idempotency-key"]
      if (req.method === "POST" && req.path === "/v1/payments") return once("payments", key, () => createPayment(req.body, key!))
      const refund = /^\/v1\/payments\/(\d+)\/refunds$/.exec(req.path)
      if (req.method === "POST" && refund !== null) {
        const p = charges.get(refund[1]!)
        return p === undefined ? notFound : once(`refunds ${p.id}`, key, () => createRefund(p, req.body, key!))
      }
      const get = /^\/v1\/payments\/([^/]+)$/.exec(req.path)
      if (req.method === "GET" && get !== null) {
        const p = charges.get(decodeURIComponent(get[1]!))
        return p === undefined ? notFound : { status: 200, body: view(p) }
      }
      return error(404, "not_found", "resource not found")
    }

    const server = yield* serve((req) => {
      const authorized = req.headers.authorization === `Bearer ${options.accessToken}`
      return {
        authorized,
        idempotencyKey: req.headers["x-idempotency-key"],
        answer: authorized || mode === "echo"
          ? route(req)
          : error(401, "unauthorized", "invalid access token", { code: 401, description: "Invalid token" }),
        delayMs: authorized && mode === "slow" ? slowMs : 0
      }
    })

    const paymentOf = (id: string) =>
      Effect.suspend(() => {
        const p = charges.get(id)
        return p === undefined ? Effect.die(new Error(`simulator: no payment '${id}'`)) : Effect.succeed(p)
      })

    const setStatus = (paymentId: string, status: string, detail?: string) =>
      Effect.gen(function*() {
        const p = yield* paymentOf(paymentId)
        p.status = status
        p.statusDetail = detail ?? status
        const t = yield* nowSeconds
        yield* Effect.promise(() => notify(p, t))
      })

    return {
      baseUrl: server.baseUrl,
      charges,
      requests: server.requests,
      callbacksSent: server.callbacksSent,
      setMode: (next) => Effect.sync(() => void (mode = next)),
      complete: (id) => setStatus(id, "approved", "accredited"),
      fail: (id, detail) => setStatus(id, "rejected", detail),
      setStatus,
      setCallbackTarget: (url) => Effect.sync(() => void (callbackTarget = url)),
      dropCallbacks: (drop) => Effect.sync(() => void (dropping = drop)),
      notificationBody,
      sign: (rawBody, timestampSeconds) =>
        Effect.map(
          timestampSeconds === undefined ? nowSeconds : Effect.succeed(timestampSeconds),
          (t) => headersFor(options.webhookSecret, rawBody, t)
        )
    } satisfies MercadoPagoSimulator
  })

export const MercadoPagoSimulator = { start, signatureOf, headersFor, invalidDocument, mixedUsersEmail }
