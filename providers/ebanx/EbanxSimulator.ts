/**
 * EBANX's Direct API in miniature (`Wire.ts`), on `SimulatorServer`: what the connector, the kit
 * and the host tests run against over real sockets. Test tooling, never imported by the plugin.
 * What it refuses, and with which code, is in `SimulatorRules.ts`.
 *
 * - Authentication: an `X-JWS-Signature` verified against `options.jws` (the `kid` and public key
 *   EBANX would hold), else `integration_key` in the JSON body. Neither (or a body that is not
 *   JSON) is `BP-SA-1`; a wrong key or signature `BP-SA-2`, whose message echoes the key it got.
 * - `POST /ws/direct` -> a `PE` payment with a 40-hex `hash`, its `due_date` and the buyer's page
 *   in the field EBANX's SDK fixtures show for the rail (`boleto_url`, `oxxo_url`, `spei_url`,
 *   `cip_url`, `voucher_url`, or the answer's top-level `redirect_url`). Missing fields are
 *   refused with EBANX's `BP-DR-*` code (boleto: address and phone); the document
 *   {@link invalidDocument} `BP-DR-23`; a `merchant_payment_code` already held `BP-DR-0`.
 * - `POST /ws/query` by `hash` or `merchant_payment_code` -> the payment with its refunds, or
 *   `BP-QU-1` (not found).
 * - `POST /ws/refund` -> `{ refund: { id, merchant_refund_code, status }, payment }`. A payment
 *   that is not `CO` is `BP-REF-7`, more than what is left (cancelled refunds do not count)
 *   {@link exceedingRefundCode}, a `merchant_refund_code` the payment already has
 *   {@link duplicateRefundCode}.
 * - Modes: `ok`; `unavailable` (HTTP `503`); `slow` (the work is done, the answer comes after
 *   `slowMs`); `decline` (`BP-DR-23`, the document refused, on charges).
 *   `setErrorHttpStatus(400)` sends the `ERROR` answers with that HTTP status instead of 200.
 * - Refunds: `setRefundMode("confirm")` (the default) confirms a refund at once (`CO`, as if EBANX
 *   paid it back before answering); `setRefundMode("pending")` leaves new refunds `RE` (requested),
 *   as EBANX first answers. `settleRefund(id)` / `rejectRefund(id)` move a refund by its EBANX id
 *   to `CO` / `CA` and `setRefundStatus(id, status)` to anything (`PE`); each POSTs the documented
 *   `notification_type=refund` form.
 * - Payments: `complete(hash)` (`CO`), `fail(hash, reason)` (`CA` today, a cancellation),
 *   `expire(hash)` (`CA` after the due date) and `setStatus(hash, status)` move a payment and POST
 *   `operation=payment_status_change&notification_type=update&hash_codes=<hash>` to its
 *   `notification_url` (or the callback target). EBANX also signs notifications with its RSA
 *   certificate; the simulator does not, as the connector never relies on it (README).
 * - `answerNext(path, body)` answers the next request on `path` with a canned body (an SDK or
 *   documentation example), after authenticating it.
 * - `reports`: the All Transactions Report of what it confirmed, refunded and charged back
 *   (`chargeback(hash)`, booked for the report only) in a period, each stamped with the
 *   simulator's clock when it happened (`SimulatorReport.ts`).
 */
import { createHash } from "node:crypto"
import { BigDecimal, Clock, Effect, type Scope } from "effect"
import type { SimulatorReports } from "../kit/SimulatorReports.ts"
import { type Answer, type SentCallback, serve, type SimulatorRequest } from "../kit/SimulatorServer.ts"
import * as Rails from "./Rails.ts"
import * as Rules from "./SimulatorRules.ts"
import { type BookedMove, makeSimulatorReports } from "./SimulatorReport.ts"

export type Mode = "ok" | "unavailable" | "slow" | "decline"
export type RefundMode = "confirm" | "pending"

export const invalidDocument = "00000000000"

/** The simulator's answer to a second refund with a `merchant_refund_code` the payment already has (no public code). */
export const duplicateRefundCode = "BP-REF-DUPLICATE"
/** The simulator's answer to a refund over what is left (no public code either). */
export const exceedingRefundCode = "BP-REF-EXCEEDS"

export interface SimulatedRefund {
  readonly id: string
  readonly merchantRefundCode: string | undefined
  /** The amount exactly as the request's JSON wrote it. */
  readonly amountText: string
  status: string
  /** When the refund was confirmed (`CO`), epoch ms on the simulator's clock. */
  confirmedAt?: number | undefined
}

