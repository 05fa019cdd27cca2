/**
 * The card scenario of the routing simulation (`npm run bench:routing`): seeded, on virtual time,
 * three acquirers whose approval rates differ by card BIN, and card payments arriving one per
 * virtual second, each a card of one BIN group.
 *
 * A card's attempt on an acquirer:
 * - the issuer refuses the card outright (a hard decline: stolen, no funds) with the BIN group's
 *   `hardRate`, whoever asks: the cascade stops there, as the engine's does
 *   (`core/ports/CardDeclines.ts`);
 * - otherwise the acquirer approves it with its rate for the BIN group, or soft-declines it (do
 *   not honour, issuer unavailable): nothing was charged, and the cascade may present the same
 *   card to the next acquirer.
 * Each attempt takes `attemptMs`; buyers are impatient as in `Simulation.ts` (one still waiting
 * after `w` seconds with probability `exp(-w / 20)`). Approval rate = approved and paid / cards.
 *
 * The world's dice are the same for every router (one die per card and acquirer), so the routers
 * are compared on the same cards:
 * - `static`: one acquirer, the first in priority, no failover (what a single-acquirer merchant has);
 * - `failover`: the engine's cascade over the acquirers in priority order, soft declines moving on;
 * - `success_rate`: the engine's success-rate strategy (`core/routing/Strategy.ts`) ordering the
 *   acquirers from the approvals it observed, with failover;
 * - `bin_rules`: routing rules on BIN ranges (`core/routing/Config.ts`, evaluated by `select`)
 *   sending each BIN group to the acquirer its merchant knows is best for it, with failover;
 * - `oracle`: the best possible: it knows every die, so it sends each card straight to an acquirer
 *   that approves it, if any does (one attempt, no waiting for a soft decline).
 */
import * as Money from "../../core/Money.ts"
import { circuitOf, defaultBreakerPolicy } from "../../core/routing/Health.ts"
import { type RoutingConfig, select } from "../../core/routing/Config.ts"
import { order } from "../../core/routing/Strategy.ts"
import { defaultSuccessRatePolicy, seeded } from "../../core/routing/SuccessRate.ts"

export interface BinGroup {
  /** A BIN prefix of the group's cards (a rule's `bins: [{ prefix }]`). */
  readonly prefix: string
  /** Share of the payments made with the group's cards. */
  readonly share: number
  /** Probability that the issuer refuses a card outright (hard decline). */
  readonly hardRate: number
}

export interface CardScenario {
  readonly name: string
  /** Acquirers in priority order. */
  readonly acquirers: ReadonlyArray<string>
  readonly bins: ReadonlyArray<BinGroup>
  /** Approval rate of a card that is not hard-declined, by acquirer, then BIN prefix. */
  readonly approval: Readonly<Record<string, Readonly<Record<string, number>>>>
}

export const attemptMs = 1_500
const patienceSeconds = 20
const arrivalMs = 1_000

/**
 * Three acquirers each best for one issuer group: a domestic acquirer strong on domestic Visa,
 * another on Mastercard, a cross-border one on foreign cards.
 */
export const cardScenario: CardScenario = {
  name: "card_bins",
  acquirers: ["acq-a", "acq-b", "acq-c"],
  bins: [
    { prefix: "4111", share: 0.45, hardRate: 0.04 },
    { prefix: "5555", share: 0.35, hardRate: 0.05 },
    { prefix: "3782", share: 0.2, hardRate: 0.06 }
  ],
  approval: {
    "acq-a": { "4111": 0.9, "5555": 0.7, "3782": 0.5 },
    "acq-b": { "4111": 0.75, "5555": 0.88, "3782": 0.55 },
    "acq-c": { "4111": 0.6, "5555": 0.62, "3782": 0.85 }
  }
}

export type CardRouter = "static" | "failover" | "success_rate" | "bin_rules" | "oracle"

