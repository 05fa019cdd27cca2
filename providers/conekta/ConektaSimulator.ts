/**
 * A small Conekta API on `node:http` at `127.0.0.1:<free port>`, answering as the API reference
 * (github.com/conekta/openapi), its documented examples and the official Node SDK (`conekta`, see
 * README) describe it: what the connector, the conformance kit and the SDK
 * (`test/providers/ConektaSdk.test.ts`) are tested against over real sockets. A test tool, never
 * imported by the plugin.
 *
 * - Every call needs the private key, as `Authorization: Bearer <key>` (the SDK) or
 *   `Basic base64(<key>:)` (the documentation's `curl -u key:`), else `401 authentication_error`.
 * - `POST /orders` (`SimulatorOrders.validateOrder`): `currency` MXN, `customer_info` with `name`,
 *   `email` and `phone` (or the known `customer_id` of the SDK's tests), `line_items`, exactly one
 *   charge of `payment_method.type` `cash` or `spei` whose `amount`, when given, is the items'
 *   total, within the rail's bounds (`Rails.ts`), `expires_at` in the future; `card` / `default`
 *   without a real token is `422` "The token does not exist." (documented example). Answer `200`:
 *   the order `pending_payment`, its charge with the OXXO `reference` and `barcode_url`, or the
 *   SPEI `clabe`.
 * - `GET /orders?search=<text>`: orders whose id, charge `reference_id`, metadata value or customer
 *   email is `<text>`. The charge's `reference_id` is kept and answered as sent.
 * - `GET /orders/{id}` -> the order, or `404 resource_not_found_error` (documented example).
 * - `PUT /orders/{id}` `{ metadata }`: merges the given keys into the order's metadata.
 * - `POST /orders/{id}/refunds` `{ amount, reason }` (reason one of the five documented values):
 *   answers the order with the refund in `charges.data[0].refunds.data` (amount negative). A
 *   settled refund carries no `status`, as in the documented example; a pending one `pending`.
 *   `DELETE /orders/{id}/refunds/{refund_id}` cancels a pending refund (`canceled`).
 * - Modes ({@link Mode}): `ok`; `unavailable` = `500` on every call; `slow` = the work is done but
 *   the answer comes after `slowMs` (`slow_posts`: only the answers to `POST`s, the creating calls); `decline` = `402 processing_error` on `POST /orders`;
 *   `echo` = every call is `422` with the request's `Authorization` header in the error body.
 * - Controls: `complete(id)` (`paid`), `fail(id)` (`canceled`), `setStatus(id, status)` move an
 *   order and POST the event `order.<status>` to the webhook URL (`setWebhookUrl`; Conekta's
 *   webhooks are configured per account, not per order), signed in the `digest` header: base64
 *   RSA-SHA256 of the body with the simulator's own key pair, made with `node:crypto`
 *   (independently of the plugin's verifier; `publicKeyPem` is what `POST /webhook_keys`
 *   would answer). `dropCallbacks(true)` loses them. `setRefundsPending(true)` makes new refunds
 *   `pending`; `settleRefund(id)` settles one; `rejectRefund(id)` cancels it (its amount is the
 *   order's again); both notify the order's event.
 * - `reports`: the transactions (`GET /transactions`) of what it captured, refunded and charged
 *   back in a period, each stamped with the simulator's clock when it happened (`SimulatorReport.ts`).
 */
import { createSign, generateKeyPairSync, randomBytes } from "node:crypto"
import { Clock, Effect, Schema, type Scope } from "effect"
import type { SimulatorReports } from "../kit/SimulatorReports.ts"
import { type Answer, type RecordedRequest, type SentCallback, serve, type SimulatorRequest } from "../kit/SimulatorServer.ts"
import {
  createRefund,
  errorAnswer,
  invalid,
  metadataRefusal,
  notFound,
  orderView,
  restate,
  type SimulatedOrder,
  type SimulatedRefund,
  validateOrder
} from "./SimulatorOrders.ts"
import { type BookedMove, makeSimulatorReports } from "./SimulatorReport.ts"
import * as Wire from "./Wire.ts"

export type { RecordedRequest, SentCallback, SimulatedOrder, SimulatedRefund }

export type Mode = "ok" | "unavailable" | "slow" | "slow_posts" | "decline" | "echo"

