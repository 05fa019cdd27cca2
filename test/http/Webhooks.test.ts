/**
 * Webhooks through the API with a real subscriber on loopback (the webhook-receiver example):
 * registration rules, events of real payment flows verified on arrival, the managed inbox,
 * 410 from the subscriber, and the delivery log.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import type { Server } from "node:http"
import Stripe from "stripe"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import type { SandboxSimulate } from "../../core/ports/PaymentProvider.ts"
import { type ReceivedEvent, startReceiver } from "../../examples/webhook-receiver/main.ts"
import { call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

const stripe = new Stripe("sk_test_unused")

type Client = Effect.Success<ReturnType<typeof apiAs>>

/** A sandbox payment the simulator settles as `simulate` says. */
const pay = (api: Client, simulate: SandboxSimulate, amount: number, paymentMethodId: string, merchantOrderId?: string) =>
  api.payments.create({
    payload: { amount: Money.decimal(String(amount)), paymentMethodId, ...(merchantOrderId === undefined ? {} : { merchantOrderId }) },
    headers: { "sandbox-simulate": simulate }
  })

/** Registers a webhook; answers it with the raw response (its status asserted). */
const register = (api: Client, payload: { readonly url?: string; readonly events: ReadonlyArray<string>; readonly description?: string }) =>
  api.webhooks.create({ payload, headers: {}, responseMode: "decoded-and-response" })

