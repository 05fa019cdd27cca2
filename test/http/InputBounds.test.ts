/**
 * The input holes an outside fuzzer found, each answered as the API documents it, on
 * PGlite and on PostgreSQL when `DATABASE_URL` is set (the stores that refused what memory takes):
 * ill-formed UTF-16 is `400 invalid_request` naming the field, an offset past any list is clamped,
 * and a number bound for an `integer` column or an amount past its bound is a 400 naming it.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { nestsDeeperThan, refusalOfBody, textIssues } from "../../adapters/http/server/middleware/StorableText.ts"
import { adminToken, call, createMerchant, type Reply, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const refused = (reply: Reply, field: string) => {
  assert.strictEqual(reply.status, 400, JSON.stringify(reply.body))
  assert.strictEqual(reply.body.error.code, "invalid_request", JSON.stringify(reply.body))
  assert.include(reply.body.error.details.issues.map((i: { path: string }) => i.path), field, JSON.stringify(reply.body))
}

describe("storable text", () => {
  it("names every string that is not Unicode text or holds a NUL, keys too, without recursion", () => {
    const issues = textIssues({ customer: { firstName: "a\ud800", lastName: "ok 💸" }, items: [{ name: "\udc00" }], ["k\ud800"]: 1, n: "a\u0000" })
    assert.sameMembers(issues.map((i) => i.path), ["customer.firstName", "items.0.name", "k\ufffd", "n"])
    assert.deepStrictEqual(textIssues({ fine: ["😀", "ação", { "日本": "語" }] }), [])
    let deep: unknown = "\ud800"
    for (let i = 0; i < 100_000; i++) deep = [deep]
    assert.strictEqual(textIssues(deep).length, 1)
  })

  it("measures nesting in one pass, strings skipped", () => {
    assert.isFalse(nestsDeeperThan(JSON.stringify({ a: [[{ b: [1] }]] }), 64))
    assert.isTrue(nestsDeeperThan("[".repeat(65) + "]".repeat(65), 64))
    assert.isFalse(nestsDeeperThan(JSON.stringify({ s: "[".repeat(1000) + "\\\"[" }), 64))
  })

  it("leaves well-formed and non-JSON bodies to the endpoint", () => {
    assert.isUndefined(refusalOfBody(JSON.stringify({ name: "José 😀", escaped: "\\ud800 as text" })))
    assert.isUndefined(refusalOfBody("{\"a\": \"\\ud800"))
    assert.strictEqual(refusalOfBody("{\"a\": \"\\ud800\"}")?.code, "invalid_request")
  })
})

for (const target of storeTargets("inputbounds").filter((t) => t.name !== "memory")) {
  describe(`input bounds (${target.name})`, () => {
    layer(testHost(target.layer()), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("a lone surrogate in customer.firstName is 400 naming it, and nothing is created", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          const body = { amount: 10, customer: { firstName: "Ana\ud800", lastName: "Silva" } }
          refused(yield* call("POST", "/api/v1/checkout/sessions", { bearer: sk, body }), "customer.firstName")
          refused(yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "sbx_pix", merchantOrderId: "\udfffx" } }), "merchantOrderId")
          // The same name, well-formed, is taken.
          const ok = yield* call("POST", "/api/v1/checkout/sessions", { bearer: sk, body: { amount: 10, customer: { firstName: "Ana 😀", lastName: "Silva" } } })
          assert.strictEqual(ok.status, 201, JSON.stringify(ok.body))
          const list = yield* call("GET", "/api/v1/payments", { bearer: sk })
          assert.strictEqual(list.body.pagination.total, 0)
        }))

      it.effect("offset=1e308 and other numbers past any list are clamped silently, as documented", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          for (const [query, limit, offset] of [["offset=1e308", 50, 1_000_000_000], ["offset=-1e308&limit=1e308", 100, 0], ["offset=1e-308&limit=1e-308", 1, 0], ["offset=9007199254740993", 50, 1_000_000_000]] as const) {
            const reply = yield* call("GET", `/api/v1/payments?${query}`, { bearer: sk })
            assert.strictEqual(reply.status, 200, `${query}: ${JSON.stringify(reply.body)}`)
            assert.deepStrictEqual(reply.body.data, [])
            assert.strictEqual(reply.body.pagination.limit, limit, query)
            assert.strictEqual(reply.body.pagination.offset, offset, query)
          }
          const events = yield* call("GET", "/api/v1/webhooks?offset=1e308", { bearer: sk })
          assert.strictEqual(events.status, 200, JSON.stringify(events.body))
          const notNumber = yield* call("GET", "/api/v1/payments?offset=NaN", { bearer: sk })
          refused(notNumber, "offset")
        }))

      it.effect("an integer bound for an integer column, or an amount past its bound, is 400 naming it", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const shopId = m.shops[0]!.id
          const sk = m.keys.sandbox.secretKey
          for (const priority of [1e308, 2 ** 31, -(2 ** 53 + 1)]) {
            refused(yield* call("PUT", `/admin/v1/shops/${shopId}/routes/sandbox`, { bearer: adminToken, body: { environment: "sandbox", priority } }), "priority")
          }
          const version = yield* call("PUT", `/admin/v1/shops/${shopId}/routing`, {
            bearer: adminToken,
            body: { environment: "sandbox", version: 1e308, strategy: "static", rules: [] }
          })
          refused(version, "version")
          refused(yield* call("GET", "/api/v1/me/balance/swap?from=BRL&amount=1e308", { bearer: sk }), "amount")
          refused(yield* call("GET", "/api/v1/me/payout/swap?to=BRL&amount=-1e308", { bearer: sk }), "amount")
        }))
    })
  })
}
