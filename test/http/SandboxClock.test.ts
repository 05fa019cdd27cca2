/**
 * Sandbox test clocks through the API, as a merchant uses them: advancing a shop's time settles,
 * releases reserves, expires payments and checkout sessions, polls slow payments and retries
 * webhooks at once, while production and other shops keep real time. No test sleeps through the
 * time it moves.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import { FetchHttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "../../adapters/http/api/Api.ts"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import * as Money from "../../core/Money.ts"
import type { SandboxSimulate } from "../../core/ports/PaymentProvider.ts"
import { baseUrl, call, createMerchant, eventually, keepAvailable, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

const day = 86_400

const sandboxKey = Effect.map(createMerchant(), (m) => ({ sk: m.keys.sandbox.secretKey, live: m.keys.production.secretKey, shopId: m.shops[0]!.id }))

const pay = (sk: string, simulate?: SandboxSimulate, paymentMethodId = "sbx_pix") =>
  Effect.flatMap(apiAs(sk), (api) =>
    Effect.map(
      api.payments.create({ payload: { amount: Money.decimal("100"), paymentMethodId }, headers: simulate === undefined ? {} : { "sandbox-simulate": simulate } }),
      (created) => created.transactionId
    ))

const payment = (sk: string, id: string) => Effect.flatMap(apiAs(sk), (api) => api.payments.get({ params: { id } }))
const balance = (sk: string) => Effect.flatMap(apiAs(sk), (api) => Effect.map(api.identity.balance({ query: {} }), (r) => r.balance))
const advance = (sk: string, seconds: number, shopId?: string) =>
  Effect.flatMap(apiAs(sk), (api) =>
    api.sandbox.advance({ payload: shopId === undefined ? { seconds } : { seconds, shopId }, headers: {}, responseMode: "decoded-and-response" }))
const clock = (sk: string, shopId?: string) =>
  Effect.flatMap(apiAs(sk), (api) => api.sandbox.clock({ query: shopId === undefined ? {} : { shopId }, responseMode: "decoded-and-response" }))
const pingTime = (sk: string) => Effect.flatMap(apiAs(sk), (api) => Effect.map(api.ping.ping(), (r) => r.timestamp))

/** The checkout page's client: no credential, the token in the path authenticates. */
const page = Effect.flatMap(baseUrl, (base) => HttpApiClient.make(Api, { baseUrl: base })).pipe(Effect.provide(FetchHttpClient.layer))
const readSession = (token: string) => Effect.flatMap(page, (api) => api.checkoutPublic.getSession({ params: { token }, responseMode: "decoded-and-response" }))

/** `now` of a reading, as seconds ahead of the real time. */
const ahead = (iso: string) => (Date.parse(iso) - Date.now()) / 1000
const near = (actual: number, expected: number, what: string) => assert.isTrue(Math.abs(actual - expected) < 30, `${what}: ${actual} vs ${expected}`)

