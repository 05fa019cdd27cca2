/**
 * A small Mercado Pago Payments API on `node:http` at `127.0.0.1:<free port>`, answering as the
 * documentation and the official Node SDK (`mercadopago`, see README) describe it: what the
 * connector, the conformance kit and the SDK (`test/providers/MercadoPagoSdk.test.ts`) are tested
 * against over real sockets. A test tool, never imported by the plugin.
 *
 * - Every call needs `Authorization: Bearer <access token>`, else `401`.
 * - `POST /v1/payments` needs `X-Idempotency-Key` (else `400`, cause `4292`) and a body with
 *   `transaction_amount` (a positive JSON number), `payment_method_id` (a method of `Rails.ts`) and
 *   `payer.email`; the rest is optional, as in the documentation's minimal PIX body. Boleto
 *   (`bolbradesco`) also needs `payer.identification` and `payer.address` with `zip_code`,
 *   `street_name`, `street_number`, `neighborhood`, `city` and `federal_unit` (BACEN rule, 2024);
 *   PSE needs `transaction_details.financial_institution`, `callback_url`, `payer.entity_type`.
 *   A bad body is `400 bad_request`; the document {@link invalidDocument} is cause `2067`, the
 *   payer email {@link mixedUsersEmail} cause `2034` "Invalid users involved". Answer `201`: the
 *   payment, `pending`, with its PIX QR data and `ticket_url`, or its voucher under
 *   `transaction_details` (`external_resource_url`; boleto adds `barcode.content`, 44 digits, and
 *   `digitable_line`, 47). The same key answers the payment it made first, whatever the body
 *   (documented: "If the payment has already been created, your information is returned").
 * - `GET /v1/payments/{id}` -> `200` the payment, or `404` (cause `2000` "Payment not found").
 * - Cards: `POST` / `GET /v1/card_tokens[/{id}]`, and a card payment (`payment_method_id`
 *   `visa`, `master`, `amex`, `elo`, `hipercard` with `token` and `installments`) ending as its
 *   cardholder's name says: see `SimulatorCards.ts`. `GET /v1/payments/search?external_reference=`
 *   answers `{ paging, results }`, the newest first.
 * - Refunds (`POST`, `GET /v1/payments/{id}/refunds[/{refund_id}]`): see `SimulatorRefunds.ts`.
 * - Modes ({@link Mode}): `ok`; `unavailable` = `500 internal_error` on every call; `slow` = the
 *   work is done (a payment IS created) but the answer comes after `slowMs`; `decline` = payments
 *   are created `rejected` (`rejected_by_bank`); `conflict` = `409` (the documented idempotency
 *   answer "The process has not been completed yet. Try again later.", cause `401001`); `locked` =
 *   `423`; `failed_dependency` = `424` (the SDK's classes for them: key temporarily locked and a
 *   dependency failed, neither a verdict); `echo` = every call is `400` with the request's
 *   `Authorization` header in the error body (for the secret-leak test).
 * - `complete(id)` (`approved` / `accredited`), `fail(id, detail)` (`rejected`), `setStatus(id,
 *   status, detail?)` move a payment and POST its Webhooks notification to its `notification_url`
 *   (host and path replaced by the callback target when one is set; its query kept) with
 *   `data.id=<id>&type=payment` appended, body `{ action, api_version, data: { id }, date_created,
 *   id, live_mode, type: "payment", user_id }` and headers `x-request-id` and `x-signature:
 *   ts=<unix s>,v1=<hex HMAC-SHA256 of id:<data.id>;request-id:<x-request-id>;ts:<ts>;>` with
 *   `data.id` as it is in the URL, computed with `node:crypto`, independently of the plugin's
 *   verifier. A `notification_url` without `source_news=webhooks` also gets the legacy IPN
 *   (`?topic=payment&id=<id>`, unsigned), as Mercado Pago documents. `dropCallbacks(true)` loses
 *   them instead. (The real API also notifies `payment.created`; the simulator does not.)
 * - Refund controls: `setRefundsPending(true)` makes new refunds `in_process`; `settleRefund(id)`
 *   and `rejectRefund(id)` decide one (and notify its payment like `setStatus`).
 * - `view(id)` is the payment as `GET /v1/payments/{id}` answers it.
 * - Reports: the release report API and CSV, see `SimulatorReport.ts`; `reports` is the
 *   simulator's `SimulatorReports` (`report`, `setFeeRule`) plus `setFaults` for the reports the API
 *   generates. A payment records when it was approved (`approvedAt`) and charged back
 *   (`setStatus(id, "charged_back")`), a refund when it was paid.
 */
