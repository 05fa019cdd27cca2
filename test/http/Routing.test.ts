/**
 * Routing against the running host, with the reference HTTP provider on upstream simulators:
 * a failing upstream's circuit opens and later payments skip it; a rule sends high-value MXN
 * payments to one provider; a 70/30 volume split holds over 1 000 payments; configurations are
 * validated and versioned; every attempt says why it went where it went.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { ReferenceHttpProvider } from "../../providers/reference-http/ReferenceHttpProvider.ts"
import { UpstreamSimulator } from "../../providers/reference-http/UpstreamSimulator.ts"
import { adminToken, call, connectorInstance, createMerchant, testHost } from "../support/Host.ts"

const ids = ["circuit-a", "circuit-b", "rule-p", "rule-q"] as const
type Id = typeof ids[number]

class Upstreams extends Context.Service<Upstreams, Record<Id, UpstreamSimulator>>()("test/RoutingUpstreams") {}

const credentials = { apiKey: "routing-upstream-key", callbackSecret: "routing-upstream-secret" }

const HostWithUpstreams = Layer.unwrap(Effect.gen(function*() {
  const sims = {} as Record<Id, UpstreamSimulator>
  for (const id of ids) sims[id] = yield* UpstreamSimulator.start(credentials)
  const connectors = ids.map((id) =>
    connectorInstance(ReferenceHttpProvider.connector, { id, environment: "sandbox", baseUrl: sims[id].baseUrl }, {
      API_KEY: credentials.apiKey,
      CALLBACK_SECRET: credentials.callbackSecret
    }))
  return Layer.merge(testHost(MemoryStore.layer, { connectors }), Layer.succeed(Upstreams, sims))
}))

const route = (shopId: string, providerId: string, priority: number, enabled = true) =>
  call("PUT", `/admin/v1/shops/${shopId}/routes/${providerId}`, { bearer: adminToken, body: { environment: "sandbox", priority, enabled } })

const putRouting = (shopId: string, body: Record<string, unknown>) =>
  call("PUT", `/admin/v1/shops/${shopId}/routing`, { bearer: adminToken, body: { environment: "sandbox", ...body } })

const shop = (routes: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const merchant = yield* createMerchant()
    const shopId = merchant.shops[0]!.id
    for (const [i, id] of routes.entries()) assert.strictEqual((yield* route(shopId, id, i + 1)).status, 200)
    assert.strictEqual((yield* route(shopId, "sandbox", 99, false)).status, 200)
    const sk = merchant.keys.sandbox.secretKey
    const pay = (body: Record<string, unknown>) =>
      call("POST", "/api/v1/payments", {
        bearer: sk,
        body: { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725", ...body }
      })
    return { shopId, pay }
  })

const attemptsOf = (transactionId: string) =>
  Effect.map(call("GET", `/admin/v1/payments/${transactionId}/routing`, { bearer: adminToken }), (r) =>
    r.body.attempts as ReadonlyArray<{ provider: string; outcome: string; routing: { ruleId: string | null; strategy: string; circuit: string; score: number | null } | null }>)

describe("routing through the host", () => {
  layer(HostWithUpstreams, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("a failing upstream's circuit opens after 3 failures: later payments skip it, and say so", () =>
      Effect.gen(function*() {
        const sims = yield* Upstreams
        yield* sims["circuit-a"].setMode("unavailable")
        const { pay } = yield* shop(["circuit-a", "circuit-b"])
        for (let i = 0; i < 3; i++) {
          const paid = yield* pay({ amount: 20, paymentMethodId: "1001" })
          assert.strictEqual(paid.status, 201)
          assert.deepStrictEqual((yield* attemptsOf(paid.body.transactionId)).map((a) => [a.provider, a.outcome]), [
            ["circuit-a", "failed"],
            ["circuit-b", "accepted"]
          ])
        }
        const calls = sims["circuit-a"].requests.length
        const later = yield* pay({ amount: 20, paymentMethodId: "1001" })
        const attempts = yield* attemptsOf(later.body.transactionId)
        assert.deepStrictEqual(attempts.map((a) => a.provider), ["circuit-b"], "the open circuit is skipped")
        assert.deepInclude(attempts[0]!.routing!, { ruleId: null, strategy: "health", circuit: "closed" })
        assert.strictEqual(sims["circuit-a"].requests.length, calls, "nothing was sent to the failing upstream")
      }))

    it.effect("a route change shows in the catalog at once on the host that made it (the catalog's route cache is forgotten)", () =>
      Effect.gen(function*() {
        const routable = (bearer: string) =>
          Effect.map(call("GET", "/api/v1/payment-methods?country=BR", { bearer }), (r) =>
            (r.body.methods as ReadonlyArray<{ paymentMethodId: string; routable: boolean }>).find((m) => m.paymentMethodId === "1001")!.routable)
        const merchant = yield* createMerchant()
        const sk = merchant.keys.sandbox.secretKey
        const ownShop = merchant.shops[0]!.id
        assert.strictEqual((yield* route(ownShop, "sandbox", 99, false)).status, 200)
        assert.isFalse(yield* routable(sk), "the sandbox route is disabled and no other provider serves the shop")
        assert.strictEqual((yield* route(ownShop, "rule-p", 1)).status, 200)
        assert.isTrue(yield* routable(sk), "read again right after the change")
        const removed = yield* call("DELETE", `/admin/v1/shops/${ownShop}/routes/rule-p?environment=sandbox`, { bearer: adminToken })
        assert.deepStrictEqual([removed.status, removed.body.deleted], [200, true])
        assert.isFalse(yield* routable(sk), "read again right after the removal")
      }))

    it.effect("a rule sends high-value MXN payments to one provider; the default takes the rest", () =>
      Effect.gen(function*() {
        const sims = yield* Upstreams
        const { pay, shopId } = yield* shop(["rule-q", "rule-p"])
        const set = yield* putRouting(shopId, {
          strategy: "static",
          rules: [{ id: "mxn-high", when: { currencies: ["MXN"], amountUsd: { min: 500 } }, providers: ["rule-p"] }],
          default: { providers: ["rule-q", "rule-p"] }
        })
        assert.strictEqual(set.status, 200, JSON.stringify(set.body))
        assert.strictEqual(set.body.version, 1)
        const providerOf = (body: Record<string, unknown>) =>
          Effect.gen(function*() {
            const paid = yield* pay(body)
            assert.strictEqual(paid.status, 201, JSON.stringify(paid.body))
            return (yield* attemptsOf(paid.body.transactionId))[0]!
          })
        const highMxn = yield* providerOf({ amount: 800, paymentMethodId: "1031" })
        assert.deepInclude(highMxn, { provider: "rule-p" })
        assert.deepInclude(highMxn.routing!, { ruleId: "mxn-high", strategy: "static" })
        assert.deepInclude(yield* providerOf({ amount: 50, paymentMethodId: "1031" }), { provider: "rule-q" })
        // The bounds are exact: [min, max).
        assert.deepInclude(yield* providerOf({ amount: 500, paymentMethodId: "1031" }), { provider: "rule-p" })
        assert.deepInclude(yield* providerOf({ amount: 499.99, paymentMethodId: "1031" }), { provider: "rule-q" })
        const highBrl = yield* providerOf({ amount: 800, paymentMethodId: "1001" })
        assert.deepInclude(highBrl, { provider: "rule-q" })
        assert.strictEqual(highBrl.routing!.ruleId, "default")
        assert.isAbove(sims["rule-p"].charges.size, 0)
      }))

    it.effect("a 70/30 volume split holds within a few points over 1 000 payments", () =>
      Effect.gen(function*() {
        const sims = yield* Upstreams
        const { pay, shopId } = yield* shop(["rule-p", "rule-q"])
        const set = yield* putRouting(shopId, {
          strategy: "static",
          rules: [{ id: "split", when: {}, split: [{ provider: "rule-p", weight: 70 }, { provider: "rule-q", weight: 30 }] }]
        })
        assert.strictEqual(set.status, 200, JSON.stringify(set.body))
        const paid = new Set(yield* Effect.forEach(Array.from({ length: 1_000 }), () =>
          Effect.map(pay({ amount: 20, paymentMethodId: "1001" }), (r) => r.body.transactionId as string), { concurrency: 8 }))
        const on = (id: Id) => [...sims[id].charges.values()].filter((c) => paid.has(c.reference)).length
        assert.strictEqual(on("rule-p") + on("rule-q"), 1_000)
        const share = on("rule-p") / 1_000
        assert.approximately(share, 0.7, 0.05, `rule-p took ${share}`)
      }))

    it.effect("configurations are validated (400 naming the rule) and versioned (409 on a stale write)", () =>
      Effect.gen(function*() {
        const { shopId } = yield* shop(["rule-p"])
        const unknown = yield* putRouting(shopId, { strategy: "health", rules: [{ id: "r1", when: {}, providers: ["nobody"] }] })
        assert.strictEqual(unknown.status, 400)
        assert.deepInclude(unknown.body.error.details.issues[0], { path: "rules[0].providers[0]" })
        const both = yield* putRouting(shopId, {
          strategy: "health",
          rules: [
            { id: "r1", when: {}, providers: ["rule-p"], split: [{ provider: "rule-q", weight: 1 }] },
            { id: "r1", when: {}, providers: ["rule-q"] }
          ]
        })
        assert.strictEqual(both.status, 400)
        assert.sameMembers(both.body.error.details.issues.map((i: { path: string }) => i.path), ["rules[0]", "rules[1].id"])
        const sandboxOnly = yield* putRouting(shopId, {
          strategy: "health",
          rules: [{ id: "r1", when: { paymentMethodIds: ["1001"] }, providers: ["sandbox", "rule-p"] }]
        })
        assert.strictEqual(sandboxOnly.status, 200, "the sandbox provider and rule-p serve PIX")
        const badStrategy = yield* putRouting(shopId, { strategy: "fastest", rules: [] })
        assert.strictEqual(badStrategy.status, 400)

        const read = yield* call("GET", `/admin/v1/shops/${shopId}/routing?environment=sandbox`, { bearer: adminToken })
        assert.strictEqual(read.body.version, 1)
        const stale = yield* putRouting(shopId, { strategy: "success_rate", rules: [], version: 0 })
        assert.strictEqual(stale.status, 409)
        assert.deepInclude(stale.body.error, { code: "routing_version_conflict" })
        const next = yield* putRouting(shopId, { strategy: "success_rate", rules: [], version: 1 })
        assert.strictEqual(next.body.version, 2)
        assert.strictEqual((yield* call("GET", `/admin/v1/shops/shop_nope/routing?environment=sandbox`, { bearer: adminToken })).status, 404)
      }))

    it.effect("success-rate routing, opt-in, orders only the rule's providers and records its draw", () =>
      Effect.gen(function*() {
        const { pay, shopId } = yield* shop(["rule-q", "rule-p", "circuit-b"])
        const set = yield* putRouting(shopId, { strategy: "success_rate", rules: [{ id: "two", when: {}, providers: ["rule-p", "rule-q"] }] })
        assert.strictEqual(set.status, 200, JSON.stringify(set.body))
        for (let i = 0; i < 20; i++) {
          const paid = yield* pay({ amount: 20, paymentMethodId: "1001" })
          const [first] = yield* attemptsOf(paid.body.transactionId)
          assert.include(["rule-p", "rule-q"], first!.provider, "never a provider the rule excludes")
          assert.deepInclude(first!.routing!, { ruleId: "two", strategy: "success_rate" })
          const score = first!.routing!.score
          assert.isTrue(score === null || (score >= 0 && score <= 1))
        }
      }))
  })
})
