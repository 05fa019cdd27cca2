/**
 * A dLocal Payouts API v3 in miniature (`PayoutsWire.ts`), on `SimulatorServer`: what the payout
 * connector and the kit are tested against over real sockets. Test tooling, never imported by
 * the plugin. Notification signatures are made with `node:crypto`, independently of `Signing.ts`.
 *
 * - Authentication (https://docs.dlocal.com/reference/security-payouts-v3): `POST /oauth/token`
 *   with the JSON `{ grant_type: "client_credentials", client_id, client_secret }` of this account
 *   answers `{ access_token, scope: "payouts", expires_in, token_type: "Bearer" }` (tokens live
 *   `tokenLifetimeSeconds`, 180 by default, on the wall clock); other credentials are `401` (the
 *   message echoes the secret it got, as careless APIs do, so scrubbing is tested). Every other
 *   call must carry `Authorization: Bearer <a live token>`, else `401 { code: 3001 }` (echoing the
 *   header it got), and `X-Version: 3.0`, else `400 5017`. A pay-in `V2-HMAC-SHA256` signature
 *   is not a token: refused.
 * - `POST /payouts/v3` -> `200` a `PENDING` payout; a body that does not match is `400 5000`; an
 *   `external_id` already held is `400` {@link duplicateCode}; the account {@link rejectedAccount}
 *   is `400 5005` (invalid bank account). `GET /payouts/v3/{id}` and
 *   `GET /payouts/v3?external_id=` answer the payout or `404 4000`.
 * - Modes: `ok`, `unavailable` (`503`), `slow` (the payout IS created, the answer comes after
 *   `slowMs`), `reject` (`400 5005` on submit).
 * - `complete(id)` / `fail(id, reason)` / `setStatus(id, status)` move a payout and POST it, signed,
 *   to its `notification_url` (or the callback target); `dropCallbacks(true)` loses them.
 * - Token controls: `expireTokens` revokes every token issued so far (dLocal's lapse before the
 *   connector expected it); `refuseBearer(true)` refuses every token, even new ones. `tokenRequests`
 *   (the raw bodies), `issuedTokens` and `payoutCalls` (path, `Authorization`, `X-Version`,
 *   accepted) record what the connector sent.
 */
import { Effect, Option, Schema, type Scope } from "effect"
import { randomUUID } from "node:crypto"
import { type Answer, type SentCallback, serve, type SimulatorRequest } from "../kit/SimulatorServer.ts"
import * as Wire from "./PayoutsWire.ts"
import { amountTextOf, authorizationOf, notificationHeaders } from "./SimulatorSigning.ts"

export type Mode = "ok" | "unavailable" | "slow" | "reject"

export const duplicateCode = 5008
export const rejectedAccount = "000000000000000000"

export interface SimulatedPayout {
  readonly id: string
  readonly external_id: string
  /** The amount exactly as the request's JSON wrote it. */
  readonly amountText: string
  readonly body: Wire.PayoutBody
  status: string
  statusDetail: string
}

export interface PayoutCall {
  readonly method: string
  readonly path: string
  readonly authorization: string | undefined
  readonly version: string | undefined
  readonly accepted: boolean
}

export interface PayoutsSimulator {
  readonly baseUrl: string
  readonly payouts: ReadonlyMap<string, SimulatedPayout>
  /** The raw bodies of `POST /oauth/token`, in order. */
  readonly tokenRequests: ReadonlyArray<string>
  readonly issuedTokens: ReadonlyArray<string>
  readonly payoutCalls: ReadonlyArray<PayoutCall>
  /** dLocal's id of the payout with this `external_id` (throws when none). */
  readonly payoutIdOf: (externalId: string) => string
  readonly expireTokens: Effect.Effect<void>
  readonly refuseBearer: (refuse: boolean) => Effect.Effect<void>
  readonly callbacksSent: ReadonlyArray<SentCallback>
  readonly setMode: (mode: Mode) => Effect.Effect<void>
  readonly complete: (id: string) => Effect.Effect<void>
  readonly fail: (id: string, reason: string) => Effect.Effect<void>
  readonly setStatus: (id: string, status: string, detail?: string) => Effect.Effect<void>
  readonly setCallbackTarget: (url: string | undefined) => Effect.Effect<void>
  readonly dropCallbacks: (drop: boolean) => Effect.Effect<void>
}

/** The account: its Payouts v3 OAuth2 client, and the login and secret key notifications are signed with. */
export interface Credentials {
  readonly clientId: string
  readonly clientSecret: string
  readonly login: string
  readonly secretKey: string
}
export { authorizationOf }

const TokenBody = Schema.Struct({ grant_type: Schema.Literal("client_credentials"), client_id: Schema.String, client_secret: Schema.String })
const decodeToken = Schema.decodeUnknownOption(Schema.fromJsonString(TokenBody))

const decodeBody = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.PayoutBody))

const error = (status: number, code: number, message: string): Answer => ({ status, body: { code, message } })