import { createHmac, randomUUID } from "node:crypto"
import { BigDecimal, Clock, Effect, Option, Schema, type Scope } from "effect"
import { Money } from "../../core/ports/index.ts"
import { type Answer, type RecordedRequest, type SentCallback, serve, type SimulatorRequest } from "../kit/SimulatorServer.ts"
import { rails } from "./Rails.ts"
import { makeCards } from "./SimulatorCards.ts"
import {
  boletoAddressFields,
  invalidDocument,
  mixedUsersEmail,
  type Mode,
  modeAnswers,
  type PaymentView,
  refusalOf,
  type SimulatedPayment,
  viewOf
} from "./SimulatorPayments.ts"
import { createRefund, decideRefund, errorAnswer as error, type SimulatedRefund, viewRefund } from "./SimulatorRefunds.ts"
import { makeReleaseReports, type ReleaseReports } from "./SimulatorReport.ts"
import * as Wire from "./Wire.ts"

export type { Mode, PaymentView, RecordedRequest, SentCallback, SimulatedPayment, SimulatedRefund }

export { invalidDocument, mixedUsersEmail }

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
  /** New refunds are `in_process` (true) or `approved` at once (false, the default). */
  readonly setRefundsPending: (pending: boolean) => Effect.Effect<void>
  /** An `in_process` refund becomes `approved` (dies when there is none). */
  readonly settleRefund: (refundId: string) => Effect.Effect<void>
  /** An `in_process` refund becomes `rejected`: its amount is the payment's again. */
  readonly rejectRefund: (refundId: string) => Effect.Effect<void>
  /** The payment as `GET /v1/payments/{id}` answers it. */
  readonly view: (paymentId: string) => PaymentView
  /** The body Mercado Pago sends about a payment. */
  readonly notificationBody: (paymentId: string) => string
  /** `x-signature` and `x-request-id` for a notification body, at the Effect clock unless given. */
  readonly sign: (rawBody: string, timestampSeconds?: number) => Effect.Effect<Readonly<Record<string, string>>>
  /** The release report: `SimulatorReports` plus the faults of API-generated reports. */
  readonly reports: Omit<ReleaseReports, "route">
}

export interface StartOptions {
  readonly accessToken: string
  readonly webhookSecret: string
  /** How late `slow` answers are. Default 1 500 ms. */
  readonly slowMs?: number | undefined
  /** The account's currency, the release report's (default BRL): payments in others are not in it. */
  readonly accountCurrency?: string | undefined
  /** How long a requested release report takes to be generated. Default 300 ms. */
  readonly reportReadyMs?: number | undefined
}

/** The `x-signature` value of a notification about `dataId` (as it is in the URL), `node:crypto`. */
export const signatureOf = (secret: string, dataId: string, requestId: string, timestampSeconds: number): string => {
  const manifest = `id:${dataId};request-id:${requestId};ts:${timestampSeconds};`
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

const nowSeconds = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))

const notFound = error(404, "not_found", "Payment not found", { code: 2000, description: "Payment not found" })

