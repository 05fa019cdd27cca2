/**
 * The delivery log of one webhook (request sent, response received), test deliveries, and replay
 * once per Idempotency-Key, on every store.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createServer } from "node:http"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { storeTargets } from "../support/Stores.ts"
import { createMerchant, drainWork, eventually, testHost } from "../support/Host.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

/** A subscriber on loopback answering 200 with a small JSON body; it counts what it receives. */
const subscriber = Effect.acquireRelease(
  Effect.promise(async () => {
    const received: Array<{ event: string; body: string }> = []
    const server = createServer((req, res) => {
      let body = ""
      req.on("data", (c) => (body += c))
      req.on("end", () => {
        received.push({ event: String(req.headers["x-service-event"]), body })
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, padding: "x".repeat(2000) }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    return { server, url: `http://127.0.0.1:${port}/hooks`, received }
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
)

for (const target of storeTargets("deliverylog")) {
  describe(`webhook delivery log (${target.name})`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("a test delivery goes to one endpoint once per key; its request and response are readable; replay acts once per key", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const api = yield* apiAs(keys.sandbox.secretKey)
          const hook = yield* subscriber
          const [created, createdResponse] = yield* api.webhooks.create({
            payload: { url: hook.url, events: ["payment.completed"] },
            headers: {},
            responseMode: "decoded-and-response"
          })
          assert.strictEqual(createdResponse.status, 201)
          const id = created.id

          const sendTest = (key: string) =>
            api.webhooks.sendTest({ params: { id }, payload: {}, headers: { "idempotency-key": key }, responseMode: "decoded-and-response" })
          const [first, firstResponse] = yield* sendTest("test-1")
          assert.strictEqual(firstResponse.status, 202)
          assert.strictEqual(first.event, "webhook.test")
          const [again, againResponse] = yield* sendTest("test-1")
          assert.strictEqual(again.id, first.id)
          assert.strictEqual(againResponse.headers["idempotent-replayed"], "true")

          yield* eventually(Effect.succeed(hook.received), (r) => r.length >= 1)
          // Whatever else is due runs now: a second delivery for the key would reach the subscriber here.
          yield* drainWork
          assert.strictEqual(hook.received.length, 1, "one test delivery for one key")
          assert.strictEqual(JSON.parse(hook.received[0]!.body).type, "webhook.test")

          const [detail, detailResponse] = yield* eventually(
            api.webhooks.delivery({ params: { id, deliveryId: first.id }, responseMode: "decoded-and-response" }),
            ([d]) => d.status === "succeeded"
          )
          assert.strictEqual(detailResponse.status, 200)
          assert.strictEqual(detail.request.url, hook.url)
          assert.strictEqual(detail.request.body, hook.received[0]!.body, "the exact bytes sent")
          assert.strictEqual(detail.request.headers["x-service-event"], "webhook.test")
          assert.strictEqual(detail.response?.statusCode, 200)
          assert.isTrue(detail.response?.bodyExcerpt?.startsWith('{"ok":true'))
          assert.strictEqual(detail.response?.bodyExcerpt?.length, 1024)

          // Not an event of the account, and no money moved.
          const events = yield* api.events.list({ query: {} })
          assert.strictEqual(events.pagination.total, 0)

          const replay = (key: string) =>
            api.webhooks.replay({ params: { id, deliveryId: first.id }, headers: { "idempotency-key": key }, responseMode: "decoded-and-response" })
          const [, r1] = yield* replay("replay-1")
          assert.strictEqual(r1.status, 200)
          const [, r2] = yield* replay("replay-1")
          assert.strictEqual(r2.headers["idempotent-replayed"], "true")
          yield* eventually(Effect.succeed(hook.received), (r) => r.length >= 2)
          yield* drainWork
          assert.strictEqual(hook.received.length, 2, "one replay for one key")

          const unknownDelivery = yield* refused(api.webhooks.delivery({ params: { id, deliveryId: "dlv_nope" } }))
          assert.strictEqual(httpStatus[unknownDelivery.code], 404)
          const unknownHook = yield* refused(api.webhooks.sendTest({ params: { id: "wh_nope" }, payload: {}, headers: {} }))
          assert.strictEqual(httpStatus[unknownHook.code], 404)
          // Another merchant's webhook is not there for this one.
          const other = yield* createMerchant({ name: "Other" })
          const foreign = yield* refused(Effect.flatMap(apiAs(other.keys.sandbox.secretKey), (o) => o.webhooks.sendTest({ params: { id }, payload: {}, headers: {} })))
          assert.strictEqual(httpStatus[foreign.code], 404)
          const publishable = yield* refused(Effect.flatMap(apiAs(keys.sandbox.publishableKey), (p) => p.webhooks.sendTest({ params: { id }, payload: {}, headers: {} })))
          assert.strictEqual(httpStatus[publishable.code], 403)
        }))
    })
  })
}