/** A webhook receiver on loopback that fails the first `failures` deliveries, and records each. */
const receiver = (failures: number) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const received: Array<IncomingHttpHeaders> = []
      const server = createServer((req, res) => {
        received.push(req.headers)
        req.resume()
        res.writeHead(received.length <= failures ? 500 : 200).end()
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const address = server.address()
      return { server, received, url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/hooks` }
    }),
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  )

for (const target of storeTargets("sandboxclock")) {
  describe(`sandbox test clock on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("advancing by the settlement days settles a paid payment at once; the reserve is released on its day", () =>
        Effect.gen(function*() {
          const { shopId, sk } = yield* sandboxKey
          // The shop keeps its money available (no daily settlement batch): this test reads it.
          yield* keepAvailable(shopId)
          const [start, startResponse] = yield* clock(sk)
          assert.strictEqual(startResponse.status, 200)
          assert.strictEqual(start.offsetSeconds, 0)
          near(ahead(start.now), 0, "a new clock")

          const id = yield* pay(sk, "paid")
          const completed = yield* eventually(payment(sk, id), (p) => p.status === "completed")
          assert.strictEqual(completed.settlement.status, "pending")
          const before = yield* balance(sk)
          assert.isAbove(before.pending, 0)
          assert.strictEqual(before.available, 0)

          const delayDays = Number(completed.settlement.delay.replace("T+", ""))
          const [moved, movedResponse] = yield* advance(sk, delayDays * day)
          assert.strictEqual(movedResponse.status, 200)
          assert.strictEqual(moved.offsetSeconds, delayDays * day)
          near(ahead(moved.now), delayDays * day, "the advanced clock")
          assert.strictEqual((yield* payment(sk, id)).settlement.status, "settled")
          const after = yield* balance(sk)
          assert.deepStrictEqual(after, { ...before, pending: 0, available: before.pending })

          // The reserve (90 days on the starter tier) goes to available on its day, not before.
          yield* advance(sk, (90 - delayDays) * day - 3_600)
          assert.strictEqual((yield* balance(sk)).reserve, before.reserve)
          const [released] = yield* advance(sk, 3_600)
          assert.strictEqual(released.offsetSeconds, 90 * day)
          assert.deepStrictEqual(yield* balance(sk), { ...after, reserve: 0, available: before.pending + before.reserve })

          // What the shop does now happens in its time.
          const later = yield* payment(sk, yield* pay(sk))
          near(ahead(later.timestamps.created), 90 * day, "a new payment's createdAt")
          near(ahead(yield* pingTime(sk)), 90 * day, "ping")
          const [read] = yield* clock(sk)
          assert.strictEqual(read.offsetSeconds, 90 * day)
        }))

      it.effect("partial refunds and a chargeback before settlement: one advance settles every payment, pending back to 0", () =>
        Effect.gen(function*() {
          const { sk } = yield* sandboxKey
          const api = yield* apiAs(sk)
          const ids = [yield* pay(sk, "paid"), yield* pay(sk, "paid"), yield* pay(sk, "chargeback", "sbx_card")]
          for (const id of ids) yield* eventually(payment(sk, id), (p) => p.status === "completed" || p.status === "chargeback")
          const [refund, refundResponse] = yield* api.claims.refund({ params: { id: ids[0]! }, payload: { amount: Money.decimal("100") }, headers: {}, responseMode: "decoded-and-response" })
          assert.strictEqual(refundResponse.status, 201)
          assert.isAbove((yield* balance(sk)).pending, 0)

          yield* advance(sk, 30 * day)
          for (const id of ids) assert.strictEqual((yield* payment(sk, id)).settlement.status, "settled", id)
          assert.strictEqual((yield* balance(sk)).pending, 0)
          assert.strictEqual((yield* api.claims.get({ params: { id: refund.refundId } })).status, "approved")
        }))

      it.effect("an unpaid payment and a checkout session expire by advance; the reconcile poll completes a slow payment", () =>
        Effect.gen(function*() {
          const { sk } = yield* sandboxKey
          const unpaid = yield* pay(sk)
          const [session, sessionResponse] = yield* (yield* apiAs(sk)).checkout.createSession({
            payload: { amount: Money.decimal("50"), country: "br" },
            headers: {},
            responseMode: "decoded-and-response"
          })
          assert.strictEqual(sessionResponse.status, 201)
          assert.strictEqual((yield* readSession(session.token))[1].status, 200)
          const expiresAt = Date.parse((yield* payment(sk, unpaid)).timestamps.expires ?? "")

          yield* advance(sk, Math.ceil((expiresAt - Date.now()) / 1000) + 60)
          const expired = yield* payment(sk, unpaid)
          assert.strictEqual(expired.status, "expired")
          assert.strictEqual((yield* readSession(session.token))[1].status, 200)
          yield* advance(sk, day)
          const gone = yield* refused(readSession(session.token))
          assert.strictEqual(httpStatus[gone.code], 404)

          // Its callback is lost; the provider reports it paid after 2 minutes, which the poll asks.
          const slow = yield* pay(sk, "slow_payment")
          assert.strictEqual((yield* payment(sk, slow)).status, "pending")
          yield* advance(sk, 150)
          assert.strictEqual((yield* payment(sk, slow)).status, "completed")
        }))

      it.effect("a failed webhook delivery is retried when the shop's clock reaches its retry, signed in real time", () =>
        Effect.gen(function*() {
          const { sk } = yield* sandboxKey
          const api = yield* apiAs(sk)
          const hooks = yield* receiver(1)
          const [webhook, webhookResponse] = yield* api.webhooks.create({ payload: { url: hooks.url, events: ["payment.completed"] }, headers: {}, responseMode: "decoded-and-response" })
          assert.strictEqual(webhookResponse.status, 201)
          yield* pay(sk, "paid")
          const deliveries = api.webhooks.deliveries({ params: { id: webhook.id }, query: {} })
          const failed = yield* eventually(deliveries, (r) => r.data[0]?.status === "failed")
          assert.strictEqual(failed.data[0]!.status, "failed")
          near(ahead(failed.data[0]!.nextAttemptAt ?? ""), 60, "the first retry")
          assert.strictEqual(hooks.received.length, 1)

          const [, movedResponse] = yield* advance(sk, 120)
          assert.strictEqual(movedResponse.status, 200)
          assert.strictEqual(hooks.received.length, 2)
          assert.strictEqual((yield* deliveries).data[0]!.status, "succeeded")
          const signedAt = Number(/t=(\d+)/.exec(String(hooks.received[1]!["x-service-signature"]))![1])
          near(signedAt - Date.now() / 1000, 0, "the signature's t")
        }))

      it.effect("production keys get sandbox_only; production time and other shops' clocks do not move", () =>
        Effect.gen(function*() {
          const a = yield* sandboxKey
          const b = yield* sandboxKey
          for (const refusal of [yield* refused(clock(a.live)), yield* refused(advance(a.live, 60))]) {
            assert.strictEqual(httpStatus[refusal.code], 400)
            assert.strictEqual(refusal.code, "sandbox_only")
          }
          assert.strictEqual((yield* advance(a.sk, 10 * day))[0].offsetSeconds, 10 * day)
          near(ahead(yield* pingTime(a.sk)), 10 * day, "shop A's sandbox")
          near(ahead(yield* pingTime(a.live)), 0, "shop A's production")
          near(ahead(yield* pingTime(b.sk)), 0, "shop B's sandbox")
          assert.strictEqual((yield* clock(b.sk))[0].offsetSeconds, 0)
        }))

      it.effect("Idempotency-Keys live on real time: a retry after an advance replays the payment, never makes a second one", () =>
        Effect.gen(function*() {
          const { sk } = yield* sandboxKey
          const api = yield* apiAs(sk)
          const create = (amount: string) =>
            api.payments.create({
              payload: { amount: Money.decimal(amount), paymentMethodId: "sbx_pix" },
              headers: { "idempotency-key": "order-clock-1" },
              responseMode: "decoded-and-response"
            })
          const [first, firstResponse] = yield* create("100")
          assert.strictEqual(firstResponse.status, 201)
          assert.strictEqual((yield* advance(sk, 2 * day))[1].status, 200)
          const [retried, retriedResponse] = yield* create("100")
          assert.strictEqual(retried.transactionId, first.transactionId, "the same payment")
          assert.strictEqual(retriedResponse.headers["idempotent-replayed"], "true")
          // And another body with the key is still a reuse of it.
          const reused = yield* refused(create("101"))
          assert.strictEqual(httpStatus[reused.code], 409)
          assert.strictEqual(reused.code, "idempotency_key_reused")
          const { total } = (yield* api.payments.list({ query: {} })).pagination
          assert.strictEqual(total, 1)
        }))

      it.effect("seconds must be an integer from 1 to 400 days; a merchant-wide key names its shop", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          // Raw: values the typed client refuses to encode (out of range, not an integer, not a number, absent).
          for (const seconds of [0, -1, 1.5, 400 * day + 1, "60", null]) {
            const reply = yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds } })
            assert.strictEqual(reply.status, 400, String(seconds))
            assert.strictEqual(reply.body.error.code, "invalid_request")
            assert.include(reply.body.error.details.issues.map((i: { path: string }) => i.path), "seconds")
          }
          const missing = yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: {} })
          assert.deepStrictEqual(missing.body.error.details.missingFields, ["seconds"])
          assert.strictEqual((yield* clock(sk))[0].offsetSeconds, 0)
          assert.strictEqual((yield* advance(sk, 400 * day))[0].offsetSeconds, 400 * day)

          // A merchant with two shops has merchant-wide keys: `shopId` names the shop, default the first.
          const multi = yield* createMerchant({ shops: [{ name: "North" }, { name: "South" }] })
          const key = multi.keys.sandbox.secretKey
          const [north, south] = [multi.shops[0]!.id, multi.shops[1]!.id]
          const [named] = yield* advance(key, 3 * day, south)
          assert.strictEqual(named.offsetSeconds, 3 * day)
          assert.strictEqual((yield* clock(key, south))[0].offsetSeconds, 3 * day)
          assert.strictEqual((yield* clock(key, north))[0].offsetSeconds, 0)
          assert.strictEqual((yield* clock(key))[0].offsetSeconds, 0)
          assert.strictEqual(httpStatus[(yield* refused(clock(key, "shop_nope"))).code], 404)
          // Each request runs on the clock of the shop it names, in the query or in the body.
          const api = yield* apiAs(key)
          const created = (shopId?: string) =>
            Effect.gen(function*() {
              const [reply, response] = yield* api.payments.create({
                payload: { amount: Money.decimal("10"), paymentMethodId: "sbx_pix", ...(shopId === undefined ? {} : { shopId }) },
                headers: {},
                responseMode: "decoded-and-response"
              })
              assert.strictEqual(response.status, 201)
              return ahead(reply.expiresAt) - 30 * 60 // sbx_pix expires 30 minutes after its creation
            })
          near(yield* created(south), 3 * day, "a payment of the named shop")
          near(yield* created(), 0, "a payment of the default shop")
          near(ahead(yield* pingTime(key)), 0, "ping of the default shop")
        }))
    })
  })
}