export const start = (options: StartOptions): Effect.Effect<MercadoPagoSimulator, never, Scope.Scope> =>
  Effect.gen(function*() {
    const slowMs = options.slowMs ?? 1_500
    const charges = new Map<string, SimulatedPayment>()
    const memo = new Map<string, Answer>()
    let mode: Mode = "ok"
    let callbackTarget: string | undefined
    let dropping = false
    let refundsPending = false
    let sequence = 0
    let notifications = 0
    const cards = makeCards()
    /** Set by a payment whose answer is late (a card of holder `LATE`): the next answer waits `slowMs`. */
    let lateAnswer = false

    const nextId = () => String(90_000_000_000 + ++sequence)
    const view = (p: SimulatedPayment) => viewOf(p, server.baseUrl)

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

    /** The notification URL with the callback target's origin and path, its own query kept. */
    const targetOf = (notificationUrl: string) => {
      const target = new URL(notificationUrl)
      if (callbackTarget === undefined) return target
      const override = new URL(callbackTarget)
      override.search = target.search
      return override
    }

    const notify = async (p: SimulatedPayment, timestampSeconds: number): Promise<void> => {
      if (p.notificationUrl === undefined && callbackTarget === undefined) return
      const base = p.notificationUrl ?? callbackTarget!
      const webhook = targetOf(base)
      webhook.searchParams.set("data.id", p.id)
      webhook.searchParams.set("type", "payment")
      const body = notificationBody(p.id)
      const dataId = webhook.searchParams.get("data.id")!
      const requestId = randomUUID()
      const headers = { "content-type": "application/json", "x-request-id": requestId, "x-signature": signatureOf(options.webhookSecret, dataId, requestId, timestampSeconds) }
      await server.sendCallback(webhook.toString(), headers, body, { drop: dropping })
      if (new URL(base).searchParams.get("source_news") !== "webhooks") {
        // Documented: without `source_news=webhooks`, the legacy IPN is sent too, unsigned.
        const ipn = targetOf(base)
        ipn.searchParams.set("topic", "payment")
        ipn.searchParams.set("id", p.id)
        await server.sendCallback(ipn.toString(), { "content-type": "application/json" }, JSON.stringify({ resource: p.id, topic: "payment" }), { drop: dropping })
      }
    }

    const createPayment = (raw: string, key: string): Answer => {
      const parsed = decodePayment(raw)
      if (Option.isNone(parsed) || !BigDecimal.isPositive(parsed.value.transaction_amount)) {
        return error(400, "bad_request", "The payment body does not match the API")
      }
      const body = parsed.value
      const refused = refusalOf(body)
      if (refused !== undefined) return refused
      const rail = rails.find((r) => r.paymentMethodId === body.payment_method_id)!
      const id = nextId()
      const card = rail.brand === undefined ? undefined : cards.cardPayment(raw, rail.paymentMethodId, server.baseUrl, id)
      if (card !== undefined && "refusal" in card) return card.refusal
      const payment: SimulatedPayment = {
        id,
        reference: body.external_reference ?? "",
        amount: Money.toText(body.transaction_amount),
        // A card is charged in the account's currency (the card rails' payment_method_id is the same in every country).
        currency: card === undefined ? rail.currency : options.accountCurrency ?? "BRL",
        body,
        rawBody: raw,
        idempotencyKey: key,
        notificationUrl: body.notification_url,
        status: mode === "decline" ? "rejected" : "pending",
        statusDetail: mode === "decline" ? "rejected_by_bank" : rail.paymentMethodId === "pix" ? "pending_waiting_transfer" : "pending_waiting_payment",
        refunded: "0",
        refunds: [],
        ...(card === undefined ? {} : {
          card: { first_six_digits: card.token.number.slice(0, 6), last_four_digits: card.token.number.slice(-4), holder: card.token.holder },
          threeDs: card.threeDs
        })
      }
      if (card !== undefined && mode !== "decline") {
        payment.status = card.outcome.status
        payment.statusDetail = card.outcome.detail
        if (card.outcome.status === "approved") payment.approvedAt = Date.now()
        if (card.outcome.late === true) lateAnswer = true
      }
      charges.set(payment.id, payment)
      return { status: 201, body: view(payment) }
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
      const refusal = modeAnswers[mode]
      if (refusal !== undefined) return refusal
      if (mode === "echo") return error(400, "bad_request", `rejected ${req.headers.authorization ?? ""}`, { code: 1, description: `bad header ${req.headers.authorization ?? ""}` })
      const key = req.headers["x-idempotency-key"]
      if (req.method === "POST" && req.path === "/v1/payments") return once("payments", key, () => createPayment(req.body, key!))
      const card = cards.route(req.method, req.path, req.body, new Date())
      if (card !== undefined) return card
      if (req.method === "GET" && req.path === "/v1/payments/search") {
        const reference = req.query.get("external_reference")
        const found = [...charges.values()].filter((p) => reference === null || p.reference === reference).reverse().map(view)
        return { status: 200, body: { paging: { total: found.length, limit: 30, offset: 0 }, results: found } }
      }
      const report = reports.route(req)
      if (report !== undefined) return report
      const refunds = /^\/v1\/payments\/(\d+)\/refunds(?:\/(\d+))?\/?$/.exec(req.path)
      if (refunds !== null) {
        const p = charges.get(refunds[1]!)
        if (p === undefined) return notFound
        if (req.method === "POST" && refunds[2] === undefined) {
          if (key === undefined || key === "") return once("refunds", key, () => notFound)
          return createRefund(p, req.body, key, { id: nextId, pending: refundsPending, now: new Date().toISOString(), nowMs: Date.now() })
        }
        if (req.method === "GET" && refunds[2] === undefined) return { status: 200, body: p.refunds.map((r) => viewRefund(p, r)) }
        const one = p.refunds.find((r) => r.id === refunds[2])
        if (req.method === "GET" && one !== undefined) return { status: 200, body: viewRefund(p, one) }
        return error(404, "not_found", "Refund not found", { code: 2032, description: "Refund not found" })
      }
      const get = /^\/v1\/payments\/([^/]+)$/.exec(req.path)
      if (req.method === "GET" && get !== null) {
        const p = charges.get(decodeURIComponent(get[1]!))
        return p === undefined ? notFound : { status: 200, body: view(p) }
      }
      return error(404, "not_found", "resource not found")
    }

    const reports = makeReleaseReports({
      payments: () => charges.values(),
      accountCurrency: options.accountCurrency ?? "BRL",
      accountId: 1234567890,
      later: (ms, f) => server.later(ms, f),
      readyAfterMs: options.reportReadyMs ?? 300
    })

    const server = yield* serve((req) => {
      const authorized = req.headers.authorization === `Bearer ${options.accessToken}`
      lateAnswer = false
      const answer = authorized || mode === "echo"
        ? route(req)
        : error(401, "unauthorized", "invalid access token", { code: 401, description: "Invalid token" })
      return {
        authorized,
        idempotencyKey: req.headers["x-idempotency-key"],
        answer,
        delayMs: authorized && (mode === "slow" || lateAnswer) ? slowMs : 0
      }
    })

    const paymentOf = (id: string) =>
      Effect.suspend(() => {
        const p = charges.get(id)
        return p === undefined ? Effect.die(new Error(`simulator: no payment '${id}'`)) : Effect.succeed(p)
      })

    const notifyNow = (p: SimulatedPayment) => Effect.flatMap(nowSeconds, (t) => Effect.promise(() => notify(p, t)))

    const setStatus = (paymentId: string, status: string, detail?: string) =>
      Effect.gen(function*() {
        const p = yield* paymentOf(paymentId)
        const at = yield* Clock.currentTimeMillis
        if (status === "approved" && p.approvedAt === undefined) p.approvedAt = at
        if (status === "charged_back" && p.chargedBackAt === undefined) p.chargedBackAt = at
        p.status = status
        p.statusDetail = detail ?? status
        yield* notifyNow(p)
      })

    const decide = (refundId: string, outcome: "approved" | "rejected") =>
      Effect.suspend(() => {
        const p = [...charges.values()].find((c) => c.refunds.some((r) => r.id === refundId))
        return p === undefined || !decideRefund(p, refundId, outcome, Date.now())
          ? Effect.die(new Error(`simulator: no refund in process '${refundId}'`))
          : notifyNow(p)
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
      setRefundsPending: (pending) => Effect.sync(() => void (refundsPending = pending)),
      settleRefund: (id) => decide(id, "approved"),
      rejectRefund: (id) => decide(id, "rejected"),
      view: (id) => {
        const p = charges.get(id)
        if (p === undefined) throw new Error(`simulator: no payment '${id}'`)
        return view(p)
      },
      notificationBody,
      reports: { report: reports.report, setFeeRule: reports.setFeeRule, setFaults: reports.setFaults },
      sign: (rawBody, timestampSeconds) =>
        Effect.map(
          timestampSeconds === undefined ? nowSeconds : Effect.succeed(timestampSeconds),
          (t) => headersFor(options.webhookSecret, rawBody, t)
        )
    } satisfies MercadoPagoSimulator
  })

export const MercadoPagoSimulator = { start, signatureOf, headersFor, invalidDocument, mixedUsersEmail, boletoAddressFields }
