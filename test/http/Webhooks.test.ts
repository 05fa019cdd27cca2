/**
 * Webhooks through the API with a real subscriber on loopback (the webhook-receiver example):
 * registration rules, events of real payment flows verified on arrival, the managed inbox,
 * 410 from the subscriber, and the delivery log.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Server } from "node:http"
import Stripe from "stripe"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { type ReceivedEvent, startReceiver } from "../../examples/webhook-receiver/main.ts"
import { call, createMerchant, eventually, testHost } from "../support/Host.ts"

const stripe = new Stripe("sk_test_unused")



/** A subscriber on a free loopback port: the example receiver, or a fixed status. */
const subscriber = (handler: { readonly secret?: string; readonly status?: number }) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const received: Array<ReceivedEvent & { raw: string; header: string }> = []
      const statuses: Array<number> = []
      let server: Server
      if (handler.status === undefined) {
        server = await startReceiver({ port: 0, secret: handler.secret!, onEvent: (e) => received.push({ ...e, raw: JSON.stringify(e.envelope), header: "" }) })
      } else {
        const { createServer } = await import("node:http")
        server = createServer((_, res) => {
          statuses.push(handler.status!)
          res.writeHead(handler.status!).end()
        })
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      }
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      return { server, url: `http://127.0.0.1:${port}/hooks`, received, statuses }
    }),
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  )

