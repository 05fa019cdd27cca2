/**
 * EBANX's Direct API in miniature (`Wire.ts`), on `SimulatorServer`: what the connector, the kit
 * and the host tests run against over real sockets. Test tooling, never imported by the plugin.
 *
 * - Every call carries `integration_key` in its JSON body: a wrong one is `200 { status: "ERROR",
 *   status_code: "BP-SA-2" }`, whose message echoes the key it got (as careless APIs do, so
 *   scrubbing is tested).
 * - `POST /ws/direct` -> a `PE` payment with a 40-hex `hash` and the buyer's page (`voucher_url`,
 *   `boleto_url` or `redirect_url` by rail); a body that does not match is `BP-DR-2`; a rail not
 *   listed `BP-DR-35`; the document {@link invalidDocument} `BP-DR-23` (invalid document); a
 *   `merchant_payment_code` already held `BP-DR-0`.
 * - `POST /ws/query` by `hash` or `merchant_payment_code` -> the payment with its refunds, or
 *   `BP-QU-1` (not found).
 * - `POST /ws/refund` -> `{ refund: { id, merchant_refund_code, status: "RE" }, payment }`; a
 *   body that does not match (a `merchant_refund_code` over 20 characters, say) is `BP-REF-1`, a
 *   payment that is not `CO` `BP-REF-7`, more than what is left {@link exceedingRefundCode}, a
 *   `merchant_refund_code` the payment already has {@link duplicateRefundCode}. A full refund
 *   leaves the payment `CO` with its refunds listed, as EBANX does.
 * - Modes: `ok`; `unavailable` (HTTP `503`); `slow` (the work is done, the answer comes after
 *   `slowMs`); `decline` (`BP-DR-19`, invalid customer data, on charges).
 *   `setErrorHttpStatus(400)` sends the `ERROR` answers with that HTTP status instead of 200 (some
 *   documented codes come so).
 * - `complete(hash)` / `fail(hash, reason)` / `setStatus(hash, status)` move a payment and POST the
 *   documented form `operation=payment_status_change&notification_type=update&hash_codes=<hash>` to
 *   its `notification_url` (or the callback target). EBANX also signs it with its RSA certificate
 *   (`X-SignatureContent`); the simulator does not, as the connector never relies on it (README).
 */
import { createHash } from "node:crypto"
import { BigDecimal, Effect, Option, Schema, type Scope } from "effect"
import { type Answer, type SentCallback, serve, type SimulatorRequest } from "../kit/SimulatorServer.ts"
import * as Rails from "./Rails.ts"
import * as Wire from "./Wire.ts"

export type Mode = "ok" | "unavailable" | "slow" | "decline"

export const invalidDocument = "00000000000"

/**
 * The simulator's answer to a second refund with a `merchant_refund_code` the payment already
 * has: the public pages name no code for it (the connector does not depend on one: it looks the
 * refund up by its code whenever EBANX refuses).
 */
export const duplicateRefundCode = "BP-REF-DUPLICATE"
/** The simulator's answer to a refund over what is left (no public code either). */
export const exceedingRefundCode = "BP-REF-EXCEEDS"

export interface SimulatedPayment {
  readonly hash: string
  readonly merchantPaymentCode: string
  /** The amount exactly as the request's JSON wrote it. */
  readonly amountText: string
  readonly body: Wire.DirectBody["payment"]
  status: string
  /** Why `fail` cancelled it. */
  cancelReason?: string | undefined
  refunded: string
  readonly refunds: Array<{ readonly id: string; readonly merchantRefundCode: string; readonly amountText: string }>
}

export interface EbanxSimulator {
  readonly baseUrl: string
  readonly charges: ReadonlyMap<string, SimulatedPayment>
  readonly callbacksSent: ReadonlyArray<SentCallback>
  /** `onlyPath` limits the mode to one endpoint (`/ws/refund`, say); the others answer `ok`. */
  readonly setMode: (mode: Mode, onlyPath?: string) => Effect.Effect<void>
  readonly complete: (hash: string) => Effect.Effect<void>
  readonly fail: (hash: string, reason?: string) => Effect.Effect<void>
  readonly setStatus: (hash: string, status: string) => Effect.Effect<void>
  readonly setCallbackTarget: (url: string | undefined) => Effect.Effect<void>
  readonly dropCallbacks: (drop: boolean) => Effect.Effect<void>
  readonly setErrorHttpStatus: (status: number) => Effect.Effect<void>
  /** Every request received, in order (raw bodies: the key is in them). */
  readonly received: ReadonlyArray<{ readonly path: string; readonly body: string }>
}