export interface ConektaSimulator {
  readonly baseUrl: string
  readonly orders: ReadonlyMap<string, SimulatedOrder>
  readonly requests: ReadonlyArray<RecordedRequest>
  readonly callbacksSent: ReadonlyArray<SentCallback>
  /** The `Accept` header of every request, in order (the API version asked for). */
  readonly acceptHeaders: ReadonlyArray<string | undefined>
  /** The webhook key's `public_key` (SPKI PEM), as `POST /webhook_keys` answers it. */
  readonly publicKeyPem: string
  readonly setMode: (mode: Mode) => Effect.Effect<void>
  readonly complete: (orderId: string) => Effect.Effect<void>
  readonly fail: (orderId: string, failureCode?: string) => Effect.Effect<void>
  readonly setStatus: (orderId: string, status: string) => Effect.Effect<void>
  readonly setWebhookUrl: (url: string | undefined) => Effect.Effect<void>
  readonly dropCallbacks: (drop: boolean) => Effect.Effect<void>
  /** New refunds are `pending` (true) or settled at once (false, the default). */
  readonly setRefundsPending: (pending: boolean) => Effect.Effect<void>
  /** A pending refund is settled (dies when there is none). */
  readonly settleRefund: (refundId: string) => Effect.Effect<void>
  /** A pending refund is cancelled: its amount is the order's again. */
  readonly rejectRefund: (refundId: string) => Effect.Effect<void>
  /** The order as `GET /orders/{id}` answers it. */
  readonly view: (orderId: string) => ReturnType<typeof orderView>
  /** The body of the event Conekta sends about an order, with `payment_status` as given (default: as it is). */
  readonly eventBody: (orderId: string, paymentStatus?: string) => string
  /** The headers Conekta sends with `rawBody`: `digest` signed with the simulator's key. */
  readonly sign: (rawBody: string) => Readonly<Record<string, string>>
  /** Conekta's transactions (`GET /transactions`) of what the simulator captured, refunded and charged back (`SimulatorReport.ts`). */
  readonly reports: SimulatorReports
}

export interface StartOptions {
  readonly privateKey: string
  /** How late `slow` answers are. Default 1 500 ms. */
  readonly slowMs?: number | undefined
}

/** A webhook key pair: Conekta keeps the private key, the merchant gets the public one. */
export const makeKeyPair = () => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  return { privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString() }
}

/** The `digest` of a body: base64 RSA-SHA256 (PKCS#1 v1.5) with the private key, `node:crypto`. */
export const digestOf = (privateKeyPem: string, rawBody: string) =>
  createSign("RSA-SHA256").update(rawBody, "utf8").sign(privateKeyPem, "base64")

export const headersFor = (privateKeyPem: string, rawBody: string): Record<string, string> => ({
  "content-type": "application/json",
  digest: digestOf(privateKeyPem, rawBody)
})

const decodeOrder = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.OrderBody))
const hex = (bytes: number) => randomBytes(bytes).toString("hex")
const base62 = () => randomBytes(12).toString("base64").replace(/[^A-Za-z0-9]/g, "x").slice(0, 17)
const nowSeconds = () => Math.floor(Date.now() / 1000)

const parseJson = (text: string): unknown => {
  try {
    return text.trim() === "" ? undefined : JSON.parse(text)
  } catch {
    return null
  }
}