describe("webhooks API", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("registration: validated events and URLs; the secret only on creation and rotation", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const sk = keys.sandbox.secretKey
        const bad: Array<[Record<string, unknown>, string]> = [
          [{ url: "https://x.example/h" }, "events"],
          [{ url: "https://x.example/h", events: [] }, "events"],
          [{ url: "https://x.example/h", events: ["payment.exploded"] }, "events.0"],
          [{ url: "ftp://x.example/h", events: ["*"] }, "url"],
          [{ url: "https://user:pass@x.example/h", events: ["*"] }, "url"],
          [{ url: "not a url", events: ["*"] }, "url"]
        ]
        for (const [body, path] of bad) {
          const reply = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body })
          assert.strictEqual(reply.status, 400, JSON.stringify(body))
          assert.include(reply.body.error.details.issues.map((i: { path: string }) => i.path), path)
        }
        const created = yield* call("POST", "/api/v1/webhooks", {
          bearer: sk,
          body: { url: "https://merchant.example/hooks", events: ["payment.completed", "payment.failed"], description: "main" }
        })
        assert.strictEqual(created.status, 201)
        assert.match(created.body.id, /^wh_/)
        assert.match(created.body.secret, /^whsec_[0-9A-Za-z]{40,}$/)
        assert.isFalse(created.body.managed)
        assert.isTrue(created.body.active)
        const read = yield* call("GET", `/api/v1/webhooks/${created.body.id}`, { bearer: sk })
        assert.notProperty(read.body, "secret")
        const list = yield* call("GET", "/api/v1/webhooks?limit=500", { bearer: sk })
        assert.strictEqual(list.body.pagination.limit, 100)
        assert.notInclude(JSON.stringify(list.body), created.body.secret)

        const patched = yield* call("PATCH", `/api/v1/webhooks/${created.body.id}`, {
          bearer: sk,
          body: { events: ["*"], active: false, description: null }
        })
        assert.deepStrictEqual([patched.body.events, patched.body.active, patched.body.description], [["*"], false, null])
        const rotated = yield* call("POST", `/api/v1/webhooks/${created.body.id}/rotate-secret`, { bearer: sk })
        assert.notStrictEqual(rotated.body.secret, created.body.secret)
        assert.isString(rotated.body.previousSecretExpiresAt)

        const other = yield* createMerchant()
        assert.strictEqual((yield* call("GET", `/api/v1/webhooks/${created.body.id}`, { bearer: other.keys.sandbox.secretKey })).status, 404)
        assert.strictEqual((yield* call("GET", `/api/v1/webhooks/${created.body.id}`, { bearer: keys.production.secretKey })).status, 404)
        const deleted = yield* call("DELETE", `/api/v1/webhooks/${created.body.id}`, { bearer: sk })
        assert.deepStrictEqual(deleted.body, { id: created.body.id, deleted: true })
        assert.strictEqual((yield* call("DELETE", `/api/v1/webhooks/${created.body.id}`, { bearer: sk })).status, 404)
      }))

    it.effect("a subscriber receives the events of a payment flow, signed, and the log shows the deliveries", () =>
      Effect.scoped(Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const sk = keys.sandbox.secretKey
        const placeholder = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { url: "https://placeholder.example", events: ["*"] } })
        const sub = yield* subscriber({ secret: placeholder.body.secret })
        yield* call("PATCH", `/api/v1/webhooks/${placeholder.body.id}`, { bearer: sk, body: { url: sub.url } })

        const paid = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          headers: { "sandbox-simulate": "paid" },
          body: { amount: 15, paymentMethodId: "sbx_spei", merchantOrderId: "wh-1" }
        })
        const failed = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          headers: { "sandbox-simulate": "failed" },
          body: { amount: 15, paymentMethodId: "sbx_spei" }
        })
        const events = yield* eventually(Effect.sync(() => sub.received), (r) => r.length >= 3)
        assert.sameMembers(events.map((e) => e.type), ["payment.completed", "payment.captured", "payment.failed"])
        const completed = events.find((e) => e.type === "payment.completed")!
        assert.strictEqual((completed.envelope["data"] as { id: string }).id, paid.body.transactionId)
        assert.strictEqual(completed.envelope["merchantOrderId"], "wh-1")
        assert.strictEqual(((events.find((e) => e.type === "payment.failed")!).envelope["data"] as { id: string }).id, failed.body.transactionId)

        const log = yield* eventually(
          call("GET", `/api/v1/webhooks/${placeholder.body.id}/deliveries?status=succeeded`, { bearer: sk }),
          (r) => r.body.pagination.total === 3
        )
        assert.strictEqual(log.body.pagination.total, 3)
        assert.isTrue(log.body.data.every((d: { attempts: number; lastStatusCode: number; succeededAt: string }) =>
          d.attempts === 1 && d.lastStatusCode === 204 && d.succeededAt !== null
        ))
        const replayed = yield* call("POST", `/api/v1/webhooks/${placeholder.body.id}/deliveries/${log.body.data[0].id}/replay`, { bearer: sk })
        assert.strictEqual(replayed.body.status, "pending")
        yield* eventually(Effect.sync(() => sub.received), (r) => r.length >= 4)
        assert.strictEqual(sub.received.length, 4)
      })))

    it.effect("a managed webhook delivers to the host's inbox, which verifies and keeps the events", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const sk = keys.sandbox.secretKey
        const managed = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { events: ["payment.completed"] } })
        assert.strictEqual(managed.status, 201)
        assert.isTrue(managed.body.managed)
        assert.strictEqual(managed.body.url, `http://api.test.local/api/v1/webhooks/inbox/${managed.body.id}`)
        yield* call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "paid" }, body: { amount: 9, paymentMethodId: "sbx_pix" } })
        const inbox = yield* eventually(call("GET", `/api/v1/webhooks/${managed.body.id}/inbox`, { bearer: sk }), (r) => r.body.pagination?.total === 1)
        assert.strictEqual(inbox.body.data[0].event, "payment.completed")
        assert.isTrue(inbox.body.data[0].signatureValid)
        assert.strictEqual(inbox.body.data[0].payload.type, "payment.completed")

        // The inbox URL itself accepts only deliveries signed with the webhook's secret.
        const body = JSON.stringify({ id: "evt_x", type: "payment.completed", data: {} })
        const forged = yield* call("POST", `/api/v1/webhooks/inbox/${managed.body.id}`, {
          rawBody: body,
          headers: { "x-service-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"a".repeat(64)}` }
        })
        assert.strictEqual(forged.status, 401)
        const genuine = yield* call("POST", `/api/v1/webhooks/inbox/${managed.body.id}`, {
          rawBody: body,
          headers: { "x-service-signature": stripe.webhooks.generateTestHeaderString({ payload: body, secret: managed.body.secret }) }
        })
        assert.strictEqual(genuine.status, 200)
        assert.strictEqual((yield* call("GET", `/api/v1/webhooks/${managed.body.id}/inbox`, { bearer: sk })).body.pagination.total, 2)
        const external = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { url: "https://x.example/h", events: ["*"] } })
        assert.strictEqual((yield* call("GET", `/api/v1/webhooks/${external.body.id}/inbox`, { bearer: sk })).status, 400)
      }))

    it.effect("410 Gone from the subscriber turns the webhook off", () =>
      Effect.scoped(Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const sk = keys.sandbox.secretKey
        const gone = yield* subscriber({ status: 410 })
        const created = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { url: gone.url, events: ["payment.completed"] } })
        yield* call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "paid" }, body: { amount: 9, paymentMethodId: "sbx_pix" } })
        const off = yield* eventually(call("GET", `/api/v1/webhooks/${created.body.id}`, { bearer: sk }), (r) => r.body.active === false)
        assert.isFalse(off.body.active)
        assert.include(off.body.disabledReason, "410")
        const log = yield* call("GET", `/api/v1/webhooks/${created.body.id}/deliveries`, { bearer: sk })
        assert.strictEqual(log.body.data[0].status, "dead_letter")
        assert.strictEqual(log.body.data[0].lastStatusCode, 410)
        assert.strictEqual(gone.statuses.length, 1)
      })))
  })
})

