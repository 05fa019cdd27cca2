/**
 * A tiny upstream payment API speaking the wire format of `Wire.ts`, on `node:http` at
 * `127.0.0.1:<free port>`: the thing the reference provider and the conformance kit are tested
 * against over real sockets. A test tool, never imported by the plugin.
 *
 * - `POST /v1/charges` -> `201` a pending charge (`simulate: "paid" | "failed"` settles it at once
 *   and sends its callback). The same `Idempotency-Key` with the same body answers the same
 *   charge again; with another body `409 idempotency_conflict`. A malformed body is
 *   `422 invalid_request`, the document {@link invalidDocument} `422 invalid_document`.
 * - `GET /v1/charges/{id}` -> `200 { id, reference, status, reason? }`, or `404`.
 * - `POST /v1/refunds` -> `201 { id, status }`; more than what is left to refund, or a charge that
 *   is not paid, is `422`. A full refund makes the charge `refunded`. Idempotent like charges.
 *   `GET /v1/refunds?reference=` -> `200 { data: [{ id, status }] }`, the refund made with that
 *   reference, if any. While `holdRefunds(true)`, a new refund is `pending` until
 *   `settleRefund(id)` (`succeeded`) or `rejectRefund(id)` (`failed`: it no longer counts); either
 *   sends the charge's signed callback, which lists its refunds (`refunds: [{ id, status }]`).
 * - Without `Authorization: Bearer <apiKey>`: `401 unauthorized`.
 * - Modes ({@link Mode}): `ok`; `unavailable` = `503` on every API call; `slow` = the work is
 *   done (a charge IS created) but the answer comes after `slowMs`, past the client's timeout, the
 *   way a real lost answer looks; `decline` = `402 card_declined` on charge creation. With
 *   `latencyMs`, every answer leaves that long after the work was done.
 * - `complete(id)` / `fail(id, reason)` / `setStatus(id, status)` move a charge and POST a signed
 *   callback `{ id, reference, status, reason? }` to its `callback_url` (or the callback target),
 *   with `x-upstream-signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">` computed with
 *   `node:crypto`, independently of the plugin's verifier. `dropCallbacks(true)` loses them
 *   instead: only the status poll tells the truth then. Every callback attempt is recorded.
 *
 * Amounts are decimal text, compared and summed as `BigDecimal`.
 */
import { createHmac } from "node:crypto"
import { BigDecimal, Clock, Effect, Option, Schema, type Scope } from "effect"
import {
  type Answer,
  idempotencyMemo,
  type RecordedRequest,
  type SentCallback,
  serve,
  type SimulatorRequest
} from "../kit/SimulatorServer.ts"
import * as Wire from "./Wire.ts"

export type { RecordedRequest, SentCallback }

export type Mode = "ok" | "unavailable" | "slow" | "decline"

/** The buyer document the simulator refuses as invalid (`422 invalid_document`). */
export const invalidDocument = "00000000000"

export interface SimulatedCharge {
  readonly id: string
  readonly reference: string
  readonly amount: string
  readonly currency: string
  readonly body: Wire.ChargeBody
  readonly idempotencyKey: string
  readonly callbackUrl: string
  status: string
  reason: string | undefined
  /** Sum of the refunds, decimal text. */
  refunded: string
  readonly refunds: Array<{ readonly id: string; readonly amount: string; readonly reference: string; status: string }>
}

export interface UpstreamSimulator {
  /** `http://127.0.0.1:<port>`: the plugin's `baseUrl`. */
  readonly baseUrl: string
  /** Live state, by charge id. */
  readonly charges: ReadonlyMap<string, SimulatedCharge>
  /** Every request received, in order. */
  readonly requests: ReadonlyArray<RecordedRequest>
  readonly callbacksSent: ReadonlyArray<SentCallback>
  readonly setMode: (mode: Mode) => Effect.Effect<void>
  /** Marks the charge `succeeded` and sends its callback. */
  readonly complete: (chargeId: string) => Effect.Effect<void>
  /** Marks the charge `failed` with `reason` and sends its callback. */
  readonly fail: (chargeId: string, reason: string) => Effect.Effect<void>
  /** Sets any upstream status, known to the plugin or not, and sends its callback. */
  readonly setStatus: (chargeId: string, status: string, reason?: string) => Effect.Effect<void>
  /** Sends every callback there instead of to the charge's `callback_url` (`undefined` to undo). */
  readonly setCallbackTarget: (url: string | undefined) => Effect.Effect<void>
  /** While true, callbacks are lost (recorded as `dropped`, never sent). */
  readonly dropCallbacks: (drop: boolean) => Effect.Effect<void>
  /** While true, new refunds stay `pending`. */
  readonly holdRefunds: (hold: boolean) => Effect.Effect<void>
  /** A pending refund succeeds. */
  readonly settleRefund: (refundId: string) => Effect.Effect<void>
  /** A pending refund fails: its amount is refundable again. */
  readonly rejectRefund: (refundId: string) => Effect.Effect<void>
  /** The `x-upstream-signature` value for `rawBody`, at the Effect clock time unless given. */
  readonly sign: (rawBody: string, timestampSeconds?: number) => Effect.Effect<string>
}