export const start = (options: StartOptions): Effect.Effect<ConektaSimulator, never, Scope.Scope> =>
  Effect.gen(function*() {
    const slowMs = options.slowMs ?? 1_500
    const keys = makeKeyPair()
    const orders = new Map<string, SimulatedOrder>()
    let mode: Mode = "ok"
    let webhookUrl: string | undefined
    let dropping = false
    let refundsPending = false
    const acceptHeaders: Array<string | undefined> = []
    const clock = yield* Clock.Clock
    const nowMs = () => clock.currentTimeMillisUnsafe()

    const view = (o: SimulatedOrder) => orderView(o, server.baseUrl)

    const eventBody = (o: SimulatedOrder, previous: string, paymentStatus?: string) =>
      JSON.stringify({
        data: { object: { ...view(o), payment_status: paymentStatus ?? o.status }, previous_attributes: { payment_status: previous } },
        livemode: false,
        webhook_status: "pending",
        webhook_logs: [],
        id: hex(12),
        object: "event",
        type: `order.${paymentStatus ?? o.status}`,
        created_at: nowSeconds()
      })

    const notify = async (o: SimulatedOrder, previous: string) => {
      if (webhookUrl === undefined) return
      const body = eventBody(o, previous)
      await server.sendCallback(webhookUrl, headersFor(keys.privateKeyPem, body), body, { drop: dropping })
    }

    const createOrder = (raw: string): Answer => {
      const body = decodeOrder(raw)
      if (body._tag === "None") return invalid("", "request.malformed", "The request body is malformed or misses currency, customer_info or line_items.")
      if (mode === "decline") {
        return errorAnswer(402, "processing_error", "conekta.errors.processing.charge.declined", "Este cargo ha sido declinado.")
      }
      const valid = validateOrder(body.value, nowSeconds())
      if ("status" in valid) return valid
      const order: SimulatedOrder = {
        id: `ord_${base62()}`,
        chargeId: hex(12),
        type: valid.type,
        amount: valid.amount,
        customerInfo: valid.customerInfo,
        lineItems: valid.lineItems,
        metadata: { ...valid.metadata },
        referenceId: valid.referenceId,
        expiresAt: valid.expiresAt ?? nowSeconds() + 30 * 86_400,
        createdAt: nowSeconds(),
        rawBody: raw,
        status: "pending_payment",
        paidAt: undefined,
        failureCode: undefined,
        refunds: []
      }
      orders.set(order.id, order)
      return { status: 200, body: view(order) }
    }

    const search = (text: string | null) => {
      const found = [...orders.values()].filter((o) =>
        text === null || text === "" || o.id === text || o.referenceId === text || Object.values(o.metadata).some((v) => String(v) === text) ||
        o.customerInfo["email"] === text
      )
      return { object: "list", has_more: false, next_page_url: null, previous_page_url: null, data: found.map(view) }
    }

    const route = (req: SimulatorRequest): Answer => {
      if (mode === "unavailable") return errorAnswer(500, "api_error", "conekta.errors.api.system.general_failure", "Internal server error.")
      if (mode === "echo") return errorAnswer(422, "parameter_validation_error", "conekta.errors.parameter_validation", `rejected ${req.headers.authorization ?? ""}`)
      if (req.path === "/orders" && req.method === "POST") return createOrder(req.body)
      if (req.path === "/orders" && req.method === "GET") return { status: 200, body: search(req.query.get("search")) }
      const refund = /^\/orders\/([^/]+)\/refunds(?:\/([^/]+))?\/?$/.exec(req.path)
      if (refund !== null) {
        const o = orders.get(decodeURIComponent(refund[1]!))
        if (o === undefined) return notFound("Order", refund[1]!)
        if (req.method === "POST" && refund[2] === undefined) {
          const refused = createRefund(o, parseJson(req.body), { id: () => hex(12), pending: refundsPending, now: nowSeconds() })
          const made = refused === undefined ? o.refunds[o.refunds.length - 1] : undefined
          if (made !== undefined && made.status === undefined) made.settledAtMs = nowMs()
          return refused ?? { status: 200, body: view(o) }
        }
        const r = o.refunds.find((x) => x.id === refund[2])
        if (req.method === "DELETE" && r !== undefined) {
          if (r.status !== "pending") return errorAnswer(422, "processing_error", "conekta.errors.processing.refund.not_cancelable", "The refund cannot be cancelled.")
          r.status = "canceled"
          restate(o)
          return { status: 200, body: view(o) }
        }
        return notFound("Refund", refund[2] ?? "")
      }
      const one = /^\/orders\/([^/]+)\/?$/.exec(req.path)
      if (one !== null) {
        const o = orders.get(decodeURIComponent(one[1]!))
        if (o === undefined) return notFound("Order", one[1]!)
        if (req.method === "GET") return { status: 200, body: view(o) }
        if (req.method === "PUT") {
          const body = parseJson(req.body)
          const metadata = typeof body === "object" && body !== null ? (body as Record<string, unknown>)["metadata"] : undefined
          const refused = metadataRefusal(metadata)
          if (refused !== undefined) return refused
          o.metadata = { ...o.metadata, ...(metadata as SimulatedOrder["metadata"] | undefined) }
          return { status: 200, body: view(o) }
        }
      }
      return notFound("Resource", req.path)
    }

    const authorizedBy = (header: string | undefined) =>
      header === `Bearer ${options.privateKey}` || header === `Basic ${Buffer.from(`${options.privateKey}:`).toString("base64")}`

    const server = yield* serve((req) => {
      acceptHeaders.push(req.headers.accept)
      const authorized = authorizedBy(req.headers.authorization)
      return {
        authorized,
        answer: authorized || mode === "echo"
          ? route(req)
          : errorAnswer(401, "authentication_error", "conekta.errors.authentication.missing_key", "Please include your access key in your request."),
        delayMs: authorized && (mode === "slow" || (mode === "slow_posts" && req.method === "POST")) ? slowMs : 0
      }
    })

    const orderOf = (id: string) =>
      Effect.suspend(() => {
        const o = orders.get(id)
        return o === undefined ? Effect.die(new Error(`simulator: no order '${id}'`)) : Effect.succeed(o)
      })

    const move = (id: string, status: string, change?: (o: SimulatedOrder) => void) =>
      Effect.gen(function*() {
        const o = yield* orderOf(id)
        const previous = o.status
        o.status = status
        if (status === "paid") o.capturedAtMs ??= nowMs()
        if (status === "charged_back") o.chargedBackAtMs ??= nowMs()
        change?.(o)
        yield* Effect.promise(() => notify(o, previous))
      })

    const decide = (refundId: string, outcome: "settled" | "canceled") =>
      Effect.suspend(() => {
        const o = [...orders.values()].find((x) => x.refunds.some((r) => r.id === refundId && r.status === "pending"))
        if (o === undefined) return Effect.die(new Error(`simulator: no pending refund '${refundId}'`))
        const r = o.refunds.find((x) => x.id === refundId)!
        const previous = o.status
        r.status = outcome === "settled" ? undefined : "canceled"
        if (outcome === "settled") r.settledAtMs = nowMs()
        restate(o)
        return Effect.promise(() => notify(o, previous))
      })

    /** Every capture, settled refund and chargeback, for the report. */
    const booked = (): ReadonlyArray<BookedMove> =>
      [...orders.values()].flatMap((o) => [
        ...(o.capturedAtMs === undefined ? [] : [{ type: "capture" as const, id: `txn_cap_${o.chargeId}`, orderId: o.id, amount: o.amount, at: o.capturedAtMs }]),
        ...o.refunds.flatMap((r) =>
          r.status !== undefined || r.settledAtMs === undefined
            ? []
            : [{ type: "refund" as const, id: `txn_ref_${r.id}`, orderId: o.id, refundId: r.id, amount: r.amount, at: r.settledAtMs }]
        ),
        ...(o.chargedBackAtMs === undefined ? [] : [{ type: "chargeback" as const, id: `txn_chb_${o.chargeId}`, orderId: o.id, amount: o.amount, at: o.chargedBackAtMs }])
      ])

    return {
      baseUrl: server.baseUrl,
      orders,
      requests: server.requests,
      callbacksSent: server.callbacksSent,
      acceptHeaders,
      publicKeyPem: keys.publicKeyPem,
      setMode: (next) => Effect.sync(() => void (mode = next)),
      complete: (id) => Effect.flatMap(Clock.currentTimeMillis, (ms) => move(id, "paid", (o) => void (o.paidAt = Math.floor(ms / 1000)))),
      fail: (id, failureCode) => move(id, "canceled", (o) => void (o.failureCode = failureCode)),
      setStatus: (id, status) => move(id, status),
      setWebhookUrl: (url) => Effect.sync(() => void (webhookUrl = url)),
      dropCallbacks: (drop) => Effect.sync(() => void (dropping = drop)),
      setRefundsPending: (pending) => Effect.sync(() => void (refundsPending = pending)),
      settleRefund: (id) => decide(id, "settled"),
      rejectRefund: (id) => decide(id, "canceled"),
      view: (id) => {
        const o = orders.get(id)
        if (o === undefined) throw new Error(`simulator: no order '${id}'`)
        return view(o)
      },
      eventBody: (id, paymentStatus) => {
        const o = orders.get(id)
        if (o === undefined) {
          // An event about an order this upstream never made (a forgery), shaped like a real one.
          return JSON.stringify({ data: { object: { id, object: "order", payment_status: paymentStatus ?? "paid" } }, object: "event", type: `order.${paymentStatus ?? "paid"}`, created_at: nowSeconds() })
        }
        return eventBody(o, o.status, paymentStatus)
      },
      sign: (rawBody) => headersFor(keys.privateKeyPem, rawBody),
      reports: makeSimulatorReports(booked)
    } satisfies ConektaSimulator
  })

export const ConektaSimulator = { start, makeKeyPair, digestOf, headersFor }
