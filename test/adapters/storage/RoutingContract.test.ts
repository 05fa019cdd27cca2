/**
 * Routing outcomes in the storage contract, on every store adapter: the latest outcomes per
 * provider, rail and environment, by family (health or conversion), oldest first; pruning by age.
 */
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import { ProviderRouteStore } from "../../../core/ports/ProviderRouteStore.ts"
import { RoutingStore } from "../../../core/ports/RoutingStore.ts"
import { TenancyStore } from "../../../core/ports/TenancyStore.ts"
import { storeTargets } from "../../support/Stores.ts"

for (const target of storeTargets("routing")) {
  describe(`routing outcomes on ${target.name}`, () => {
    layer(target.layer(), { timeout: 60_000 })((it) => {
      it.effect("the latest outcomes of a provider on a rail, by family, oldest first; others apart; old ones pruned", () =>
        Effect.gen(function*() {
          const store = yield* RoutingStore
          const provider = `p_${Math.random().toString(36).slice(2, 8)}`
          const key = { environment: "production" as const, providerId: provider, methodId: "1001" }
          for (let i = 1; i <= 8; i++) {
            yield* store.record({ ...key, kind: i % 3 === 0 ? "bad" : "ok", at: 1_000 * i, latencyMs: 100 * i })
          }
          yield* store.record({ ...key, kind: "converted", at: 9_000, latencyMs: 0 })
          yield* store.record({ ...key, kind: "not_converted", at: 9_500, latencyMs: 0, decline: "do_not_honour" })
          yield* store.record({ ...key, environment: "sandbox", kind: "bad", at: 9_600, latencyMs: 1 })
          yield* store.record({ ...key, methodId: "1002", kind: "bad", at: 9_700, latencyMs: 1 })

          const health = yield* store.recent(key, "health", 5)
          assert.deepStrictEqual(health.map((o) => [o.kind, o.at, o.latencyMs]), [
            ["ok", 4_000, 400], ["ok", 5_000, 500], ["bad", 6_000, 600], ["ok", 7_000, 700], ["ok", 8_000, 800]
          ])
          assert.deepStrictEqual((yield* store.recent(key, "conversion", 10)).map((o) => [o.kind, o.decline]), [["converted", undefined], ["not_converted", "do_not_honour"]])
          // The operator's report reads the decline back, once written as well as before.
          const since = (yield* store.since("production", 9_000, 100)).filter((o) => o.providerId === provider)
          assert.deepStrictEqual(since.map((o) => [o.kind, o.decline]), [["converted", undefined], ["not_converted", "do_not_honour"], ["bad", undefined]])
          assert.deepStrictEqual((yield* store.recent({ ...key, environment: "sandbox" }, "health", 10)).map((o) => o.at), [9_600])

          yield* store.prune(6_000)
          assert.deepStrictEqual((yield* store.recent(key, "health", 10)).map((o) => o.at), [6_000, 7_000, 8_000])
        }))

      it.effect("flushes at the same time (a prune's and the periodic one) write each outcome once", () =>
        Effect.gen(function*() {
          const store = yield* RoutingStore
          const key = { environment: "production" as const, providerId: `p_${Math.random().toString(36).slice(2, 8)}`, methodId: "1001" }
          for (let i = 1; i <= 4; i++) yield* store.record({ ...key, kind: "ok", at: 1_000 * i, latencyMs: 1 })
          yield* Effect.all([store.prune(0), store.prune(0), store.prune(0)], { concurrency: "unbounded" })
          assert.deepStrictEqual((yield* store.recent(key, "health", 10)).map((o) => o.at), [1_000, 2_000, 3_000, 4_000])
        }))

      it.effect("a read that meets a batch of outcomes while it is written counts each outcome once", () =>
        Effect.gen(function*() {
          const store = yield* RoutingStore
          const key = { environment: "production" as const, providerId: `p_${Math.random().toString(36).slice(2, 8)}`, methodId: "1001" }
          for (let round = 0; round < 100; round++) {
            yield* store.record({ ...key, kind: "ok", at: round, latencyMs: 1 })
            // `prune` writes the batch first; the read runs while it does.
            const [, read] = yield* Effect.all([store.prune(-1), store.recent(key, "health", 1000)], { concurrency: "unbounded" })
            const ats = read.map((o) => o.at)
            assert.strictEqual(new Set(ats).size, ats.length, `round ${round}: ${ats.join(",")}`)
            assert.strictEqual(ats.length, round + 1)
          }
        }))

      it.effect("a snapshot: the shop's configuration and routes, and the latest health outcomes of the providers asked about", () =>
        Effect.gen(function*() {
          const store = yield* RoutingStore
          const routes = yield* ProviderRouteStore
          const shopId = `shop_${Math.random().toString(36).slice(2, 8)}`
          const tenancy = yield* TenancyStore
          const createdAt = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
          yield* tenancy.insertMerchant({ id: `mer_${shopId}`, name: "Acme", email: "ops@acme.test", industry: "retail", tier: "starter", trustScore: 500, createdAt })
          yield* tenancy.insertShop({ id: shopId, merchantId: `mer_${shopId}`, name: "Acme MX", createdAt })
          const [a, b, c] = ["a", "b", "c"].map((name) => `${name}_${Math.random().toString(36).slice(2, 8)}`) as [string, string, string]
          const key = { environment: "sandbox" as const, shopId, methodId: "1001" }
          const empty = yield* store.snapshot(key, [a], 3)
          assert.isTrue(Option.isNone(empty.config))
          assert.deepStrictEqual(empty.routes, [])
          assert.deepStrictEqual(empty.health, [])

          assert.isTrue(yield* store.putConfig("sandbox", shopId, 0, { strategy: "static", rules: [] }))
          yield* routes.put({ environment: "sandbox", shopId, providerId: b, priority: 2, methodIds: ["1001"], enabled: true })
          yield* routes.put({ environment: "sandbox", shopId, providerId: a, priority: 1, methodIds: null, enabled: false })
          yield* routes.put({ environment: "production", shopId, providerId: c, priority: 1, methodIds: null, enabled: true })
          for (let i = 1; i <= 5; i++) {
            yield* store.record({ environment: "sandbox", providerId: a, methodId: "1001", kind: i === 5 ? "bad" : "ok", at: i * 1_000, latencyMs: i })
            yield* store.record({ environment: "sandbox", providerId: b, methodId: "1001", kind: "ok", at: i * 1_000 + 500, latencyMs: i })
          }
          yield* store.record({ environment: "sandbox", providerId: a, methodId: "1001", kind: "converted", at: 9_000, latencyMs: 0 })
          yield* store.record({ environment: "sandbox", providerId: a, methodId: "1002", kind: "bad", at: 9_000, latencyMs: 0 })
          yield* store.record({ environment: "sandbox", providerId: c, methodId: "1001", kind: "bad", at: 9_000, latencyMs: 0 })

          const snapshot = yield* store.snapshot(key, [a, b], 3)
          assert.deepStrictEqual(Option.getOrThrow(snapshot.config), { version: 1, document: { strategy: "static", rules: [] } })
          assert.deepStrictEqual(snapshot.routes, [
            { environment: "sandbox", shopId, providerId: a, priority: 1, methodIds: null, enabled: false },
            { environment: "sandbox", shopId, providerId: b, priority: 2, methodIds: ["1001"], enabled: true }
          ])
          const of = (provider: string) => snapshot.health.filter((o) => o.providerId === provider).map((o) => [o.kind, o.at])
          assert.deepStrictEqual(of(a), [["ok", 3_000], ["ok", 4_000], ["bad", 5_000]])
          assert.deepStrictEqual(of(b), [["ok", 3_500], ["ok", 4_500], ["ok", 5_500]])
          assert.deepStrictEqual(of(c), [])
          assert.isTrue(snapshot.health.every((o) => o.environment === "sandbox" && o.methodId === "1001"))
        }))
    })
  })
}