/** Internal targets in every spelling an attacker tries. */
const internalTargets = [
  "http://127.0.0.1/h", "http://localhost:8080/h", "http://api.localhost/h", "http://2130706433/h", "http://0x7f.1/h",
  "http://0177.0.0.1/h", "http://127.1/h", "http://10.0.0.5/h", "http://172.16.3.4/h", "http://192.168.1.10/h",
  "http://169.254.169.254/latest/meta-data", "http://0.0.0.0/h", "http://[::1]/h", "http://[::]/h", "http://[fc00::1]/h",
  "http://[fe80::1]/h", "http://[::ffff:127.0.0.1]/h", "http://[::ffff:7f00:1]/h", "http://100.64.0.1/h",
  "http://localhost./h", "http://api.localhost./h", "http://[::127.0.0.1]/h", "http://[::7f00:1]/h"
]

describe("webhook targets cannot reach internal networks (no WEBHOOK_ALLOW_PRIVATE_TARGETS)", () => {
  layer(testHost(MemoryStore.layer, { webhookAllowPrivateTargets: false }), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("registration and PATCH refuse every internal address spelling, in both environments; production needs https", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        for (const [environment, sk] of [["sandbox", keys.sandbox.secretKey], ["production", keys.production.secretKey]] as const) {
          for (const url of internalTargets) {
            const refused = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { url: environment === "production" ? url.replace("http:", "https:") : url, events: ["*"] } })
            assert.strictEqual(refused.status, 400, `${environment} ${url}: ${JSON.stringify(refused.body)}`)
            assert.strictEqual(refused.body.error.code, "invalid_request")
            assert.deepStrictEqual(refused.body.error.details.issues.map((i: { path: string }) => i.path), ["url"])
          }
        }
        const plain = yield* call("POST", "/api/v1/webhooks", { bearer: keys.production.secretKey, body: { url: "http://hooks.example.com/h", events: ["*"] } })
        assert.strictEqual(plain.status, 400)
        const ok = yield* call("POST", "/api/v1/webhooks", { bearer: keys.sandbox.secretKey, body: { url: "https://hooks.example.com/h", events: ["*"] } })
        assert.strictEqual(ok.status, 201, JSON.stringify(ok.body))
        const patched = yield* call("PATCH", `/api/v1/webhooks/${ok.body.id}`, { bearer: keys.sandbox.secretKey, body: { url: "http://169.254.169.254/" } })
        assert.strictEqual(patched.status, 400)
        assert.strictEqual((yield* call("GET", `/api/v1/webhooks/${ok.body.id}`, { bearer: keys.sandbox.secretKey })).body.url, "https://hooks.example.com/h")
      }))

    it.effect("a name that resolves to an internal address is registered but never delivered to (DNS rebinding)", () =>
      Effect.scoped(Effect.gen(function*() {
        // This machine's own name resolves to a loopback or private address.
        const name = (yield* Effect.promise(() => import("node:os"))).hostname()
        const { address } = yield* Effect.promise(() => import("node:dns").then((dns) => dns.promises.lookup(name)))
        const internal = /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$)/.test(address)
        if (!internal) return
        const receiver = yield* subscriber({ status: 200 })
        const port = new URL(receiver.url).port
        const { keys } = yield* createMerchant()
        const sk = keys.sandbox.secretKey
        const created = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { url: `http://${name}:${port}/hooks`, events: ["payment.completed"] } })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        yield* call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "paid" }, body: { amount: 9, paymentMethodId: "sbx_pix" } })
        const log = yield* eventually(call("GET", `/api/v1/webhooks/${created.body.id}/deliveries`, { bearer: sk }), (r) => r.body.data?.[0]?.attempts >= 1)
        assert.strictEqual(log.body.data[0].status, "failed", JSON.stringify(log.body.data[0]))
        assert.include(log.body.data[0].lastError, "refused target")
        assert.strictEqual(receiver.statuses.length, 0, "nothing reached the internal address")
      })))
  })
})

describe("webhook delivery does not follow redirects", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a 302 is a failed attempt; its Location is never requested", () =>
      Effect.scoped(Effect.gen(function*() {
        const target = yield* subscriber({ status: 200 })
        const redirecting = yield* Effect.acquireRelease(
          Effect.promise(async () => {
            const { createServer } = await import("node:http")
            const server = createServer((_, res) => res.writeHead(302, { location: target.url }).end())
            await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
            const address = server.address()
            return { server, url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/hooks` }
          }),
          ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
        )
        const { keys } = yield* createMerchant()
        const sk = keys.sandbox.secretKey
        const created = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { url: redirecting.url, events: ["payment.completed"] } })
        yield* call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "paid" }, body: { amount: 9, paymentMethodId: "sbx_pix" } })
        const log = yield* eventually(call("GET", `/api/v1/webhooks/${created.body.id}/deliveries`, { bearer: sk }), (r) => r.body.data?.[0]?.attempts >= 1)
        assert.strictEqual(log.body.data[0].lastStatusCode, 302)
        assert.strictEqual(log.body.data[0].status, "failed")
        assert.strictEqual(target.statuses.length, 0, "the redirect was not followed")
      })))
  })
})
