/**
 * A small Pagar.me Core API v5 on `node:http` at `127.0.0.1:<free port>`, answering as the
 * documentation and the official Node SDK (`@pagarme/pagarme-nodejs-sdk` 7.0.2, see README)
 * describe it: what the connector, the conformance kit and the SDK
 * (`test/providers/PagarmeSdk.test.ts`) are tested against over real sockets. A test tool, never
 * imported by the plugin. Paths are matched without case (the SDK writes `/Charges/{id}/metadata`).
 *
 * - Every call needs `Authorization: Basic base64(<secret key>:)` (any password), else `401`
 *   `{ message: "Authorization has been denied for this request." }`. `GET /.well-known/jwks.json`
 *   (the webhook keys, which Pagar.me serves at hubapi.pagar.me) needs none.
 * - `POST /orders`: refusals in `SimulatorRules.ts` (`422` by field). A card order ends as its
 *   card says (`SimulatorCards.ts`: Pagar.me's test cards and ours). Answer `200`: the order,
 *   `pending` (PIX, boleto), with its one charge (`ch_...`, `code` = the order's `code`) and its transaction:
 *   PIX `qr_code`, `qr_code_url`, `expires_at`; boleto `url`, `pdf`, `line`, `barcode`. An
 *   `Idempotency-Key` seen before answers exactly what it answered first (status and body,
 *   documented: the key and the status of the first answer are kept 24 hours), whatever the body.
 * - `GET /orders/{id}`, `GET /orders?code=`, `GET /charges/{id}` (`404` `{ message }` when
 *   unknown), `GET /charges/{id}/transactions` (`{ data, paging }`), `PATCH /charges/{id}/metadata`
 *   (`{ metadata }` replaces the charge's metadata).
 * - `POST /charges/{id}/capture`, and `DELETE /charges/{id}` of an `auth_only` card charge held:
 *   `SimulatorCapture.ts`.
 * - `DELETE /charges/{id}`: see `SimulatorRefunds.ts`; the same `Idempotency-Key` answers its
 *   first answer again.
 * - Modes ({@link Mode}): `ok`; `unavailable` = `500` on every call; `slow` = the work is done
 *   but the answer comes after `slowMs`; `slow_writes` = the same for `POST`, `DELETE` and
 *   `PATCH` only, reads answer at once (so a lost-answer test reaches the write after its lookup);
 *   `slow_cancels` = the same for `DELETE` only (a refund whose answer is lost);
 *   `decline` = orders are created `failed` (charge
 *   `failed`, transaction `with_error` + gateway errors); `echo` = every authenticated call is
 *   `400` with the request's `Authorization` header in its body (the secret-leak test).
 * - `setFault(fault)` answers in the simulator's place whatever a test's {@link Fault} answers
 *   (a marker write refused after a refund, a read that fails).
 * - `expireIdempotencyKeys()` forgets every key, as Pagar.me does 24 hours after a key's first use.
 * - Controls: `complete(chargeId)` (`paid`), `fail(chargeId)` (`failed`), `expire(chargeId)`
 *   (`failed`, transaction `expired`), `setStatus(chargeId, status)`; refunds:
 *   `setRefundsPending(true)` makes new PIX refunds `pending_refund`, `settleRefund(id)` /
 *   `rejectRefund(id)` decide one. Each change POSTs a webhook to the callback target
 *   (`setCallbackTarget`; Pagar.me's webhooks are configured per account, not per order):
 *   `{ id: "hook_...", account, type, created_at, data }` (`charge.paid` + `order.paid`,
 *   `charge.payment_failed` + `order.payment_failed`, `charge.refunded`, else `charge.updated`)
 *   signed `X-Webhook-Asymmetric-Signature: alg=RS256; kid=<kid>; signature=<base64url>` with
 *   `node:crypto`, independently of the plugin's verifier. `dropCallbacks(true)` loses them.
 * - Payables: `GET /payables` of what it was asked, see `SimulatorReport.ts`;
 *   `reports` is its `SimulatorReports` plus `setFaults`. A charge records when it was paid and
 *   charged back (`setStatus(id, "chargedback")`), a refund when it was paid.
 */