/** The form EBANX POSTs about changed payments. */
export const notificationBody = (hashes: ReadonlyArray<string>) =>
  new URLSearchParams({ operation: "payment_status_change", notification_type: "update", hash_codes: hashes.join(",") }).toString()

const decodeDirect = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.DirectBody))
const decodeRefund = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.RefundBody))
const decodeKeyed = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Struct({
  integration_key: Schema.String,
  hash: Schema.optionalKey(Schema.String),
  merchant_payment_code: Schema.optionalKey(Schema.String)
})))


/** The amount of a JSON body exactly as written, at `key`. */
const numberText = (raw: string, key: string) => new RegExp(`"${key}":(-?\\d+(?:\\.\\d+)?)[,}]`).exec(raw)?.[1]

const decimal = (text: string) => BigDecimal.fromStringUnsafe(text)

export const start = (
  integrationKey: string,
  options: { readonly slowMs?: number | undefined } = {}
): Effect.Effect<EbanxSimulator, never, Scope.Scope> =>
  Effect.gen(function*() {
    const payments = new Map<string, SimulatedPayment>()
    const received: Array<{ readonly path: string; readonly body: string }> = []
    let errorHttpStatus = 200
    const refused = (code: string, message: string): Answer => ({
      status: errorHttpStatus,
      body: { status: "ERROR", status_code: code, status_message: message }
    })
    let chosenMode: Mode = "ok"
    let modePath: string | undefined
    let mode: Mode = "ok"
    let target: string | undefined
    let dropping = false
    let sequence = 0

    const view = (payment: SimulatedPayment) => {
      const page = `${server.baseUrl}/print/${payment.hash}`
      const type = payment.body.payment_type_code
      const rail = Rails.rails.find((r) => r.paymentTypeCode === type)
      return {
        hash: payment.hash,
        merchant_payment_code: payment.merchantPaymentCode,
        status: payment.status,
        amount_ext: Number(payment.amountText),
        currency_ext: payment.body.currency_code,
        payment_type_code: type,
        [rail?.page ?? "voucher_url"]: page,
        ...(type === "pix" ? { pix: { qr_code_value: `00020126580014br.gov.bcb.pix${payment.hash.slice(0, 12)}` } } : {}),
        refunds: payment.refunds.map((r) => ({ id: r.id, merchant_refund_code: r.merchantRefundCode, status: "RE", amount_ext: Number(r.amountText) }))
      }
    }

    const direct = (raw: string): Answer => {
      const body = decodeDirect(raw)
      const amountText = numberText(raw, "amount_total")
      if (Option.isNone(body) || amountText === undefined || !(Number(amountText) > 0)) return refused("BP-DR-2", "Field payment is required")
      const p = body.value.payment
      if (!Rails.paymentTypeCodes.has(p.payment_type_code)) return refused("BP-DR-35", `Invalid payment_type_code: ${p.payment_type_code}`)
      if (p.document === invalidDocument) return refused("BP-DR-23", "Field payment.document is invalid")
      if (mode === "decline") return refused("BP-DR-19", "Customer data is invalid")
      const existing = [...payments.values()].find((x) => x.merchantPaymentCode === p.merchant_payment_code)
      if (existing !== undefined) {
        return refused("BP-DR-0", `Payment already exists with merchant_payment_code: ${p.merchant_payment_code} (status is ${existing.status})`)
      }
      const payment: SimulatedPayment = {
        hash: createHash("sha1").update(`${p.merchant_payment_code}:${++sequence}`).digest("hex"),
        merchantPaymentCode: p.merchant_payment_code,
        amountText,
        body: p,
        status: "PE",
        refunded: "0",
        refunds: []
      }
      payments.set(payment.hash, payment)
      return { status: 200, body: { status: "SUCCESS", payment: view(payment) } }
    }

    const query = (raw: string): Answer => {
      const body = decodeKeyed(raw)
      if (Option.isNone(body)) return refused("BP-QU-0", "Parameter hash or merchant_payment_code is required")
      const payment = body.value.hash !== undefined
        ? payments.get(body.value.hash)
        : [...payments.values()].find((x) => x.merchantPaymentCode === body.value.merchant_payment_code)
      return payment === undefined ? refused("BP-QU-1", "Payment not found") : { status: 200, body: { status: "SUCCESS", payment: view(payment) } }
    }

    const refund = (raw: string): Answer => {
      const body = decodeRefund(raw)
      const amountText = numberText(raw, "amount")
      if (Option.isNone(body) || amountText === undefined || !(Number(amountText) > 0)) return refused("BP-REF-1", "Invalid refund request")
      const payment = payments.get(body.value.hash)
      if (payment === undefined) return refused("BP-REF-3", "Payment not found")
      if (payment.status !== "CO") return refused("BP-REF-7", "Payment cannot be refunded: it is not confirmed")
      if (payment.refunds.some((r) => r.merchantRefundCode === body.value.merchant_refund_code)) {
        return refused(duplicateRefundCode, `Refund already exists with merchant_refund_code: ${body.value.merchant_refund_code}`)
      }
      const total = BigDecimal.sum(decimal(payment.refunded), decimal(amountText))
      if (BigDecimal.isGreaterThan(total, decimal(payment.amountText))) return refused(exceedingRefundCode, "Refund amount exceeds what is left of the payment")
      const made = { id: String(9000 + ++sequence), merchantRefundCode: body.value.merchant_refund_code, amountText }
      payment.refunds.push(made)
      payment.refunded = BigDecimal.format(BigDecimal.normalize(total))
      return {
        status: 200,
        body: { status: "SUCCESS", refund: { id: made.id, merchant_refund_code: made.merchantRefundCode, status: "RE" }, payment: view(payment) }
      }
    }

    const route = (req: SimulatorRequest): Answer => {
      if (req.method === "POST" && req.path === "/ws/direct") return direct(req.body)
      if (req.method === "POST" && req.path === "/ws/query") return query(req.body)
      if (req.method === "POST" && req.path === "/ws/refund") return refund(req.body)
      return { status: 404, body: { status: "ERROR", status_code: "NOT_FOUND", status_message: "No such route" } }
    }

    const server = yield* serve((req) => {
      received.push({ path: req.path, body: req.body })
      mode = modePath === undefined || modePath === req.path ? chosenMode : "ok"
      const key = /"integration_key":"([^"]*)"/.exec(req.body)?.[1]
      const ok = key === integrationKey
      if (mode === "unavailable") return { authorized: ok, answer: { status: 503, body: "Service Unavailable" } }
      return {
        authorized: ok,
        answer: ok ? route(req) : refused("BP-SA-2", `Invalid integration key: ${key ?? ""}`),
        delayMs: ok && mode === "slow" ? options.slowMs ?? 1_500 : 0
      }
    })

    const setStatus = (hash: string, status: string, reason?: string) =>
      Effect.promise(async () => {
        const payment = payments.get(hash)
        if (payment === undefined) throw new Error(`simulator: no payment '${hash}'`)
        payment.status = status
        payment.cancelReason = reason
        const headers = { "content-type": "application/x-www-form-urlencoded" }
        await server.sendCallback(target ?? payment.body.notification_url, headers, notificationBody([hash]), { drop: dropping })
      })

    return {
      baseUrl: server.baseUrl,
      charges: payments,
      callbacksSent: server.callbacksSent,
      setMode: (next, onlyPath) =>
        Effect.sync(() => {
          chosenMode = next
          modePath = onlyPath
        }),
      complete: (hash) => setStatus(hash, "CO"),
      fail: (hash, reason) => setStatus(hash, "CA", reason ?? "cancelled"),
      setStatus: (hash, status) => setStatus(hash, status),
      setCallbackTarget: (url) => Effect.sync(() => void (target = url)),
      dropCallbacks: (drop) => Effect.sync(() => void (dropping = drop)),
      setErrorHttpStatus: (status) => Effect.sync(() => void (errorHttpStatus = status)),
      received
    } satisfies EbanxSimulator
  })

export const EbanxSimulator = { start, invalidDocument, duplicateRefundCode, exceedingRefundCode, notificationBody }