const issuePaths = (e: { readonly details: Record<string, unknown> }) => (e.details["issues"] as ReadonlyArray<{ path: string }>).map((i) => i.path)

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
        const api = yield* apiAs(sk)
        // Raw: a body without its required events, which the typed client cannot build.
        const noEvents = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { url: "https://x.example/h" } })
        assert.strictEqual(noEvents.status, 400)
        assert.include(noEvents.body.error.details.issues.map((i: { path: string }) => i.path), "events")
        const bad: Array<[{ url: string; events: Array<string> }, string]> = [
          [{ url: "https://x.example/h", events: [] }, "events"],
          [{ url: "https://x.example/h", events: ["payment.exploded"] }, "events.0"],
        ]
        for (const [body, path] of bad) {
          const reply = yield* refused(register(api, body))
          assert.strictEqual(httpStatus[reply.code], 400, JSON.stringify(body))
          assert.include(issuePaths(reply), path)
        }
        // Raw: the typed client refuses these URLs itself, as the published schema says (test/http/MerchantUrls.test.ts has every variant).
        for (const url of ["ftp://x.example/h", "https://user:pass@x.example/h", "not a url"]) {
          const reply = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { url, events: ["*"] } })
          assert.strictEqual(reply.status, 400, url)
          assert.isTrue(reply.body.error.details.issues.some((i: { path: string }) => i.path === "url"), url)
        }
        const [created, createdResponse] = yield* register(api, { url: "https://merchant.example/hooks", events: ["payment.completed", "payment.failed"], description: "main" })
        assert.strictEqual(createdResponse.status, 201)
        assert.match(created.id, /^wh_/)
        assert.match(created.secret, /^whsec_[0-9A-Za-z]{40,}$/)
        assert.isFalse(created.managed)
        assert.isTrue(created.active)
        // The typed client refuses an answer with a field its schema lacks: a leaked secret fails the read.
        const read = yield* api.webhooks.get({ params: { id: created.id } })
        assert.notProperty(read, "secret")
        const list = yield* api.webhooks.list({ query: { limit: 500 } })
        assert.strictEqual(list.pagination.limit, 100)
        assert.notInclude(JSON.stringify(list), created.secret)

        const patched = yield* api.webhooks.update({ params: { id: created.id }, payload: { events: ["*"], active: false, description: null } })
        assert.deepStrictEqual([patched.events, patched.active, patched.description], [["*"], false, null])
        const rotated = yield* api.webhooks.rotateSecret({ params: { id: created.id }, headers: {} })
        assert.notStrictEqual(rotated.secret, created.secret)
        assert.isString(rotated.previousSecretExpiresAt)

        const other = yield* createMerchant()
        const readAs = (bearer: string) => refused(Effect.flatMap(apiAs(bearer), (o) => o.webhooks.get({ params: { id: created.id } })))
        assert.strictEqual(httpStatus[(yield* readAs(other.keys.sandbox.secretKey)).code], 404)
        assert.strictEqual(httpStatus[(yield* readAs(keys.production.secretKey)).code], 404)
        const deleted = yield* api.webhooks.remove({ params: { id: created.id } })
        assert.deepStrictEqual(deleted, { id: created.id, deleted: true })
        assert.strictEqual(httpStatus[(yield* refused(api.webhooks.remove({ params: { id: created.id } }))).code], 404)
      }))

    it.effect("a subscriber receives the events of a payment flow, signed, and the log shows the deliveries", () =>
      Effect.scoped(Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const api = yield* apiAs(keys.sandbox.secretKey)
        const [placeholder] = yield* register(api, { url: "https://placeholder.example", events: ["*"] })
        const sub = yield* subscriber({ secret: placeholder.secret })
        yield* api.webhooks.update({ params: { id: placeholder.id }, payload: { url: sub.url } })

        const paid = yield* pay(api, "paid", 15, "sbx_spei", "wh-1")
        const failed = yield* pay(api, "failed", 15, "sbx_spei")
        // The receiver is a server of its own (the example): between reads, eventually runs the due deliveries.
        const events = yield* eventually(Effect.sync(() => sub.received), (r) => r.length >= 3)
        assert.sameMembers(events.map((e) => e.type), ["payment.completed", "payment.captured", "payment.failed"])
        const completed = events.find((e) => e.type === "payment.completed")!
        assert.strictEqual((completed.envelope["data"] as { id: string }).id, paid.transactionId)
        assert.strictEqual(completed.envelope["merchantOrderId"], "wh-1")
        assert.strictEqual(((events.find((e) => e.type === "payment.failed")!).envelope["data"] as { id: string }).id, failed.transactionId)

        const log = yield* eventually(
          api.webhooks.deliveries({ params: { id: placeholder.id }, query: { status: "succeeded" } }),
          (r) => r.pagination.total === 3
        )
        assert.strictEqual(log.pagination.total, 3)
        assert.isTrue(log.data.every((d) => d.attempts === 1 && d.lastStatusCode === 204 && d.succeededAt !== null))
        const replayed = yield* api.webhooks.replay({ params: { id: placeholder.id, deliveryId: log.data[0]!.id }, headers: {} })
        assert.strictEqual(replayed.status, "pending")
        yield* eventually(Effect.sync(() => sub.received), (r) => r.length >= 4)
        assert.strictEqual(sub.received.length, 4)
      })))

    it.effect("a managed webhook delivers to the host's inbox, which verifies and keeps the events", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const api = yield* apiAs(keys.sandbox.secretKey)
        const [managed, managedResponse] = yield* register(api, { events: ["payment.completed"] })
        assert.strictEqual(managedResponse.status, 201)
        assert.isTrue(managed.managed)
        assert.strictEqual(managed.url, `http://api.test.local/api/v1/webhooks/inbox/${managed.id}`)
        yield* pay(api, "paid", 9, "sbx_pix")
        const inboxOf = (id: string) => api.webhooks.inbox({ params: { id }, query: {} })
        const inbox = yield* eventually(inboxOf(managed.id), (r) => r.pagination.total === 1)
        assert.strictEqual(inbox.data[0]!.event, "payment.completed")
        assert.isTrue(inbox.data[0]!.signatureValid)
        assert.strictEqual((inbox.data[0]!.payload as { type: string }).type, "payment.completed")

        // The inbox URL itself accepts only deliveries signed with the webhook's secret (raw: the
        // signature covers the exact bytes sent).
        const body = JSON.stringify({ id: "evt_x", type: "payment.completed", data: {} })
        const forged = yield* call("POST", `/api/v1/webhooks/inbox/${managed.id}`, {
          rawBody: body,
          headers: { "x-service-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"a".repeat(64)}` }
        })
        assert.strictEqual(forged.status, 401)
        const genuine = yield* call("POST", `/api/v1/webhooks/inbox/${managed.id}`, {
          rawBody: body,
          headers: { "x-service-signature": stripe.webhooks.generateTestHeaderString({ payload: body, secret: managed.secret }) }
        })
        assert.strictEqual(genuine.status, 200)
        assert.strictEqual((yield* inboxOf(managed.id)).pagination.total, 2)
        const [external] = yield* register(api, { url: "https://x.example/h", events: ["*"] })
        assert.strictEqual(httpStatus[(yield* refused(inboxOf(external.id))).code], 400)
      }))

    it.effect("410 Gone from the subscriber turns the webhook off", () =>
      Effect.scoped(Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const api = yield* apiAs(keys.sandbox.secretKey)
        const gone = yield* subscriber({ status: 410 })
        const [created] = yield* register(api, { url: gone.url, events: ["payment.completed"] })
        yield* pay(api, "paid", 9, "sbx_pix")
        const off = yield* eventually(api.webhooks.get({ params: { id: created.id } }), (r) => r.active === false)
        assert.isFalse(off.active)
        assert.include(off.disabledReason ?? "", "410")
        const log = yield* api.webhooks.deliveries({ params: { id: created.id }, query: {} })
        assert.strictEqual(log.data[0]!.status, "dead_letter")
        assert.strictEqual(log.data[0]!.lastStatusCode, 410)
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

/** The host's log lines (what the operator reads), for the tests that look for what only the operator is told. */
const operatorLog: Array<string> = []

describe("webhook targets cannot reach internal networks (no WEBHOOK_ALLOW_PRIVATE_TARGETS)", () => {
  // Merged: a delivery the test drains itself (`eventually`) logs through it as the worker's does.
  const host = testHost(MemoryStore.layer, { webhookAllowPrivateTargets: false }).pipe(
    Layer.provideMerge(Logger.layer([Logger.map(Logger.formatLogFmt, (line) => void operatorLog.push(line))]))
  )
  layer(host, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("registration and PATCH refuse every internal address spelling, in both environments; production needs https", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        for (const [environment, sk] of [["sandbox", keys.sandbox.secretKey], ["production", keys.production.secretKey]] as const) {
          const api = yield* apiAs(sk)
          for (const url of internalTargets) {
            const refusal = yield* refused(register(api, { url: environment === "production" ? url.replace("http:", "https:") : url, events: ["*"] }))
            assert.strictEqual(httpStatus[refusal.code], 400, `${environment} ${url}: ${refusal.message}`)
            assert.strictEqual(refusal.code, "invalid_request")
            assert.deepStrictEqual(issuePaths(refusal), ["url"])
          }
        }
        const sandbox = yield* apiAs(keys.sandbox.secretKey)
        const plain = yield* refused(Effect.flatMap(apiAs(keys.production.secretKey), (api) => register(api, { url: "http://hooks.example.com/h", events: ["*"] })))
        assert.strictEqual(httpStatus[plain.code], 400)
        const [ok, okResponse] = yield* register(sandbox, { url: "https://hooks.example.com/h", events: ["*"] })
        assert.strictEqual(okResponse.status, 201)
        const patched = yield* refused(sandbox.webhooks.update({ params: { id: ok.id }, payload: { url: "http://169.254.169.254/" } }))
        assert.strictEqual(httpStatus[patched.code], 400)
        assert.strictEqual((yield* sandbox.webhooks.get({ params: { id: ok.id } })).url, "https://hooks.example.com/h")
      }))

    it.effect("a name that resolves to an internal address is registered but never delivered to (DNS rebinding); the merchant reads only 'target refused'", () =>
      Effect.scoped(Effect.gen(function*() {
        // This machine's own name resolves to a loopback or private address.
        const name = (yield* Effect.promise(() => import("node:os"))).hostname()
        const { address } = yield* Effect.promise(() => import("node:dns").then((dns) => dns.promises.lookup(name)))
        const internal = /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$)/.test(address)
        if (!internal) return
        const receiver = yield* subscriber({ status: 200 })
        const port = new URL(receiver.url).port
        const { keys } = yield* createMerchant()
        const api = yield* apiAs(keys.sandbox.secretKey)
        const [created, createdResponse] = yield* register(api, { url: `http://${name}:${port}/hooks`, events: ["payment.completed"] })
        assert.strictEqual(createdResponse.status, 201)
        yield* pay(api, "paid", 9, "sbx_pix")
        const log = yield* eventually(api.webhooks.deliveries({ params: { id: created.id }, query: {} }), (r) => (r.data[0]?.attempts ?? 0) >= 1)
        assert.strictEqual(log.data[0]!.status, "failed", JSON.stringify(log.data[0]))
        // What the name resolves to is for the operator: the merchant's delivery log says only that the target was refused.
        assert.strictEqual(log.data[0]!.lastError, "target refused")
        assert.notInclude(JSON.stringify(log), address)
        const page = yield* call("GET", `/api/v1/webhooks/${created.id}/deliveries`, { bearer: keys.sandbox.secretKey })
        assert.strictEqual(page.status, 200)
        assert.notInclude(JSON.stringify(page.body), address)
        const told = operatorLog.filter((line) => line.includes("webhook target refused"))
        assert.isTrue(told.some((line) => line.includes(name) && line.includes(address)), told.join("\n"))
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
        const api = yield* apiAs(keys.sandbox.secretKey)
        const [created] = yield* register(api, { url: redirecting.url, events: ["payment.completed"] })
        yield* pay(api, "paid", 9, "sbx_pix")
        const log = yield* eventually(api.webhooks.deliveries({ params: { id: created.id }, query: {} }), (r) => (r.data[0]?.attempts ?? 0) >= 1)
        assert.strictEqual(log.data[0]!.lastStatusCode, 302)
        assert.strictEqual(log.data[0]!.status, "failed")
        assert.strictEqual(target.statuses.length, 0, "the redirect was not followed")
      })))
  })
})