import { createSign, generateKeyPairSync, type KeyObject, randomUUID } from "node:crypto"
import { Effect, Option, Schema, type Scope } from "effect"
import { type Answer, type RecordedRequest, type SentCallback, serve, type SimulatorRequest } from "../kit/SimulatorServer.ts"
import { captureCharge, isHeldAuthorization, voidAuthorization } from "./SimulatorCapture.ts"
import { cardPayment } from "./SimulatorCards.ts"
import { cancelCharge, decide } from "./SimulatorRefunds.ts"
import { makePayables, type SimulatorPayables } from "./SimulatorReport.ts"
import { chargeView, invalid, orderAmount, orderView, refusalOf, type SimCharge, type SimOrder } from "./SimulatorRules.ts"
import * as Wire from "./Wire.ts"

export type { RecordedRequest, SentCallback, SimCharge, SimOrder }

export type Mode = "ok" | "unavailable" | "slow" | "slow_writes" | "slow_cancels" | "decline" | "echo"

/**
 * A fault a test injects: asked before every authenticated call, it answers instead of the
 * simulator when it returns an answer (the call then changes nothing).
 */
export type Fault = (req: SimulatorRequest) => Answer | undefined

export interface PagarmeSimulator {
  readonly baseUrl: string
  readonly jwksUrl: string
  readonly orders: ReadonlyMap<string, SimOrder>
  readonly charges: ReadonlyMap<string, SimCharge>
  readonly requests: ReadonlyArray<RecordedRequest>
  readonly callbacksSent: ReadonlyArray<SentCallback>
  readonly setMode: (mode: Mode) => Effect.Effect<void>
  /** Injects a {@link Fault} (undefined removes it). */
  readonly setFault: (fault: Fault | undefined) => Effect.Effect<void>
  readonly complete: (chargeId: string) => Effect.Effect<void>
  readonly fail: (chargeId: string) => Effect.Effect<void>
  readonly expire: (chargeId: string) => Effect.Effect<void>
  readonly setStatus: (chargeId: string, status: string) => Effect.Effect<void>
  readonly setCallbackTarget: (url: string | undefined) => Effect.Effect<void>
  readonly dropCallbacks: (drop: boolean) => Effect.Effect<void>
  /** New PIX refunds are `pending_refund` (true) or `refunded` at once (false, the default). */
  readonly setRefundsPending: (pending: boolean) => Effect.Effect<void>
  /** A `pending_refund` becomes `refunded` (dies when there is none); webhook `charge.refunded`. */
  readonly settleRefund: (refundId: string) => Effect.Effect<void>
  /** A `pending_refund` becomes `failed`: its amount is the charge's again; webhook `charge.updated`. */
  readonly rejectRefund: (refundId: string) => Effect.Effect<void>
  /** Forgets every `Idempotency-Key` (what Pagar.me does 24 hours after a key's first use). */
  readonly expireIdempotencyKeys: () => Effect.Effect<void>
  /** The charge as `GET /charges/{id}` answers it. */
  readonly view: (chargeId: string) => ReturnType<typeof chargeView>
  /** The webhook body Pagar.me would send about a charge (`charge.*`) or its order (`order.*`). */
  readonly webhookBody: (chargeId: string, type: string) => string
  /** Signed headers for a body; with another key (unknown to the JWKS) when `foreignKey`. */
  readonly sign: (rawBody: string, options?: { readonly foreignKey?: boolean }) => Readonly<Record<string, string>>
  /** The payables: `SimulatorReports` plus the faults `GET /payables` applies. */
  readonly reports: Omit<SimulatorPayables, "route">
}

export interface StartOptions {
  readonly secretKey: string
  /** How late `slow` answers are. Default 1 500 ms. */
  readonly slowMs?: number | undefined
}

/** An RS256 key pair with its `kid`, made with `node:crypto`. */
export const keyPair = (kid: string) => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  return { kid, privateKey, publicKey }
}

/** `X-Webhook-Asymmetric-Signature` for `body`, RSASSA-PKCS1-v1_5 SHA-256, `node:crypto`. */
export const signatureOf = (key: { readonly kid: string; readonly privateKey: KeyObject }, body: string): string => {
  const signature = createSign("sha256").update(body, "utf8").sign(key.privateKey).toString("base64url")
  return `alg=RS256; kid=${key.kid}; signature=${signature}`
}