const stays = (waitedMs: number) => Math.exp(-waitedMs / 1000 / patienceSeconds)

/** The rules a merchant who knows its acquirers would write: each BIN group to its best acquirer first, the others after. */
export const binRules = (scenario: CardScenario): RoutingConfig => ({
  strategy: "static",
  rules: scenario.bins.map((g) => ({
    id: `bin-${g.prefix}`,
    when: { bins: [{ prefix: g.prefix }] },
    providers: [...scenario.acquirers].sort((a, b) => scenario.approval[b]![g.prefix]! - scenario.approval[a]![g.prefix]!)
  }))
})

/** Approval rate of `payments` card payments routed by `router` in `scenario`. */
export const runCards = (scenario: CardScenario, router: CardRouter, payments: number, seed: number): number => {
  const world = seeded(seed)
  const choices = seeded(seed ^ 0x5bd1e995)
  const approvals = new Map<string, Array<boolean>>(scenario.acquirers.map((a) => [a, []]))
  const rules = binRules(scenario)
  let approved = 0
  for (let i = 0; i < payments; i++) {
    const arrival = i * arrivalMs
    // The card's dice, the same whichever router: its group, the issuer's verdict, each acquirer's, the buyer's patience.
    let pick = world()
    const group = scenario.bins.find((g) => (pick -= g.share) < 0) ?? scenario.bins.at(-1)!
    const hard = world() < group.hardRate
    const dice = new Map(scenario.acquirers.map((a) => [a, world()]))
    const patience = world()
    const approves = (a: string) => !hard && dice.get(a)! < scenario.approval[a]![group.prefix]!
    if (router === "oracle") {
      if (scenario.acquirers.some(approves) && patience < stays(attemptMs)) approved++
      continue
    }
    const ordered: ReadonlyArray<string> = router === "static"
      ? scenario.acquirers.slice(0, 1)
      : router === "failover"
      ? scenario.acquirers
      : router === "bin_rules"
      ? select(rules, factsOf(group.prefix), choices).providers ?? scenario.acquirers
      : order("success_rate", {
        candidates: scenario.acquirers,
        circuits: () => circuitOf([], arrival, defaultBreakerPolicy),
        stats: (id) => {
          const recent = approvals.get(id)!.slice(-defaultSuccessRatePolicy.window)
          const yes = recent.filter(Boolean).length
          return { provider: id, converted: yes, notConverted: recent.length - yes }
        },
        uniform: choices
      }).map((c) => c.provider)
    let waited = 0
    for (const a of ordered) {
      waited += attemptMs
      if (hard) break
      const ok = approves(a)
      approvals.get(a)!.push(ok)
      if (ok) {
        if (patience < stays(waited)) approved++
        break
      }
    }
  }
  return approved / payments
}

/** A card payment's facts as routing sees them: a Visa-rail card of that BIN (the rules here look at the BIN only). */
const factsOf = (prefix: string) => ({
  country: "BR",
  paymentMethodId: "1004",
  method: "card",
  currency: "BRL",
  amountUsd: Money.zero,
  tags: {},
  card: { brand: "visa", bin: `${prefix}11` }
})

export interface CardScenarioResult {
  readonly scenario: string
  readonly payments: number
  readonly static: number
  readonly failover: number
  readonly successRate: number
  readonly binRules: number
  readonly oracle: number
}

const round = (x: number) => Math.round(x * 10_000) / 10_000

export const simulateCards = (scenario: CardScenario, payments: number, seed = 42): CardScenarioResult => ({
  scenario: scenario.name,
  payments,
  static: round(runCards(scenario, "static", payments, seed)),
  failover: round(runCards(scenario, "failover", payments, seed)),
  successRate: round(runCards(scenario, "success_rate", payments, seed)),
  binRules: round(runCards(scenario, "bin_rules", payments, seed)),
  oracle: round(runCards(scenario, "oracle", payments, seed))
})
