/**
 * `GET /events` as a merchant reads it: the shop's events newest first, each exactly the envelope
 * a webhook delivery carries; filtered by type and by the object they are about; paged; one by
 * id; another merchant's or environment's event answers 404 like an unknown id; a bad type is 400.
 * Requests go through the typed client (TypedApi.ts): an event is read as the API declares it.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import type { SandboxSimulate } from "../../core/ports/PaymentProvider.ts"
import { createMerchant, testHost } from "../support/Host.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

/** With the raw response beside the decoded answer, for its status. */
const withResponse = { responseMode: "decoded-and-response" } as const

describe("GET /events", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("lists, filters, pages and reads the shop's events; other shops, environments and bad filters are refused", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const api = yield* apiAs(m.keys.sandbox.secretKey)
        const pay = (simulate: SandboxSimulate, order: string) =>
          Effect.map(
            api.payments.create({
              payload: { amount: Money.decimal("20"), paymentMethodId: "sbx_pix", merchantOrderId: order, userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com") },
              headers: { "sandbox-simulate": simulate, "idempotency-key": order }
            }),
            (p) => p.transactionId
          )
        const a = yield* pay("paid", "order-a")
        const b = yield* pay("paid", "order-b")
        const c = yield* pay("failed", "order-c")
        // The sandbox clock runs what came due: the simulated outcomes.
        const [, advanced] = yield* api.sandbox.advance({ payload: { seconds: 1 }, headers: {}, ...withResponse })
        assert.strictEqual(advanced.status, 200)

        type Query = Parameters<typeof api.events.list>[0]["query"]
        const list = (query: Query, as = api) => as.events.list({ query })
        const [all, allReply] = yield* api.events.list({ query: {}, ...withResponse })
        assert.strictEqual(allReply.status, 200)
        const events = all.data
        const subject = (e: (typeof events)[number]) => e.data["id"]
        assert.includeMembers(events.map((e) => `${e.type} ${subject(e)}`), [`payment.completed ${a}`, `payment.completed ${b}`, `payment.failed ${c}`])
        assert.deepStrictEqual(events.map((e) => e.created), [...events.map((e) => e.created)].sort().reverse(), "newest first")
        for (const e of events) {
          assert.match(e.id, /^evt_/)
          assert.deepInclude(e, { environment: "sandbox", shopId: m.shops[0]!.id })
          assert.isString(e.apiVersion)
        }
        assert.deepInclude(all.pagination, { total: events.length, limit: 50, offset: 0, pages: 1 })

        const failed = yield* list({ type: "payment.failed" })
        assert.deepStrictEqual(failed.data.map(subject), [c])
        const both = yield* list({ type: "payment.failed,payment.completed", limit: 1, offset: 1 })
        assert.deepStrictEqual([both.data.length, both.pagination.total], [1, 3])
        assert.strictEqual(both.data[0]!.id, events.filter((e) => e.type === "payment.failed" || e.type === "payment.completed")[1]!.id)
        const aboutA = yield* list({ relatedId: a })
        const ofA = aboutA.data
        assert.include(ofA.map((e) => e.type), "payment.completed")
        assert.deepStrictEqual([...new Set(ofA.map(subject))], [a], "only the events about that payment")
        assert.strictEqual(aboutA.pagination.total, events.filter((e) => subject(e) === a).length)

        const unknown = yield* refused(list({ type: "payment.teleported" }))
        assert.strictEqual(httpStatus[unknown.code], 400)
        assert.strictEqual(unknown.code, "invalid_request")
        assert.deepStrictEqual((unknown.details["issues"] as ReadonlyArray<{ path: string }>).map((i) => i.path), ["type"])

        const [one, oneReply] = yield* api.events.get({ params: { id: events[0]!.id }, ...withResponse })
        assert.deepStrictEqual([oneReply.status, one], [200, events[0]])
        const stranger = yield* createMerchant()
        for (const bearer of [stranger.keys.sandbox.secretKey, m.keys.production.secretKey]) {
          const other = yield* apiAs(bearer)
          const hidden = yield* refused(other.events.get({ params: { id: events[0]!.id } }))
          assert.deepStrictEqual([httpStatus[hidden.code], hidden.code], [404, "not_found"])
          assert.strictEqual((yield* list({}, other)).pagination.total, 0)
        }
        assert.strictEqual(httpStatus[(yield* refused(api.events.get({ params: { id: "evt_unknown" } }))).code], 404)
      }))
  })
})
