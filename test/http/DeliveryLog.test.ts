/**
 * The delivery log of one webhook (request sent, response received), test deliveries, and replay
 * once per Idempotency-Key, on every store.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createServer } from "node:http"
import { storeTargets } from "../support/Stores.ts"
import { call, createMerchant, eventually, testHost } from "../support/Host.ts"

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

const sleep = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))

for (const target of storeTargets("deliverylog")) {
  describe(`webhook delivery log (${target.name})`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("a test delivery goes to one endpoint once per key; its request and response are readable; replay acts once per key", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          const hook = yield* subscriber
          const created = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { url: hook.url, events: ["payment.completed"] } })
          assert.strictEqual(created.status, 201)
          const id = created.body.id as string

          const first = yield* call("POST", `/api/v1/webhooks/${id}/test`, { bearer: sk, headers: { "idempotency-key": "test-1" } })
          assert.strictEqual(first.status, 202)
          assert.strictEqual(first.body.event, "webhook.test")
          const again = yield* call("POST", `/api/v1/webhooks/${id}/test`, { bearer: sk, headers: { "idempotency-key": "test-1" } })
          assert.strictEqual(again.body.id, first.body.id)
          assert.strictEqual(again.headers.get("idempotent-replayed"), "true")

          yield* eventually(Effect.succeed(hook.received), (r) => r.length >= 1)
          yield* sleep(300)
          assert.strictEqual(hook.received.length, 1, "one test delivery for one key")
          assert.strictEqual(JSON.parse(hook.received[0]!.body).type, "webhook.test")

          const detail = yield* eventually(
            call("GET", `/api/v1/webhooks/${id}/deliveries/${first.body.id}`, { bearer: sk }),
            (r) => r.body.status === "succeeded"
          )
          assert.strictEqual(detail.status, 200)
          assert.strictEqual(detail.body.request.url, hook.url)
          assert.strictEqual(detail.body.request.body, hook.received[0]!.body, "the exact bytes sent")
          assert.strictEqual(detail.body.request.headers["x-service-event"], "webhook.test")
          assert.strictEqual(detail.body.response.statusCode, 200)
          assert.isTrue(detail.body.response.bodyExcerpt.startsWith('{"ok":true'))
          assert.strictEqual(detail.body.response.bodyExcerpt.length, 1024)

          // Not an event of the account, and no money moved.
          const events = yield* call("GET", "/api/v1/events", { bearer: sk })
          assert.strictEqual(events.body.pagination.total, 0)

          const replay = (key: string) =>
            call("POST", `/api/v1/webhooks/${id}/deliveries/${first.body.id}/replay`, { bearer: sk, headers: { "idempotency-key": key } })
          const r1 = yield* replay("replay-1")
          assert.strictEqual(r1.status, 200)
          const r2 = yield* replay("replay-1")
          assert.strictEqual(r2.headers.get("idempotent-replayed"), "true")
          yield* eventually(Effect.succeed(hook.received), (r) => r.length >= 2)
          yield* sleep(300)
          assert.strictEqual(hook.received.length, 2, "one replay for one key")

          const unknownDelivery = yield* call("GET", `/api/v1/webhooks/${id}/deliveries/dlv_nope`, { bearer: sk })
          assert.strictEqual(unknownDelivery.status, 404)
          const unknownHook = yield* call("POST", "/api/v1/webhooks/wh_nope/test", { bearer: sk })
          assert.strictEqual(unknownHook.status, 404)
          // Another merchant's webhook is not there for this one.
          const other = yield* createMerchant({ name: "Other" })
          const foreign = yield* call("POST", `/api/v1/webhooks/${id}/test`, { bearer: other.keys.sandbox.secretKey })
          assert.strictEqual(foreign.status, 404)
          const publishable = yield* call("POST", `/api/v1/webhooks/${id}/test`, { bearer: keys.sandbox.publishableKey })
          assert.strictEqual(publishable.status, 403)
        }))
    })
  })
}
