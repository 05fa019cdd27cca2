/**
 * Sandbox test clocks through the API, as a merchant uses them: advancing a shop's time settles,
 * releases reserves, expires payments and checkout sessions, polls slow payments and retries
 * webhooks at once, while production and other shops keep real time. No test sleeps through the
 * time it moves.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import { call, createMerchant, eventually, keepAvailable, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const day = 86_400


const sandboxKey = Effect.map(createMerchant(), (m) => ({ sk: m.keys.sandbox.secretKey, live: m.keys.production.secretKey, shopId: m.shops[0]!.id }))

const pay = (sk: string, simulate?: string, paymentMethodId = "sbx_pix") =>
  Effect.map(
    call("POST", "/api/v1/payments", {
      bearer: sk,
      headers: simulate === undefined ? {} : { "sandbox-simulate": simulate },
      body: { amount: 100, paymentMethodId }
    }),
    (reply) => {
      if (reply.status !== 201) throw new Error(`payment: ${reply.status} ${JSON.stringify(reply.body)}`)
      return reply.body.transactionId as string
    }
  )

const payment = (sk: string, id: string) => Effect.map(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body)
const balance = (sk: string) => Effect.map(call("GET", "/api/v1/me/balance", { bearer: sk }), (r) => r.body.balance)
const advance = (sk: string, seconds: unknown) => call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds } })

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
          const start = yield* call("GET", "/api/v1/sandbox/clock", { bearer: sk })
          assert.strictEqual(start.status, 200)
          assert.strictEqual(start.body.offsetSeconds, 0)
          near(ahead(start.body.now), 0, "a new clock")

          const id = yield* pay(sk, "paid")
          const completed = yield* eventually(payment(sk, id), (p) => p.status === "completed")
          assert.strictEqual(completed.settlement.status, "pending")
          const before = yield* balance(sk)
          assert.isAbove(before.pending, 0)
          assert.strictEqual(before.available, 0)

          const delayDays = Number(completed.settlement.delay.replace("T+", ""))
          const moved = yield* advance(sk, delayDays * day)
          assert.strictEqual(moved.status, 200)
          assert.strictEqual(moved.body.offsetSeconds, delayDays * day)
          near(ahead(moved.body.now), delayDays * day, "the advanced clock")
          assert.strictEqual((yield* payment(sk, id)).settlement.status, "settled")
          const after = yield* balance(sk)
          assert.deepStrictEqual(after, { ...before, pending: 0, available: before.pending })

          // The reserve (90 days on the starter tier) goes to available on its day, not before.
          yield* advance(sk, (90 - delayDays) * day - 3_600)
          assert.strictEqual((yield* balance(sk)).reserve, before.reserve)
          const released = yield* advance(sk, 3_600)
          assert.strictEqual(released.body.offsetSeconds, 90 * day)
          assert.deepStrictEqual(yield* balance(sk), { ...after, reserve: 0, available: before.pending + before.reserve })

          // What the shop does now happens in its time.
          const later = yield* payment(sk, yield* pay(sk))
          near(ahead(later.timestamps.created), 90 * day, "a new payment's createdAt")
          near(ahead((yield* call("GET", "/api/v1/ping", { bearer: sk })).body.timestamp), 90 * day, "ping")
          const read = yield* call("GET", "/api/v1/sandbox/clock", { bearer: sk })
          assert.strictEqual(read.body.offsetSeconds, 90 * day)
        }))

      it.effect("partial refunds and a chargeback before settlement: one advance settles every payment, pending back to 0", () =>
        Effect.gen(function*() {
          const { sk } = yield* sandboxKey
          const ids = [yield* pay(sk, "paid"), yield* pay(sk, "paid"), yield* pay(sk, "chargeback", "sbx_card")]
          for (const id of ids) yield* eventually(payment(sk, id), (p) => p.status === "completed" || p.status === "chargeback")
          const refund = yield* call("POST", `/api/v1/payments/${ids[0]}/refund`, { bearer: sk, body: { amount: 100 } })
          assert.strictEqual(refund.status, 201, JSON.stringify(refund.body))
          assert.isAbove((yield* balance(sk)).pending, 0)

          yield* advance(sk, 30 * day)
          for (const id of ids) assert.strictEqual((yield* payment(sk, id)).settlement.status, "settled", id)
          assert.strictEqual((yield* balance(sk)).pending, 0)
          assert.strictEqual((yield* call("GET", `/api/v1/claims/${refund.body.refundId}`, { bearer: sk })).body.status, "approved")
        }))

      it.effect("an unpaid payment and a checkout session expire by advance; the reconcile poll completes a slow payment", () =>
        Effect.gen(function*() {
          const { sk } = yield* sandboxKey
          const unpaid = yield* pay(sk)
          const session = yield* call("POST", "/api/v1/checkout/sessions", { bearer: sk, body: { amount: 50, country: "br" } })
          assert.strictEqual(session.status, 201)
          assert.strictEqual((yield* call("GET", `/api/v1/checkout/sessions/${session.body.token}`)).status, 200)
          const expiresAt = Date.parse((yield* payment(sk, unpaid)).timestamps.expires)

          yield* advance(sk, Math.ceil((expiresAt - Date.now()) / 1000) + 60)
          const expired = yield* payment(sk, unpaid)
          assert.strictEqual(expired.status, "expired")
          assert.strictEqual((yield* call("GET", `/api/v1/checkout/sessions/${session.body.token}`)).status, 200)
          yield* advance(sk, day)
          const gone = yield* call("GET", `/api/v1/checkout/sessions/${session.body.token}`)
          assert.strictEqual(gone.status, 404)

          // Its callback is lost; the provider reports it paid after 2 minutes, which the poll asks.
          const slow = yield* pay(sk, "slow_payment")
          assert.strictEqual((yield* payment(sk, slow)).status, "pending")
          yield* advance(sk, 150)
          assert.strictEqual((yield* payment(sk, slow)).status, "completed")
        }))

      it.effect("a failed webhook delivery is retried when the shop's clock reaches its retry, signed in real time", () =>
        Effect.gen(function*() {
          const { sk } = yield* sandboxKey
          const hooks = yield* receiver(1)
          const webhook = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { url: hooks.url, events: ["payment.completed"] } })
          assert.strictEqual(webhook.status, 201)
          yield* pay(sk, "paid")
          const deliveries = `/api/v1/webhooks/${webhook.body.id}/deliveries`
          const failed = yield* eventually(call("GET", deliveries, { bearer: sk }), (r) => r.body.data[0]?.status === "failed")
          assert.strictEqual(failed.body.data[0].status, "failed")
          near(ahead(failed.body.data[0].nextAttemptAt), 60, "the first retry")
          assert.strictEqual(hooks.received.length, 1)

          const moved = yield* advance(sk, 120)
          assert.strictEqual(moved.status, 200)
          assert.strictEqual(hooks.received.length, 2)
          assert.strictEqual((yield* call("GET", deliveries, { bearer: sk })).body.data[0].status, "succeeded")
          const signedAt = Number(/t=(\d+)/.exec(String(hooks.received[1]!["x-service-signature"]))![1])
          near(signedAt - Date.now() / 1000, 0, "the signature's t")
        }))

      it.effect("production keys get sandbox_only; production time and other shops' clocks do not move", () =>
        Effect.gen(function*() {
          const a = yield* sandboxKey
          const b = yield* sandboxKey
          for (const reply of [yield* call("GET", "/api/v1/sandbox/clock", { bearer: a.live }), yield* advance(a.live, 60)]) {
            assert.strictEqual(reply.status, 400)
            assert.strictEqual(reply.body.error.code, "sandbox_only")
          }
          assert.strictEqual((yield* advance(a.sk, 10 * day)).body.offsetSeconds, 10 * day)
          near(ahead((yield* call("GET", "/api/v1/ping", { bearer: a.sk })).body.timestamp), 10 * day, "shop A's sandbox")
          near(ahead((yield* call("GET", "/api/v1/ping", { bearer: a.live })).body.timestamp), 0, "shop A's production")
          near(ahead((yield* call("GET", "/api/v1/ping", { bearer: b.sk })).body.timestamp), 0, "shop B's sandbox")
          assert.strictEqual((yield* call("GET", "/api/v1/sandbox/clock", { bearer: b.sk })).body.offsetSeconds, 0)
        }))

      it.effect("Idempotency-Keys live on real time: a retry after an advance replays the payment, never makes a second one", () =>
        Effect.gen(function*() {
          const { sk } = yield* sandboxKey
          const request = { bearer: sk, headers: { "idempotency-key": "order-clock-1" }, body: { amount: 100, paymentMethodId: "sbx_pix" } }
          const first = yield* call("POST", "/api/v1/payments", request)
          assert.strictEqual(first.status, 201)
          assert.strictEqual((yield* advance(sk, 2 * day)).status, 200)
          const retried = yield* call("POST", "/api/v1/payments", request)
          assert.strictEqual(retried.body.transactionId, first.body.transactionId, "the same payment")
          assert.strictEqual(retried.headers.get("idempotent-replayed"), "true")
          // And another body with the key is still a reuse of it.
          const reused = yield* call("POST", "/api/v1/payments", { ...request, body: { amount: 101, paymentMethodId: "sbx_pix" } })
          assert.strictEqual(reused.status, 409)
          assert.strictEqual(reused.body.error.code, "idempotency_key_reused")
          const { total } = (yield* call("GET", "/api/v1/payments", { bearer: sk })).body.pagination
          assert.strictEqual(total, 1)
        }))

      it.effect("seconds must be an integer from 1 to 400 days; a merchant-wide key names its shop", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          for (const seconds of [0, -1, 1.5, 400 * day + 1, "60", null]) {
            const reply = yield* advance(sk, seconds)
            assert.strictEqual(reply.status, 400, String(seconds))
            assert.strictEqual(reply.body.error.code, "invalid_request")
            assert.include(reply.body.error.details.issues.map((i: { path: string }) => i.path), "seconds")
          }
          const missing = yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: {} })
          assert.deepStrictEqual(missing.body.error.details.missingFields, ["seconds"])
          assert.strictEqual((yield* call("GET", "/api/v1/sandbox/clock", { bearer: sk })).body.offsetSeconds, 0)
          assert.strictEqual((yield* advance(sk, 400 * day)).body.offsetSeconds, 400 * day)

          // A merchant with two shops has merchant-wide keys: `shopId` names the shop, default the first.
          const multi = yield* createMerchant({ shops: [{ name: "North" }, { name: "South" }] })
          const key = multi.keys.sandbox.secretKey
          const [north, south] = [multi.shops[0]!.id, multi.shops[1]!.id]
          const named = yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: key, body: { seconds: 3 * day, shopId: south } })
          assert.strictEqual(named.body.offsetSeconds, 3 * day)
          assert.strictEqual((yield* call("GET", `/api/v1/sandbox/clock?shopId=${south}`, { bearer: key })).body.offsetSeconds, 3 * day)
          assert.strictEqual((yield* call("GET", `/api/v1/sandbox/clock?shopId=${north}`, { bearer: key })).body.offsetSeconds, 0)
          assert.strictEqual((yield* call("GET", "/api/v1/sandbox/clock", { bearer: key })).body.offsetSeconds, 0)
          assert.strictEqual((yield* call("GET", "/api/v1/sandbox/clock?shopId=shop_nope", { bearer: key })).status, 404)
          // Each request runs on the clock of the shop it names, in the query or in the body.
          const created = (shopId?: string) =>
            Effect.gen(function*() {
              const reply = yield* call("POST", "/api/v1/payments", { bearer: key, body: { amount: 10, paymentMethodId: "sbx_pix", shopId } })
              assert.strictEqual(reply.status, 201, JSON.stringify(reply.body))
              return ahead(reply.body.expiresAt) - 30 * 60 // sbx_pix expires 30 minutes after its creation
            })
          near(yield* created(south), 3 * day, "a payment of the named shop")
          near(yield* created(), 0, "a payment of the default shop")
          near(ahead((yield* call("GET", `/api/v1/ping`, { bearer: key })).body.timestamp), 0, "ping of the default shop")
        }))
    })
  })
}