const decodeOrder = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.OrderBody))
const notFound = (what: string): Answer => ({ status: 404, body: { message: `${what} not found.` } })
const unauthorized: Answer = { status: 401, body: { message: "Authorization has been denied for this request." } }
const MetadataBody = Schema.Struct({ metadata: Schema.Record(Schema.String, Schema.String) })
const decodeMetadata = Schema.decodeUnknownOption(Schema.fromJsonString(MetadataBody))

const nextId = (() => {
  let n = 0
  return (prefix: string) => `${prefix}_${(Date.now().toString(36) + (++n).toString(36)).toUpperCase().padStart(16, "0").slice(-16)}`
})()

export const start = (options: StartOptions): Effect.Effect<PagarmeSimulator, never, Scope.Scope> =>
  Effect.gen(function*() {
    const slowMs = options.slowMs ?? 1_500
    const signing = keyPair(`sim-${randomUUID().slice(0, 8)}`)
    const foreign = keyPair(signing.kid)
    const orders = new Map<string, SimOrder>()
    const charges = new Map<string, SimCharge>()
    const memo = new Map<string, Answer>()
    let mode: Mode = "ok"
    let fault: Fault | undefined
    let callbackTarget: string | undefined
    let dropping = false
    let refundsPending = false
    /** The answer being made is late (a card whose answer is lost, `SimulatorCards.ts`). */
    let late = false

    const now = () => new Date().toISOString()
    const view = (c: SimCharge) => chargeView(c, server.baseUrl)

    const createOrder = (raw: string, key: string | undefined): Answer => {
      const decoded = decodeOrder(raw)
      if (Option.isNone(decoded)) return invalid({ order: ["The request body is not a valid order."] })
      const body = decoded.value
      const refusal = refusalOf(body)
      if (refusal !== undefined) return invalid(refusal)
      const method = body.payments[0]!.payment_method as SimCharge["method"]
      const id = nextId("or")
      const at = now()
      const amount = body.payments[0]!.amount ?? orderAmount(body)
      const card = method === "credit_card" ? cardPayment(body, nextId("tran"), amount, at) : undefined
      if (card !== undefined && "refusal" in card) return invalid(card.refusal)
      const declined = mode === "decline"
      const charge: SimCharge = {
        id: nextId("ch"),
        orderId: id,
        orderCode: body.code ?? id,
        amount: body.payments[0]!.amount ?? orderAmount(body),
        method,
        installments: (body.payments[0] as { readonly credit_card?: { readonly installments?: number } }).credit_card?.installments ?? 1,
        status: card?.outcome.chargeStatus ?? (declined ? "failed" : "pending"),
        paidAmount: card?.outcome.chargeStatus === "paid" ? amount : 0,
        paidAt: card?.outcome.chargeStatus === "paid" ? Date.parse(at) : undefined,
        canceledAmount: 0,
        metadata: {},
        transactions: card !== undefined ? [card.transaction] : [{
          id: nextId("tran"),
          kind: "payment",
          type: method,
          amount: body.payments[0]!.amount ?? orderAmount(body),
          status: declined ? "with_error" : method === "pix" ? "waiting_payment" : "generated",
          createdAt: at,
          updatedAt: at
        }],
        customer: body.customer,
        createdAt: at,
        updatedAt: at
      }
      const order: SimOrder = { id, code: charge.orderCode, body, rawBody: raw, idempotencyKey: key, charge }
      orders.set(id, order)
      charges.set(charge.id, charge)
      if (card?.outcome.late === true) late = true
      const rendered = orderView(order, server.baseUrl)
      if (declined) {
        const last = rendered.charges[0]!.last_transaction as { gateway_response: { code: string; errors: Array<{ message: string }> } }
        last.gateway_response = { code: "400", errors: [{ message: "Transação recusada pelo emissor (simulador)" }] }
      }
      return { status: 200, body: rendered }
    }

    /** The same key answers what it answered first; refusals are not kept (a fixed retry may pass). */
    const once = (scope: string, key: string | undefined, create: () => Answer): Answer => {
      if (key === undefined || key === "") return create()
      const earlier = memo.get(`${scope} ${key}`)
      if (earlier !== undefined) return earlier
      const answer = create()
      if (answer.status < 400) memo.set(`${scope} ${key}`, JSON.parse(JSON.stringify(answer)) as Answer)
      return answer
    }

    const route = (req: SimulatorRequest): Answer => {
      if (mode === "unavailable") return { status: 500, body: { message: "An error has occurred." } }
      if (mode === "echo") return { status: 400, body: { message: `rejected ${req.headers.authorization ?? ""}` } }
      const injected = fault?.(req)
      if (injected !== undefined) return injected
      const path = req.path.replace(/\/+$/, "")
      const key = req.headers["idempotency-key"]
      const payables = reports.route(req)
      if (payables !== undefined) return payables
      if (req.method === "POST" && /^\/orders$/i.test(path)) return once("orders", key, () => createOrder(req.body, key))
      if (req.method === "GET" && /^\/orders$/i.test(path)) {
        const code = req.query.get("code")
        const found = [...orders.values()].filter((o) => code === null || o.code === code)
        return { status: 200, body: { data: found.map((o) => orderView(o, server.baseUrl)), paging: { total: found.length } } }
      }
      const order = /^\/orders\/([^/]+)$/i.exec(path)
      if (req.method === "GET" && order !== null) {
        const o = orders.get(decodeURIComponent(order[1]!))
        return o === undefined ? notFound("Order") : { status: 200, body: orderView(o, server.baseUrl) }
      }
      const charge = /^\/charges\/([^/]+)(\/transactions|\/metadata|\/capture)?$/i.exec(path)
      if (charge === null) return notFound("Resource")
      const c = charges.get(decodeURIComponent(charge[1]!))
      if (c === undefined) return notFound("Charge")
      const sub = charge[2]?.toLowerCase()
      if (req.method === "GET" && sub === undefined) return { status: 200, body: view(c) }
      if (req.method === "GET" && sub === "/transactions") {
        return { status: 200, body: { data: c.transactions.map((t) => chargeViewTransaction(c, t.id)), paging: { total: c.transactions.length } } }
      }
      if (req.method === "PATCH" && sub === "/metadata") {
        const body = decodeMetadata(req.body)
        if (Option.isNone(body)) return invalid({ metadata: ["The metadata field is required."] })
        c.metadata = { ...body.value.metadata }
        return { status: 200, body: view(c) }
      }
      if (req.method === "POST" && sub === "/capture") return once(`capture ${c.id}`, key, () => captureCharge(c, req.body, now(), view))
      if (req.method === "DELETE" && sub === undefined) {
        return once(`cancel ${c.id}`, key, () =>
          isHeldAuthorization(c)
            ? voidAuthorization(c, now(), view)
            : cancelCharge(c, req.body, { id: () => nextId("tran"), pending: refundsPending, now: now(), idempotencyKey: key }, view))
      }
      return notFound("Resource")
    }

    const chargeViewTransaction = (c: SimCharge, transactionId: string) => {
      const last = c.transactions
      const t = last.find((x) => x.id === transactionId)!
      return chargeView({ ...c, transactions: [t] }, server.baseUrl).last_transaction
    }

    const reports = makePayables({ charges: () => charges.values(), now: () => Date.now() })

    const server = yield* serve((req) => {
      if (req.method === "GET" && req.path === "/.well-known/jwks.json") {
        const jwk = signing.publicKey.export({ format: "jwk" })
        return { authorized: true, answer: { status: 200, body: { keys: [{ ...jwk, kid: signing.kid, use: "sig", alg: "RS256" }] } } }
      }
      const expected = `Basic ${Buffer.from(`${options.secretKey}:`).toString("base64")}`
      const given = req.headers.authorization ?? ""
      const user = given.startsWith("Basic ") ? Buffer.from(given.slice(6), "base64").toString("utf8").split(":")[0] : undefined
      const authorized = given === expected || user === options.secretKey
      late = false
      const answer = authorized ? route(req) : unauthorized
      return {
        authorized,
        idempotencyKey: req.headers["idempotency-key"],
        answer,
        delayMs: authorized && (late || mode === "slow" || (mode === "slow_writes" && req.method !== "GET") || (mode === "slow_cancels" && req.method === "DELETE")) ? slowMs : 0
      }
    })

    const chargeOf = (id: string) =>
      Effect.suspend(() => {
        const c = charges.get(id)
        return c === undefined ? Effect.die(new Error(`simulator: no charge '${id}'`)) : Effect.succeed(c)
      })

    const webhookBody = (chargeId: string, type: string) => {
      const c = charges.get(chargeId)
      if (c === undefined) throw new Error(`simulator: no charge '${chargeId}'`)
      const data = type.startsWith("order.") ? orderView(orders.get(c.orderId)!, server.baseUrl) : view(c)
      return JSON.stringify({ id: nextId("hook"), account: { id: "acc_SIMULATOR0000000", name: "Simulador" }, type, created_at: now(), data })
    }

    const sign = (rawBody: string, signOptions?: { readonly foreignKey?: boolean }) => ({
      "content-type": "application/json",
      [Wire.signatureHeader]: signatureOf(signOptions?.foreignKey === true ? foreign : signing, rawBody)
    })

    const notify = (c: SimCharge, types: ReadonlyArray<string>) =>
      Effect.promise(async () => {
        if (callbackTarget === undefined) return
        for (const type of types) {
          const body = webhookBody(c.id, type)
          await server.sendCallback(callbackTarget, sign(body), body, { drop: dropping })
        }
      })

    const move = (id: string, status: string, paymentStatus: string | undefined, types: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const c = yield* chargeOf(id)
        const at = now()
        c.status = status
        c.updatedAt = at
        if (status === "paid") c.paidAmount = c.amount
        if (status === "paid" && c.paidAt === undefined) c.paidAt = Date.parse(at)
        if (status === "chargedback" && c.chargedBackAt === undefined) c.chargedBackAt = Date.parse(at)
        const payment = c.transactions.find((t) => t.kind === "payment")
        const settled = c.method === "credit_card" && paymentStatus === "paid" ? "captured" : paymentStatus
        if (payment !== undefined && settled !== undefined) [payment.status, payment.updatedAt] = [settled, at]
        yield* notify(c, types)
      })

    const decideRefund = (refundId: string, outcome: "refunded" | "failed") =>
      Effect.gen(function*() {
        const c = [...charges.values()].find((x) => x.transactions.some((t) => t.id === refundId))
        if (c === undefined || !decide(c, refundId, outcome, now())) {
          return yield* Effect.die(new Error(`simulator: no pending refund '${refundId}'`))
        }
        yield* notify(c, [outcome === "refunded" ? "charge.refunded" : "charge.updated"])
      })

    return {
      baseUrl: server.baseUrl,
      jwksUrl: `${server.baseUrl}/.well-known/jwks.json`,
      orders,
      charges,
      requests: server.requests,
      callbacksSent: server.callbacksSent,
      setMode: (next) => Effect.sync(() => void (mode = next)),
      setFault: (next) => Effect.sync(() => void (fault = next)),
      complete: (id) => move(id, "paid", "paid", ["charge.paid", "order.paid"]),
      fail: (id) => move(id, "failed", "failed", ["charge.payment_failed", "order.payment_failed"]),
      expire: (id) => move(id, "failed", "expired", ["charge.payment_failed"]),
      setStatus: (id, status) => move(id, status, undefined, ["charge.updated"]),
      setCallbackTarget: (url) => Effect.sync(() => void (callbackTarget = url)),
      dropCallbacks: (drop) => Effect.sync(() => void (dropping = drop)),
      expireIdempotencyKeys: () => Effect.sync(() => memo.clear()),
      setRefundsPending: (pending) => Effect.sync(() => void (refundsPending = pending)),
      settleRefund: (id) => decideRefund(id, "refunded"),
      rejectRefund: (id) => decideRefund(id, "failed"),
      view: (id) => {
        const c = charges.get(id)
        if (c === undefined) throw new Error(`simulator: no charge '${id}'`)
        return view(c)
      },
      webhookBody,
      sign,
      reports: { report: reports.report, setFeeRule: reports.setFeeRule, setFaults: reports.setFaults }
    } satisfies PagarmeSimulator
  })

export const PagarmeSimulator = { start, keyPair, signatureOf }