export const start = (
  credentials: Credentials,
  options: { readonly slowMs?: number | undefined; readonly tokenLifetimeSeconds?: number | undefined } = {}
): Effect.Effect<PayoutsSimulator, never, Scope.Scope> =>
  Effect.gen(function*() {
    const payouts = new Map<string, SimulatedPayout>()
    const tokenRequests: Array<string> = []
    const issuedTokens: Array<string> = []
    const payoutCalls: Array<PayoutCall> = []
    /** Live tokens and when they lapse (wall clock, ms). */
    const live = new Map<string, number>()
    const lifetimeSeconds = options.tokenLifetimeSeconds ?? 180
    let refusing = false
    let mode: Mode = "ok"
    let target: string | undefined
    let dropping = false
    let sequence = 0

    const view = (payout: SimulatedPayout) => ({
      id: payout.id,
      external_id: payout.external_id,
      status: payout.status,
      status_code: { PENDING: "100", PAID: "200", REJECTED: "300", CANCELLED: "400" }[payout.status] ?? "0",
      status_detail: payout.statusDetail,
      country: payout.body.country,
      currency: payout.body.currency,
      payment_method_id: payout.body.payment_method_id
    })

    const submit = (raw: string): Answer => {
      const body = decodeBody(raw)
      const amountText = amountTextOf(raw)
      if (Option.isNone(body) || amountText === undefined || !(Number(amountText) > 0)) {
        return error(400, 5000, "Invalid request: the body does not match the API")
      }
      if (mode === "reject" || body.value.beneficiary.bank_account.account === rejectedAccount) {
        return error(400, 5005, "Invalid beneficiary bank account")
      }
      if ([...payouts.values()].some((p) => p.external_id === body.value.external_id)) {
        return error(400, duplicateCode, "Duplicate external_id")
      }
      const payout: SimulatedPayout = {
        id: `PO-${String(++sequence).padStart(6, "0")}`,
        external_id: body.value.external_id,
        amountText,
        body: body.value,
        status: "PENDING",
        statusDetail: "The payout is pending"
      }
      payouts.set(payout.id, payout)
      return { status: 200, body: view(payout) }
    }

    const issue = (raw: string): Answer => {
      tokenRequests.push(raw)
      const body = decodeToken(raw)
      if (Option.isNone(body) || body.value.client_id !== credentials.clientId || body.value.client_secret !== credentials.clientSecret) {
        const said = Option.isSome(body) ? body.value.client_secret : ""
        return error(401, 3001, `Invalid client credentials: ${said}`)
      }
      const token = `dl_at_${randomUUID()}`
      issuedTokens.push(token)
      live.set(token, Date.now() + lifetimeSeconds * 1000)
      return { status: 200, body: { access_token: token, scope: "payouts", expires_in: lifetimeSeconds, token_type: "Bearer" } }
    }

    /** Whether the call carries a live token this account was issued. */
    const bearerOf = (req: SimulatorRequest) => {
      const token = /^Bearer (\S+)$/.exec(req.headers["authorization"] ?? "")?.[1]
      const lapses = token === undefined ? undefined : live.get(token)
      return !refusing && lapses !== undefined && Date.now() < lapses
    }

    const route = (req: SimulatorRequest): Answer => {
      if (mode === "unavailable") return error(503, 5000, "Service unavailable")
      if (req.headers["x-version"] !== "3.0") return error(400, 5017, "Invalid API Version")
      if (req.method === "POST" && req.path === "/payouts/v3") return submit(req.body)
      if (req.method === "GET" && req.path === "/payouts/v3") {
        const found = [...payouts.values()].find((p) => p.external_id === req.query.get("external_id"))
        return found === undefined ? error(404, 4000, "Payout not found") : { status: 200, body: view(found) }
      }
      const match = /^\/payouts\/v3\/([^/]+)$/.exec(req.path)
      if (req.method === "GET" && match !== null) {
        const found = payouts.get(decodeURIComponent(match[1]!))
        return found === undefined ? error(404, 4000, "Payout not found") : { status: 200, body: view(found) }
      }
      return error(404, 4000, "Not found")
    }

    const server = yield* serve((req) => {
      if (req.method === "POST" && req.path === "/oauth/token") {
        const answer = mode === "unavailable" ? error(503, 5000, "Service unavailable") : issue(req.body)
        return { authorized: answer.status === 200, idempotencyKey: undefined, answer }
      }
      const ok = bearerOf(req)
      payoutCalls.push({ method: req.method, path: req.path, authorization: req.headers["authorization"], version: req.headers["x-version"], accepted: ok })
      return {
        authorized: ok,
        idempotencyKey: undefined,
        answer: ok ? route(req) : error(401, 3001, `Invalid or expired token: ${req.headers["authorization"] ?? ""}`),
        delayMs: ok && mode === "slow" ? options.slowMs ?? 1_500 : 0
      }
    })

    const setStatus = (id: string, status: string, detail?: string) =>
      Effect.promise(async () => {
        const payout = payouts.get(id)
        if (payout === undefined) throw new Error(`simulator: no payout '${id}'`)
        payout.status = status
        payout.statusDetail = detail ?? `The payout is ${status.toLowerCase()}`
        const body = JSON.stringify(view(payout))
        await server.sendCallback(target ?? payout.body.notification_url, notificationHeaders(credentials, body), body, { drop: dropping })
      })

    return {
      baseUrl: server.baseUrl,
      payouts,
      tokenRequests,
      issuedTokens,
      payoutCalls,
      payoutIdOf: (externalId) => {
        const found = [...payouts.values()].find((p) => p.external_id === externalId)
        if (found === undefined) throw new Error(`simulator: no payout '${externalId}'`)
        return found.id
      },
      expireTokens: Effect.sync(() => live.clear()),
      refuseBearer: (refuse) => Effect.sync(() => void (refusing = refuse)),
      callbacksSent: server.callbacksSent,
      setMode: (next) => Effect.sync(() => void (mode = next)),
      complete: (id) => setStatus(id, "PAID", "The payout was paid"),
      fail: (id, reason) => setStatus(id, "REJECTED", reason),
      setStatus,
      setCallbackTarget: (url) => Effect.sync(() => void (target = url)),
      dropCallbacks: (drop) => Effect.sync(() => void (dropping = drop))
    } satisfies PayoutsSimulator
  })

export const PayoutsSimulator = { start, authorizationOf, rejectedAccount, duplicateCode }
