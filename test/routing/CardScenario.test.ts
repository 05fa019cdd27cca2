/**
 * The card scenario of the routing simulation (`bench/routing/CardSimulation.ts`) with a small N:
 * seeded, on virtual time. The engine's failover across acquirers (soft declines moving on)
 * approves more cards than one acquirer alone, and no router beats the oracle, which knows every
 * die; BIN rules, evaluated by the engine's own rule matching, come closest to it.
 */
import { assert, describe, it } from "@effect/vitest"
import { binRules, cardScenario, runCards, simulateCards } from "../../bench/routing/CardSimulation.ts"
import { select } from "../../core/routing/Config.ts"
import * as Money from "../../core/Money.ts"

describe("routing simulation: cards across acquirers", () => {
  const r = simulateCards(cardScenario, 4_000, 42)

  it("is deterministic: the same seed replays the same approvals", () => {
    assert.deepStrictEqual(simulateCards(cardScenario, 4_000, 42), r)
  })

  it("failover beats static single-acquirer routing by several points, and every router stays at or below the oracle", () => {
    assert.isAtLeast(r.failover - r.static, 0.05, JSON.stringify(r))
    assert.isAtLeast(r.successRate - r.static, 0.05, JSON.stringify(r))
    for (const rate of [r.static, r.failover, r.successRate, r.binRules]) assert.isAtMost(rate, r.oracle, JSON.stringify(r))
    assert.isAbove(r.oracle, r.static)
  })

  it("BIN rules with failover come closest to the oracle (each group's best acquirer first, no soft decline waited for)", () => {
    assert.isAtLeast(r.binRules, r.failover, JSON.stringify(r))
    assert.isAtLeast(r.binRules, 0.95 * r.oracle, JSON.stringify(r))
  })

  it("hard declines are never retried: with every card hard-declined, nothing is approved by any router", () => {
    const allHard = { ...cardScenario, bins: cardScenario.bins.map((g) => ({ ...g, hardRate: 1 })) }
    for (const router of ["static", "failover", "success_rate", "bin_rules", "oracle"] as const) {
      assert.strictEqual(runCards(allHard, router, 500, 7), 0, router)
    }
  })

  it("the BIN rules are the engine's: a card of a group's BIN is routed to that group's best acquirer first", () => {
    const facts = (bin: string) => ({ country: "BR", paymentMethodId: "1004", method: "card", currency: "BRL", amountUsd: Money.zero, tags: {}, card: { brand: "visa", bin } })
    const rules = binRules(cardScenario)
    assert.deepStrictEqual(select(rules, facts("555555"), () => 0).providers, ["acq-b", "acq-a", "acq-c"])
    assert.deepStrictEqual(select(rules, facts("378282"), () => 0).providers?.[0], "acq-c")
    assert.strictEqual(select(rules, facts("999999"), () => 0).ruleId, null)
  })
})
