/**
 * The routing simulation of `npm run bench:routing` with a small N: seeded, on virtual time, and
 * holding the goals of the strategies (success-rate routing close to the oracle everywhere, health
 * and success-rate routing well above static priority through an outage).
 */
import { assert, describe, it } from "@effect/vitest"
import { circuitOf } from "../../core/routing/Health.ts"
import { order } from "../../core/routing/Strategy.ts"
import { scenarios, seeded, simulate } from "../../bench/routing/Simulation.ts"

describe("routing simulation", () => {
  const results = new Map(scenarios.map((s) => [s.name, simulate(s, 3_000, 42)]))

  it("is deterministic: the same seed replays the same conversions", () => {
    assert.deepStrictEqual(simulate(scenarios[1]!, 3_000, 42), results.get("outage"))
  })

  it("success-rate routing converts within 5% of the oracle in every scenario, and never below static", () => {
    for (const r of results.values()) {
      assert.isAtLeast(r.successRate, 0.95 * r.oracle, r.scenario)
      assert.isAtLeast(r.successRate, r.static, r.scenario)
    }
  })

  it("through an outage, health-aware and success-rate routing are at least 5 points above static", () => {
    const outage = results.get("outage")!
    assert.isAtLeast(outage.health - outage.static, 0.05)
    assert.isAtLeast(outage.successRate - outage.static, 0.05)
  })

  it("the circuit opens after 3 bad outcomes, lets one probe through after a minute, and closes on its success", () => {
    const bad = (at: number) => ({ at, kind: "bad" as const, latencyMs: 10_000 })
    const ok = (at: number) => ({ at, kind: "ok" as const, latencyMs: 800 })
    assert.strictEqual(circuitOf([bad(1), bad(2)], 3).state, "closed")
    const opened = [bad(1), bad(2), bad(3)]
    assert.strictEqual(circuitOf(opened, 10_000).state, "open")
    assert.strictEqual(circuitOf(opened, 60_003).state, "half_open")
    const probing = [...opened, { at: 60_004, kind: "probe" as const, latencyMs: 0 }]
    assert.strictEqual(circuitOf(probing, 60_005).state, "open", "a probe is in flight")
    assert.strictEqual(circuitOf(probing, 120_005).state, "half_open", "a probe unanswered for a minute holds no one back")
    assert.strictEqual(circuitOf([...opened, ok(60_010)], 60_011).state, "closed")
    assert.strictEqual(circuitOf([...opened, bad(60_010)], 60_011).state, "open")
    assert.strictEqual(circuitOf([ok(1), { at: 2, kind: "ok", latencyMs: 6_000 }, bad(3), bad(4)], 5).state, "open", "slow answers count")
  })

  it("success-rate routing orders only the candidates it is given, and skips an open circuit", () => {
    const circuits = (p: string) => ({ state: p === "B" ? "open" as const : "closed" as const, consecutiveBad: 0, openedAt: null })
    const stats = (p: string) => ({ provider: p, converted: p === "C" ? 90 : 10, notConverted: 10 })
    const uniform = seeded(1)
    for (let i = 0; i < 200; i++) {
      const routed = order("success_rate", { candidates: ["A", "B", "C"], circuits, stats, uniform }).map((c) => c.provider)
      assert.notInclude(routed, "B")
      assert.notInclude(routed, "Z")
    }
    const first = Array.from({ length: 500 }, () => order("success_rate", { candidates: ["A", "C"], circuits, stats, uniform })[0]!.provider)
    assert.isAbove(first.filter((p) => p === "C").length, 450, "the better provider leads almost always")
    assert.isAbove(first.filter((p) => p === "A").length, 0, "but exploration still tries the other")
  })
})