export interface StartOptions {
  readonly apiKey: string
  readonly callbackSecret: string
  /** How late `slow` answers are. Default 1 500 ms. */
  readonly slowMs?: number | undefined
  /**
   * How long every answer takes in the other modes (the work is done at once, the answer
   * leaves later), so that a load test finds charges whose answer is still on its way. Default 0.
   */
  readonly latencyMs?: number | undefined
}

/** `t=<t>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with `node:crypto`. */
export const signatureOf = (secret: string, rawBody: string, timestampSeconds: number): string =>
  `t=${timestampSeconds},v1=${createHmac("sha256", secret).update(`${timestampSeconds}.${rawBody}`).digest("hex")}`

const decodeCharge = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.ChargeBody))
const decodeRefund = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.RefundBody))

const positiveDecimal = (text: string) =>
  Option.filter(BigDecimal.fromString(text), (d) => BigDecimal.isPositive(d))

const nowSeconds = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))

const error = (status: number, code: string, message: string): Answer => ({ status, body: { error: code, message } })

export const start = (options: StartOptions): Effect.Effect<UpstreamSimulator, never, Scope.Scope> =>
  Effect.gen(function*() {
    const slowMs = options.slowMs ?? 1_500
    const charges = new Map<string, SimulatedCharge>()
    const memo = idempotencyMemo(error(409, "idempotency_conflict", "this key was used with another body"))
    let mode: Mode = "ok"
    let callbackTarget: string | undefined
    let dropping = false
    let holding = false
    let sequence = 0

    const nextId = (prefix: string) => `${prefix}_${String(++sequence).padStart(6, "0")}`

    const view = (charge: SimulatedCharge) => ({
      id: charge.id,
      reference: charge.reference,
      status: charge.status,
      ...(charge.reason === undefined ? {} : { reason: charge.reason }),
      ...(charge.refunds.length === 0 ? {} : { refunds: charge.refunds.map((r) => ({ id: r.id, status: r.status })) })
    })

    const sendCallback = async (charge: SimulatedCharge, timestampSeconds: number): Promise<void> => {
      const body = JSON.stringify(view(charge))
      const url = callbackTarget ?? charge.callbackUrl
      const headers = {
        "content-type": "application/json",
        [Wire.signatureHeader]: signatureOf(options.callbackSecret, body, timestampSeconds)
      }
      await server.sendCallback(url, headers, body, { drop: dropping })
    }

    const createCharge = (raw: string, key: string): Answer => {
      const parsed = decodeCharge(raw)
      if (Option.isNone(parsed) || Option.isNone(positiveDecimal(parsed.value.amount))) {
        return error(422, "invalid_request", "the charge body does not match the API")
      }
      const body = parsed.value
      if (body.customer.document === invalidDocument) return error(422, "invalid_document", "the buyer document is invalid")
      if (mode === "decline") return error(402, "card_declined", "the issuer declined the payment")
      const charge: SimulatedCharge = {
        id: nextId("ch"),
        reference: body.reference,
        amount: body.amount,
        currency: body.currency,
        body,
        idempotencyKey: key,
        callbackUrl: body.callback_url,
        status: body.simulate === "paid" ? "succeeded" : body.simulate === "failed" ? "failed" : "pending",
        reason: body.simulate === "failed" ? "simulated failure" : undefined,
        refunded: "0",
        refunds: []
      }
      charges.set(charge.id, charge)
      if (charge.status !== "pending") {
        // After the answer has left, as a real upstream would.
        server.later(10, () => void sendCallback(charge, Math.floor(Date.now() / 1000)))
      }
      return {
        status: 201,
        body: {
          id: charge.id,
          status: charge.status,
          form_url: `${server.baseUrl}/pay/${charge.id}`,
          payment_data: { method: body.method, reference: charge.id }
        }
      }
    }

    const createRefund = (raw: string): Answer => {
      const parsed = decodeRefund(raw)
      const amount = Option.flatMap(parsed, (body) => positiveDecimal(body.amount))
      if (Option.isNone(parsed) || Option.isNone(amount)) return error(422, "invalid_request", "the refund body does not match the API")
      const body = parsed.value
      const charge = charges.get(body.charge_id)
      if (charge === undefined) return error(404, "charge_not_found", "no such charge")
      if (charge.status !== "succeeded") return error(422, "charge_not_refundable", `the charge is ${charge.status}`)
      if (body.currency !== charge.currency) return error(422, "currency_mismatch", "the refund currency is not the charge's")
      const refunded = BigDecimal.sum(BigDecimal.fromStringUnsafe(charge.refunded), amount.value)
      const total = BigDecimal.fromStringUnsafe(charge.amount)
      if (BigDecimal.isGreaterThan(refunded, total)) return error(422, "amount_exceeds_charge", "more than what is left to refund")
      const refund = { id: nextId("re"), amount: body.amount, reference: body.reference, status: holding ? "pending" : "succeeded" }
      charge.refunds.push(refund)
      charge.refunded = BigDecimal.format(BigDecimal.normalize(refunded))
      if (BigDecimal.equals(refunded, total)) charge.status = "refunded"
      return { status: 201, body: { id: refund.id, status: refund.status } }
    }

    /** Runs `create` once per key, replaying its answer to a retry with the same body. */
    const once = (path: string, key: string | undefined, raw: string, create: () => Answer): Answer =>
      key === undefined || key === ""
        ? error(400, "idempotency_key_required", "send an Idempotency-Key")
        : memo(path, key, raw, create)

    const route = (req: SimulatorRequest): Answer => {
      const { body: raw, path } = req
      if (mode === "unavailable") return error(503, "unavailable", "the upstream is down for maintenance")
      const key = req.headers["idempotency-key"]
      if (req.method === "POST" && path === "/v1/charges") return once(path, key, raw, () => createCharge(raw, key!))
      if (req.method === "POST" && path === "/v1/refunds") return once(path, key, raw, () => createRefund(raw))
      if (req.method === "GET" && path === "/v1/refunds") {
        const reference = req.query.get("reference")
        const made = [...charges.values()].flatMap((c) => c.refunds).filter((r) => r.reference === reference)
        return { status: 200, body: { data: made.map((r) => ({ id: r.id, status: r.status })) } }
      }
      const match = /^\/v1\/charges\/([^/]+)$/.exec(path)
      if (req.method === "GET" && match !== null) {
        const charge = charges.get(decodeURIComponent(match[1]!))
        return charge === undefined ? error(404, "charge_not_found", "no such charge") : { status: 200, body: view(charge) }
      }
      return error(404, "not_found", "no such route")
    }

    const server = yield* serve((req) => {
      const authorized = req.headers.authorization === `Bearer ${options.apiKey}`
      return {
        authorized,
        idempotencyKey: req.headers["idempotency-key"],
        answer: authorized ? route(req) : error(401, "unauthorized", "invalid API key"),
        delayMs: !authorized ? 0 : mode === "slow" ? slowMs : options.latencyMs ?? 0
      }
    })

    const chargeOf = (id: string) =>
      Effect.suspend(() => {
        const charge = charges.get(id)
        return charge === undefined ? Effect.die(new Error(`simulator: no charge '${id}'`)) : Effect.succeed(charge)
      })

    const setStatus = (chargeId: string, status: string, reason?: string) =>
      Effect.gen(function*() {
        const charge = yield* chargeOf(chargeId)
        charge.status = status
        charge.reason = reason
        const t = yield* nowSeconds
        yield* Effect.promise(() => sendCallback(charge, t))
      })

    /** The charge's callback, now (a refund that moved is told with its charge). */
    const notifyNow = (charge: SimulatedCharge) => Effect.flatMap(nowSeconds, (t) => Effect.promise(() => sendCallback(charge, t)))

    const refundOf = (refundId: string) =>
      Effect.suspend(() => {
        for (const charge of charges.values()) {
          const refund = charge.refunds.find((r) => r.id === refundId)
          if (refund !== undefined && refund.status === "pending") return Effect.succeed({ charge, refund })
        }
        return Effect.die(new Error(`simulator: no pending refund '${refundId}'`))
      })

    return {
      baseUrl: server.baseUrl,
      charges,
      requests: server.requests,
      callbacksSent: server.callbacksSent,
      setMode: (next) => Effect.sync(() => void (mode = next)),
      complete: (chargeId) => setStatus(chargeId, "succeeded"),
      fail: (chargeId, reason) => setStatus(chargeId, "failed", reason),
      setStatus,
      setCallbackTarget: (url) => Effect.sync(() => void (callbackTarget = url)),
      dropCallbacks: (drop) => Effect.sync(() => void (dropping = drop)),
      holdRefunds: (hold) => Effect.sync(() => void (holding = hold)),
      settleRefund: (refundId) =>
        Effect.flatMap(refundOf(refundId), ({ charge, refund }) => {
          refund.status = "succeeded"
          return notifyNow(charge)
        }),
      rejectRefund: (refundId) =>
        Effect.flatMap(refundOf(refundId), ({ charge, refund }) => {
          refund.status = "failed"
          charge.refunded = BigDecimal.format(BigDecimal.normalize(BigDecimal.subtract(BigDecimal.fromStringUnsafe(charge.refunded), BigDecimal.fromStringUnsafe(refund.amount))))
          if (charge.status === "refunded") charge.status = "succeeded"
          return notifyNow(charge)
        }),
      sign: (rawBody, timestampSeconds) =>
        Effect.map(
          timestampSeconds === undefined ? nowSeconds : Effect.succeed(timestampSeconds),
          (t) => signatureOf(options.callbackSecret, rawBody, t)
        )
    } satisfies UpstreamSimulator
  })

export const UpstreamSimulator = { start, signatureOf, invalidDocument }
