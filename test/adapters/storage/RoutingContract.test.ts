/**
 * Routing outcomes in the storage contract, on every store adapter: the latest outcomes per
 * provider, rail and environment, by family (health or conversion), oldest first; pruning by age.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { RoutingStore } from "../../../core/ports/RoutingStore.ts"
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
          yield* store.record({ ...key, kind: "not_converted", at: 9_500, latencyMs: 0 })
          yield* store.record({ ...key, environment: "sandbox", kind: "bad", at: 9_600, latencyMs: 1 })
          yield* store.record({ ...key, methodId: "1002", kind: "bad", at: 9_700, latencyMs: 1 })

          const health = yield* store.recent(key, "health", 5)
          assert.deepStrictEqual(health.map((o) => [o.kind, o.at, o.latencyMs]), [
            ["ok", 4_000, 400], ["ok", 5_000, 500], ["bad", 6_000, 600], ["ok", 7_000, 700], ["ok", 8_000, 800]
          ])
          assert.deepStrictEqual((yield* store.recent(key, "conversion", 10)).map((o) => o.kind), ["converted", "not_converted"])
          assert.deepStrictEqual((yield* store.recent({ ...key, environment: "sandbox" }, "health", 10)).map((o) => o.at), [9_600])

          yield* store.prune(6_000)
          assert.deepStrictEqual((yield* store.recent(key, "health", 10)).map((o) => o.at), [6_000, 7_000, 8_000])
        }))
    })
  })
}
