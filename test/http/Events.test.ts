/**
 * `GET /events` as a merchant reads it: the shop's events newest first, each exactly the envelope
 * a webhook delivery carries; filtered by type and by the object they are about; paged; one by
 * id; another merchant's or environment's event answers 404 like an unknown id; a bad type is 400.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"

interface Event {
  readonly id: string
  readonly type: string
  readonly created: string
  readonly environment: string
  readonly shopId: string
  readonly apiVersion: string
  readonly data: { readonly id?: string; readonly status?: string }
}

describe("GET /events", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("lists, filters, pages and reads the shop's events; other shops, environments and bad filters are refused", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const sk = m.keys.sandbox.secretKey
        const pay = (simulate: string, order: string) =>
          Effect.map(
            call("POST", "/api/v1/payments", {
              bearer: sk,
              headers: { "sandbox-simulate": simulate, "idempotency-key": order },
              body: { amount: 20, paymentMethodId: "sbx_pix", merchantOrderId: order, userName: "Ana Souza", userEmail: "ana@example.com" }
            }),
            (r) => r.body.transactionId as string
          )
        const a = yield* pay("paid", "order-a")
        const b = yield* pay("paid", "order-b")
        const c = yield* pay("failed", "order-c")
        // The sandbox clock runs what came due: the simulated outcomes.
        assert.strictEqual((yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 1 } })).status, 200)

        const list = (query: string, bearer = sk) => call("GET", `/api/v1/events${query}`, { bearer })
        const all = yield* list("")
        assert.strictEqual(all.status, 200)
        const events = all.body.data as ReadonlyArray<Event>
        assert.includeMembers(events.map((e) => `${e.type} ${e.data.id}`), [`payment.completed ${a}`, `payment.completed ${b}`, `payment.failed ${c}`])
        assert.deepStrictEqual(events.map((e) => e.created), [...events.map((e) => e.created)].sort().reverse(), "newest first")
        for (const e of events) {
          assert.match(e.id, /^evt_/)
          assert.deepInclude(e, { environment: "sandbox", shopId: m.shops[0]!.id })
          assert.isString(e.apiVersion)
        }
        assert.deepInclude(all.body.pagination, { total: events.length, limit: 50, offset: 0, pages: 1 })

        const failed = yield* list("?type=payment.failed")
        assert.deepStrictEqual((failed.body.data as ReadonlyArray<Event>).map((e) => e.data.id), [c])
        const both = yield* list("?type=payment.failed,payment.completed&limit=1&offset=1")
        assert.deepStrictEqual([both.body.data.length, both.body.pagination.total], [1, 3])
        assert.strictEqual(both.body.data[0].id, events.filter((e) => e.type === "payment.failed" || e.type === "payment.completed")[1]!.id)
        const aboutA = yield* list(`?relatedId=${a}`)
        const ofA = aboutA.body.data as ReadonlyArray<Event>
        assert.include(ofA.map((e) => e.type), "payment.completed")
        assert.deepStrictEqual([...new Set(ofA.map((e) => e.data.id))], [a], "only the events about that payment")
        assert.strictEqual(aboutA.body.pagination.total, events.filter((e) => e.data.id === a).length)

        const unknown = yield* list("?type=payment.teleported")
        assert.strictEqual(unknown.status, 400)
        assert.strictEqual(unknown.body.error.code, "invalid_request")
        assert.deepStrictEqual(unknown.body.error.details.issues.map((i: { path: string }) => i.path), ["type"])

        const one = yield* call("GET", `/api/v1/events/${events[0]!.id}`, { bearer: sk })
        assert.deepStrictEqual([one.status, one.body], [200, events[0]])
        const stranger = yield* createMerchant()
        for (const bearer of [stranger.keys.sandbox.secretKey, m.keys.production.secretKey]) {
          const hidden = yield* call("GET", `/api/v1/events/${events[0]!.id}`, { bearer })
          assert.deepStrictEqual([hidden.status, hidden.body.error.code], [404, "not_found"])
          assert.strictEqual((yield* list("", bearer)).body.pagination.total, 0)
        }
        assert.strictEqual((yield* call("GET", "/api/v1/events/evt_unknown", { bearer: sk })).status, 404)
      }))
  })
})
