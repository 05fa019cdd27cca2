/**
 * Routing against the running host, with the reference HTTP provider on upstream simulators:
 * a failing upstream's circuit opens and later payments skip it; a rule sends high-value MXN
 * payments to one provider; a 70/30 volume split holds over 1 000 payments; configurations are
 * validated and versioned; every attempt says why it went where it went.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { ReferenceHttpProvider } from "../../providers/reference-http/ReferenceHttpProvider.ts"
import { UpstreamSimulator } from "../../providers/reference-http/UpstreamSimulator.ts"
import { adminToken, call, connectorInstance, createMerchant, testHost } from "../support/Host.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

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

const admin = apiAs(adminToken)

const route = (shopId: string, providerId: string, priority: number, enabled = true) =>
  Effect.flatMap(admin, (api) =>
    api.admin.putRoute({ params: { shopId, providerId }, payload: { environment: "sandbox", priority, enabled }, responseMode: "decoded-and-response" }))

type RoutingBody = Omit<Parameters<Effect.Success<typeof admin>["routingAdmin"]["putRouting"]>[0]["payload"], "environment">

const putRouting = (shopId: string, body: RoutingBody) =>
  Effect.flatMap(admin, (api) =>
    api.routingAdmin.putRouting({ params: { shopId }, payload: { environment: "sandbox", ...body }, responseMode: "decoded-and-response" }))

const shop = (routes: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const merchant = yield* createMerchant()
    const shopId = merchant.shops[0]!.id
    for (const [i, id] of routes.entries()) assert.strictEqual((yield* route(shopId, id, i + 1))[1].status, 200)
    assert.strictEqual((yield* route(shopId, "sandbox", 99, false))[1].status, 200)
    const api = yield* apiAs(merchant.keys.sandbox.secretKey)
    const pay = (body: { readonly amount: number; readonly paymentMethodId: string }) =>
      api.payments.create({
        payload: { userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com"), documentId: Redacted.make(body.paymentMethodId === "1031" ? "GODE561231GR8" : "52998224725"), paymentMethodId: body.paymentMethodId, amount: Money.decimal(String(body.amount)) },
        headers: {},
        responseMode: "decoded-and-response"
      })
    return { shopId, pay }
  })

const attemptsOf = (transactionId: string) =>
  Effect.flatMap(admin, (api) => Effect.map(api.routingAdmin.getPaymentRouting({ params: { id: transactionId } }), (r) => r.attempts))

describe("routing through the host", () => {
  layer(HostWithUpstreams, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("a failing upstream's circuit opens after 3 failures: later payments skip it, and say so", () =>
      Effect.gen(function*() {
        const sims = yield* Upstreams
        yield* sims["circuit-a"].setMode("unavailable")
        const { pay } = yield* shop(["circuit-a", "circuit-b"])
        for (let i = 0; i < 3; i++) {
          const [paid, paidResponse] = yield* pay({ amount: 20, paymentMethodId: "1001" })
          assert.strictEqual(paidResponse.status, 201)
          assert.deepStrictEqual((yield* attemptsOf(paid.transactionId)).map((a) => [a.provider, a.outcome]), [
            ["circuit-a", "failed"],
            ["circuit-b", "accepted"]
          ])
        }
        const calls = sims["circuit-a"].requests.length
        const [later] = yield* pay({ amount: 20, paymentMethodId: "1001" })
        const attempts = yield* attemptsOf(later.transactionId)
        assert.deepStrictEqual(attempts.map((a) => a.provider), ["circuit-b"], "the open circuit is skipped")
        assert.deepInclude(attempts[0]!.routing!, { ruleId: null, strategy: "health", circuit: "closed" })
        assert.strictEqual(sims["circuit-a"].requests.length, calls, "nothing was sent to the failing upstream")
        const skipped = (yield* (yield* admin).routingAdmin.getPaymentRouting({ params: { id: later.transactionId } })).skipped
        assert.deepInclude(skipped, { provider: "circuit-a", reason: "circuit_open" }, "and the payment says why")
      }))

    it.effect("a route change shows in the catalog at once on the host that made it (the catalog's route cache is forgotten)", () =>
      Effect.gen(function*() {
        const routable = (bearer: string) =>
          Effect.flatMap(apiAs(bearer), (api) =>
            Effect.map(api.catalog.paymentMethods({ query: { country: "BR" } }), (r) => r.methods.find((m) => m.paymentMethodId === "1001")!.routable))
        const merchant = yield* createMerchant()
        const sk = merchant.keys.sandbox.secretKey
        const ownShop = merchant.shops[0]!.id
        assert.strictEqual((yield* route(ownShop, "sandbox", 99, false))[1].status, 200)
        assert.isFalse(yield* routable(sk), "the sandbox route is disabled and no other provider serves the shop")
        assert.strictEqual((yield* route(ownShop, "rule-p", 1))[1].status, 200)
        assert.isTrue(yield* routable(sk), "read again right after the change")
        const [removed, removedResponse] = yield* (yield* admin).admin.deleteRoute({
          params: { shopId: ownShop, providerId: "rule-p" },
          query: { environment: "sandbox" },
          responseMode: "decoded-and-response"
        })
        assert.deepStrictEqual([removedResponse.status, removed.deleted], [200, true])
        assert.isFalse(yield* routable(sk), "read again right after the removal")
      }))

    it.effect("a rule sends high-value MXN payments to one provider; the default takes the rest", () =>
      Effect.gen(function*() {
        const sims = yield* Upstreams
        const { pay, shopId } = yield* shop(["rule-q", "rule-p"])
        const [set, setResponse] = yield* putRouting(shopId, {
          strategy: "static",
          rules: [{ id: "mxn-high", when: { currencies: ["MXN"], amountUsd: { min: 500 } }, providers: ["rule-p"] }],
          default: { providers: ["rule-q", "rule-p"] }
        })
        assert.strictEqual(setResponse.status, 200)
        assert.strictEqual(set.version, 1)
        const providerOf = (body: { readonly amount: number; readonly paymentMethodId: string }) =>
          Effect.gen(function*() {
            const [paid, response] = yield* pay(body)
            assert.strictEqual(response.status, 201)
            return (yield* attemptsOf(paid.transactionId))[0]!
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
        const [, set] = yield* putRouting(shopId, {
          strategy: "static",
          rules: [{ id: "split", when: {}, split: [{ provider: "rule-p", weight: 70 }, { provider: "rule-q", weight: 30 }] }]
        })
        assert.strictEqual(set.status, 200)
        const paid = new Set(yield* Effect.forEach(Array.from({ length: 1_000 }), () =>
          Effect.map(pay({ amount: 20, paymentMethodId: "1001" }), ([created]) => created.transactionId), { concurrency: 8 }))
        const on = (id: Id) => [...sims[id].charges.values()].filter((c) => paid.has(c.reference)).length
        assert.strictEqual(on("rule-p") + on("rule-q"), 1_000)
        const share = on("rule-p") / 1_000
        assert.approximately(share, 0.7, 0.05, `rule-p took ${share}`)
      }))

    it.effect("configurations are validated (400 naming the rule) and versioned (409 on a stale write)", () =>
      Effect.gen(function*() {
        const { shopId } = yield* shop(["rule-p"])
        const unknown = yield* refused(putRouting(shopId, { strategy: "health", rules: [{ id: "r1", when: {}, providers: ["nobody"] }] }))
        assert.strictEqual(httpStatus[unknown.code], 400)
        assert.deepInclude((unknown.details["issues"] as ReadonlyArray<{ path: string }>)[0], { path: "rules[0].providers[0]" })
        const both = yield* refused(putRouting(shopId, {
          strategy: "health",
          rules: [
            { id: "r1", when: {}, providers: ["rule-p"], split: [{ provider: "rule-q", weight: 1 }] },
            { id: "r1", when: {}, providers: ["rule-q"] }
          ]
        }))
        assert.strictEqual(httpStatus[both.code], 400)
        assert.sameMembers((both.details["issues"] as ReadonlyArray<{ path: string }>).map((i) => i.path), ["rules[0]", "rules[1].id"])
        const [, sandboxOnly] = yield* putRouting(shopId, {
          strategy: "health",
          rules: [{ id: "r1", when: { paymentMethodIds: ["1001"] }, providers: ["sandbox", "rule-p"] }]
        })
        assert.strictEqual(sandboxOnly.status, 200, "the sandbox provider and rule-p serve PIX")
        // Raw: a strategy that does not exist, which the typed client cannot send.
        const badStrategy = yield* call("PUT", `/admin/v1/shops/${shopId}/routing`, { bearer: adminToken, body: { environment: "sandbox", strategy: "fastest", rules: [] } })
        assert.strictEqual(badStrategy.status, 400)

        const api = yield* admin
        const read = yield* api.routingAdmin.getRouting({ params: { shopId }, query: { environment: "sandbox" } })
        assert.strictEqual(read.version, 1)
        const stale = yield* refused(putRouting(shopId, { strategy: "success_rate", rules: [], version: 0 }))
        assert.strictEqual(httpStatus[stale.code], 409)
        assert.strictEqual(stale.code, "routing_version_conflict")
        const [next] = yield* putRouting(shopId, { strategy: "success_rate", rules: [], version: 1 })
        assert.strictEqual(next.version, 2)
        assert.strictEqual(httpStatus[(yield* refused(api.routingAdmin.getRouting({ params: { shopId: "shop_nope" }, query: { environment: "sandbox" } }))).code], 404)
      }))

    it.effect("success-rate routing, opt-in, orders only the rule's providers and records its draw", () =>
      Effect.gen(function*() {
        const { pay, shopId } = yield* shop(["rule-q", "rule-p", "circuit-b"])
        const [, set] = yield* putRouting(shopId, { strategy: "success_rate", rules: [{ id: "two", when: {}, providers: ["rule-p", "rule-q"] }] })
        assert.strictEqual(set.status, 200)
        for (let i = 0; i < 20; i++) {
          const [paid] = yield* pay({ amount: 20, paymentMethodId: "1001" })
          const [first] = yield* attemptsOf(paid.transactionId)
          assert.include(["rule-p", "rule-q"], first!.provider, "never a provider the rule excludes")
          assert.deepInclude(first!.routing!, { ruleId: "two", strategy: "success_rate" })
          const score = first!.routing!.score
          assert.isTrue(score === null || (score >= 0 && score <= 1))
        }
      }))
  })
})