export interface SimulatedPayment {
  readonly hash: string
  readonly merchantPaymentCode: string
  readonly amountText: string
  /** The request's `payment` as received. */
  readonly body: Readonly<Record<string, unknown>>
  /** `yyyy-mm-dd`. */
  readonly dueDate: string
  status: string
  statusDate: string | undefined
  cancelReason?: string | undefined
  readonly refunds: Array<SimulatedRefund>
  /** When it was made, first confirmed and charged back (epoch ms, the simulator's clock). */
  readonly openedAt: number
  confirmedAt?: number | undefined
  chargedBackAt?: number | undefined
}

export interface EbanxSimulator {
  readonly baseUrl: string
  readonly charges: ReadonlyMap<string, SimulatedPayment>
  readonly callbacksSent: ReadonlyArray<SentCallback>
  /** `onlyPath` limits the mode to one endpoint (`/ws/refund`, say); the others answer `ok`. */
  readonly setMode: (mode: Mode, onlyPath?: string) => Effect.Effect<void>
  readonly complete: (hash: string) => Effect.Effect<void>
  readonly fail: (hash: string, reason?: string) => Effect.Effect<void>
  readonly expire: (hash: string) => Effect.Effect<void>
  readonly setStatus: (hash: string, status: string) => Effect.Effect<void>
  readonly setRefundMode: (mode: RefundMode) => Effect.Effect<void>
  readonly settleRefund: (refundId: string) => Effect.Effect<void>
  readonly rejectRefund: (refundId: string) => Effect.Effect<void>
  readonly setRefundStatus: (refundId: string, status: string) => Effect.Effect<void>
  readonly answerNext: (path: string, body: unknown) => Effect.Effect<void>
  readonly setCallbackTarget: (url: string | undefined) => Effect.Effect<void>
  readonly dropCallbacks: (drop: boolean) => Effect.Effect<void>
  readonly setErrorHttpStatus: (status: number) => Effect.Effect<void>
  /** Every request received, in order (raw bodies and headers: the credentials are in them). */
  readonly received: ReadonlyArray<{ readonly path: string; readonly body: string; readonly headers: Readonly<Record<string, string | undefined>> }>
  /** Books a chargeback on a confirmed payment, for the report only (EBANX's chargeback notification is not simulated). */
  readonly chargeback: (hash: string) => Effect.Effect<void>
  /** EBANX's All Transactions Report of what the simulator confirmed, refunded and charged back (`SimulatorReport.ts`). */
  readonly reports: SimulatorReports
}

/** The form EBANX POSTs about changed payments. */
export const notificationBody = (hashes: ReadonlyArray<string>, type = "update") =>
  new URLSearchParams({ operation: "payment_status_change", notification_type: type, hash_codes: hashes.join(",") }).toString()

const decimal = (text: string) => BigDecimal.fromStringUnsafe(text)
const today = () => new Date().toISOString().slice(0, 10)
const now = () => new Date().toISOString().slice(0, 19).replace("T", " ")
/** `dd/mm/yyyy` as `yyyy-mm-dd`; three days from today when absent. */
const dueDateOf = (text: unknown) => {
  const m = typeof text === "string" ? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text) : null
  return m !== null ? `${m[3]}-${m[2]}-${m[1]}` : new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)
}

export const start = (
  integrationKey: string,
  options: { readonly slowMs?: number | undefined; readonly jws?: Rules.JwsAccount | undefined } = {}
): Effect.Effect<EbanxSimulator, never, Scope.Scope> =>
  Effect.gen(function*() {
    const payments = new Map<string, SimulatedPayment>()
    const received: Array<EbanxSimulator["received"][number]> = []
    const canned = new Map<string, unknown>()
    let errorHttpStatus = 200
    const refused = (code: string, message: string): Answer => ({
      status: errorHttpStatus,
      body: { status: "ERROR", status_code: code, status_message: message }
    })
    let chosenMode: Mode = "ok"
    let modePath: string | undefined
    let mode: Mode = "ok"
    let refundMode: RefundMode = "confirm"
    let target: string | undefined
    let dropping = false
    let sequence = 0
    const clock = yield* Clock.Clock
    const nowMs = () => clock.currentTimeMillisUnsafe()

    const refundView = (r: SimulatedRefund) => ({
      id: r.id,
      merchant_refund_code: r.merchantRefundCode ?? null,
      status: r.status,
      amount_ext: r.amountText
    })

    const view = (payment: SimulatedPayment) => {
      const type = String(payment.body["payment_type_code"])
      const rail = Rails.rails.find((r) => r.paymentTypeCode === type)
      const page = rail?.page === "redirect_url" ? {} : { [rail?.page ?? "voucher_url"]: `${server.baseUrl}/print/${payment.hash}` }
      return {
        hash: payment.hash,
        merchant_payment_code: payment.merchantPaymentCode,
        status: payment.status,
        status_date: payment.statusDate ?? null,
        due_date: payment.dueDate,
        amount_ext: payment.amountText,
        currency_ext: payment.body["currency_code"],
        payment_type_code: type,
        ...page,
        ...(type === "pix" ? { pix: { qr_code_value: `00020126580014br.gov.bcb.pix${payment.hash.slice(0, 12)}` } } : {}),
        refunds: payment.refunds.map(refundView)
      }
    }

    /** `redirect_url` sits beside `payment` in EBANX's answers (SDK fixtures for eft, Webpay, PIX). */
    const answerOf = (payment: SimulatedPayment, extra: Record<string, unknown> = {}): Answer => {
      const rail = Rails.rails.find((r) => r.paymentTypeCode === payment.body["payment_type_code"])
      const redirect = rail?.page === "redirect_url" ? { redirect_url: `${server.baseUrl}/redirect/${payment.hash}` } : {}
      return { status: 200, body: { ...redirect, payment: view(payment), ...extra, status: "SUCCESS" } }
    }

    const direct = (raw: string, body: Record<string, unknown>): Answer => {
      const checked = Rules.directRefusal(raw, body["payment"])
      if ("code" in checked) return refused(checked.code, checked.message)
      const p = body["payment"] as Record<string, unknown>
      const code = Rules.textOf(p["merchant_payment_code"])!
      if (p["document"] === invalidDocument || mode === "decline") return refused("BP-DR-23", "Field payment.document is invalid")
      const existing = [...payments.values()].find((x) => x.merchantPaymentCode === code)
      if (existing !== undefined) return refused("BP-DR-0", `Payment already exists with merchant_payment_code: ${code} (status is ${existing.status})`)
      const payment: SimulatedPayment = {
        hash: createHash("sha1").update(`${code}:${++sequence}`).digest("hex"),
        merchantPaymentCode: code,
        amountText: checked.amountText,
        body: p,
        dueDate: dueDateOf(p["due_date"]),
        status: "PE",
        statusDate: undefined,
        refunds: [],
        openedAt: nowMs()
      }
      payments.set(payment.hash, payment)
      return answerOf(payment)
    }

    const query = (body: Record<string, unknown>): Answer => {
      const hash = Rules.textOf(body["hash"])
      const code = Rules.textOf(body["merchant_payment_code"])
      if (hash === undefined && code === undefined) return refused("BP-QU-0", "Parameter hash or merchant_payment_code is required")
      const payment = hash !== undefined ? payments.get(hash) : [...payments.values()].find((x) => x.merchantPaymentCode === code)
      return payment === undefined ? refused("BP-QU-1", "Payment not found") : answerOf(payment)
    }

    const refund = (raw: string, body: Record<string, unknown>): Answer => {
      const amountText = Rules.amountOf(raw, body, "amount")
      const hash = Rules.textOf(body["hash"])
      const description = Rules.textOf(body["description"])
      const refundCode = Rules.textOf(body["merchant_refund_code"])
      if (amountText === undefined || !(Number(amountText) > 0) || description === undefined || (hash ?? Rules.textOf(body["merchant_payment_code"])) === undefined) {
        return refused("BP-REF-1", "Invalid refund request")
      }
      if (refundCode !== undefined && refundCode.length > 20) return refused("BP-DR-12", "Parameter merchant_refund_code can have 20 characters maximum")
      const payment = hash !== undefined ? payments.get(hash) : [...payments.values()].find((x) => x.merchantPaymentCode === body["merchant_payment_code"])
      if (payment === undefined) return refused("BP-REF-3", "Payment not found")
      if (payment.status !== "CO") return refused("BP-REF-7", "Payment cannot be refunded: it is not confirmed")
      if (refundCode !== undefined && payment.refunds.some((r) => r.merchantRefundCode === refundCode)) {
        return refused(duplicateRefundCode, `Refund already exists with merchant_refund_code: ${refundCode}`)
      }
      const counted = payment.refunds.filter((r) => r.status !== "CA").map((r) => decimal(r.amountText))
      const total = [...counted, decimal(amountText)].reduce(BigDecimal.sum)
      if (BigDecimal.isGreaterThan(total, decimal(payment.amountText))) return refused(exceedingRefundCode, "Refund amount exceeds what is left of the payment")
      const made: SimulatedRefund = {
        id: String(9000 + ++sequence), merchantRefundCode: refundCode, amountText, status: refundMode === "confirm" ? "CO" : "RE",
        confirmedAt: refundMode === "confirm" ? nowMs() : undefined
      }
      payment.refunds.push(made)
      return answerOf(payment, { refund: refundView(made), operation: "refund" })
    }

    const route = (req: SimulatorRequest, body: Record<string, unknown>): Answer => {
      if (req.path === "/ws/direct") return direct(req.body, body)
      if (req.path === "/ws/query") return query(body)
      return refund(req.body, body)
    }

    const paths = new Set(["/ws/direct", "/ws/query", "/ws/refund"])
    const server = yield* serve((req) => {
      received.push({ path: req.path, body: req.body, headers: req.headers })
      if (req.method !== "POST" || !paths.has(req.path)) return { authorized: false, answer: { status: 404, body: "Not Found" } }
      mode = modePath === undefined || modePath === req.path ? chosenMode : "ok"
      const denied = Rules.authRefusal(req.headers, req.body, integrationKey, options.jws)
      if (mode === "unavailable") return { authorized: denied === undefined, answer: { status: 503, body: "Service Unavailable" } }
      const body = Rules.objectOf(req.body) ?? {}
      const cannedBody = canned.get(req.path)
      if (denied === undefined && cannedBody !== undefined) canned.delete(req.path)
      return {
        authorized: denied === undefined,
        answer: denied !== undefined
          ? refused(denied.code, denied.message)
          : cannedBody !== undefined
          ? { status: 200, body: cannedBody }
          : route(req, body),
        delayMs: denied === undefined && mode === "slow" ? options.slowMs ?? 1_500 : 0
      }
    })

    const notify = (payment: SimulatedPayment, type: string) =>
      server.sendCallback(
        target ?? String(payment.body["notification_url"]),
        { "content-type": "application/x-www-form-urlencoded" },
        notificationBody([payment.hash], type),
        { drop: dropping }
      )

    const setStatus = (hash: string, status: string, statusDate?: string, reason?: string) =>
      Effect.promise(async () => {
        const payment = payments.get(hash)
        if (payment === undefined) throw new Error(`simulator: no payment '${hash}'`)
        payment.status = status
        if (status === "CO" && payment.confirmedAt === undefined) payment.confirmedAt = nowMs()
        payment.statusDate = statusDate ?? now()
        payment.cancelReason = reason
        await notify(payment, "update")
      })

    const moveRefund = (refundId: string, status: string) =>
      Effect.promise(async () => {
        const payment = [...payments.values()].find((p) => p.refunds.some((r) => r.id === refundId))
        if (payment === undefined) throw new Error(`simulator: no refund '${refundId}'`)
        const moved = payment.refunds.find((r) => r.id === refundId)!
        moved.status = status
        if (status === "CO" && moved.confirmedAt === undefined) moved.confirmedAt = nowMs()
        await notify(payment, "refund")
      })

    /** Every confirmed payment, confirmed refund and chargeback, for the report. */
    const booked = (): ReadonlyArray<BookedMove> =>
      [...payments.values()].flatMap((p) => {
        const base = { hash: p.hash, merchantPaymentCode: p.merchantPaymentCode, amountText: p.amountText, currency: String(p.body["currency_code"]), openedAt: p.openedAt }
        return [
          ...(p.confirmedAt === undefined ? [] : [{ ...base, kind: "Payment" as const, at: p.confirmedAt }]),
          ...p.refunds.flatMap((r) =>
            r.status !== "CO" || r.confirmedAt === undefined ? [] : [{ ...base, kind: "Refund" as const, refundId: r.id, amountText: r.amountText, at: r.confirmedAt }]
          ),
          ...(p.chargedBackAt === undefined ? [] : [{ ...base, kind: "Chargeback" as const, at: p.chargedBackAt }])
        ]
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
      fail: (hash, reason) => setStatus(hash, "CA", `${today()} 00:00:00`, reason ?? "cancelled"),
      expire: (hash) =>
        Effect.suspend(() => {
          const due = payments.get(hash)?.dueDate ?? today()
          const after = new Date(Date.parse(`${due}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
          return setStatus(hash, "CA", `${after} 00:00:01`, "expired")
        }),
      setStatus: (hash, status) => setStatus(hash, status),
      setRefundMode: (next) => Effect.sync(() => void (refundMode = next)),
      settleRefund: (refundId) => moveRefund(refundId, "CO"),
      rejectRefund: (refundId) => moveRefund(refundId, "CA"),
      setRefundStatus: moveRefund,
      answerNext: (path, body) => Effect.sync(() => void canned.set(path, body)),
      setCallbackTarget: (url) => Effect.sync(() => void (target = url)),
      dropCallbacks: (drop) => Effect.sync(() => void (dropping = drop)),
      setErrorHttpStatus: (status) => Effect.sync(() => void (errorHttpStatus = status)),
      received,
      chargeback: (hash) =>
        Effect.sync(() => {
          const payment = payments.get(hash)
          if (payment === undefined || payment.confirmedAt === undefined) throw new Error(`simulator: no confirmed payment '${hash}'`)
          payment.chargedBackAt ??= nowMs()
        }),
      reports: makeSimulatorReports(booked)
    } satisfies EbanxSimulator
  })

export const EbanxSimulator = { start, invalidDocument, duplicateRefundCode, exceedingRefundCode, notificationBody, eftCodeMissing: Rules.eftCodeMissing }
