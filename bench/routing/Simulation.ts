/**
 * The routing simulation behind `npm run bench:routing`: seeded scenarios on virtual time (no
 * sleeps), three simulated providers on one rail, and buyers arriving one per virtual second. Each
 * strategy of `core/routing/Strategy.ts` routes the same buyers (same seed) against the same
 * providers; the oracle knows each provider's true state at each moment.
 *
 * A buyer's attempt on a provider:
 * - the provider is down (outage): the call hangs until the 10 s timeout, a retryable failure,
 *   and the cascade goes on to the next provider;
 * - its latency is above the timeout: the same;
 * - otherwise the buyer converts with the provider's conversion rate at that moment, or the
 *   payment fails for good (a decline, an unpaid voucher: no cascade).
 * Buyers are impatient: the probability that one still pays after waiting `w` seconds for the
 * engine's answer is `exp(-w / 20)`. Conversion = completed buyers / buyers.
 *
 * The health and success-rate strategies learn only from what they observe (each attempt's
 * outcome, latency and whether the buyer converted); the oracle routes every buyer straight to
 * the provider with the best expected conversion.
 */
import { circuitOf, defaultBreakerPolicy, type Outcome } from "../../core/routing/Health.ts"
import { order, type StrategyName } from "../../core/routing/Strategy.ts"
import { defaultSuccessRatePolicy, seeded } from "../../core/routing/SuccessRate.ts"

export interface ProviderModel {
  readonly id: string
  /** Conversion rate when the provider works, at progress `t` in [0, 1] of the run. */
  readonly rate: (t: number) => number
  /** Answer latency in ms at progress `t`. */
  readonly latencyMs: (t: number) => number
  /** Whether the provider answers at all at progress `t`. */
  readonly up: (t: number) => boolean
}

export interface Scenario {
  readonly name: string
  /** Providers in their static priority order. */
  readonly providers: ReadonlyArray<ProviderModel>
}

export const timeoutMs = 10_000
const patienceSeconds = 20
const arrivalMs = 1_000

const steady = (rate: number): ProviderModel["rate"] => () => rate
const flat = (ms: number) => () => ms
const always = () => true
const between = (from: number, to: number) => (t: number) => t >= from && t < to

export const scenarios: ReadonlyArray<Scenario> = [
  {
    name: "steady",
    providers: [
      { id: "A", rate: steady(0.72), latencyMs: flat(900), up: always },
      { id: "B", rate: steady(0.86), latencyMs: flat(700), up: always },
      { id: "C", rate: steady(0.79), latencyMs: flat(800), up: always }
    ]
  },
  {
    name: "outage",
    providers: [
      { id: "A", rate: steady(0.88), latencyMs: flat(800), up: (t) => !between(0.2, 0.5)(t) },
      { id: "B", rate: steady(0.85), latencyMs: flat(800), up: always },
      { id: "C", rate: steady(0.8), latencyMs: flat(800), up: always }
    ]
  },
  {
    name: "degradation",
    providers: [
      { id: "A", rate: (t) => 0.9 - 0.4 * t, latencyMs: flat(800), up: always },
      { id: "B", rate: steady(0.82), latencyMs: flat(800), up: always },
      { id: "C", rate: steady(0.76), latencyMs: flat(800), up: always }
    ]
  },
  {
    name: "latency_spike",
    providers: [
      { id: "A", rate: steady(0.88), latencyMs: (t) => (between(0.3, 0.55)(t) ? 8_000 : 800), up: always },
      { id: "B", rate: steady(0.85), latencyMs: flat(900), up: always },
      { id: "C", rate: steady(0.8), latencyMs: flat(900), up: always }
    ]
  }
]

export { seeded }

const stays = (waitedMs: number) => Math.exp(-waitedMs / 1000 / patienceSeconds)

/** What one provider does with one buyer's attempt, from the world's dice. */
const attempt = (model: ProviderModel, t: number, dice: () => number) => {
  if (!model.up(t) || model.latencyMs(t) > timeoutMs) return { latencyMs: timeoutMs, answered: false, converts: false }
  const latencyMs = model.latencyMs(t)
  return { latencyMs, answered: true, converts: dice() < model.rate(t) }
}

export type Router = StrategyName | "oracle"

/** Conversion of `payments` buyers routed by `router` in `scenario`. */
export const run = (scenario: Scenario, router: Router, payments: number, seed: number): number => {
  const world = seeded(seed) // the providers' and buyers' dice: the same for every router
  const choices = seeded(seed ^ 0x5bd1e995) // the router's own randomness
  const outcomes = new Map<string, Array<Outcome>>(scenario.providers.map((p) => [p.id, []]))
  const conversions = new Map<string, Array<boolean>>(scenario.providers.map((p) => [p.id, []]))
  const byId = new Map(scenario.providers.map((p) => [p.id, p]))
  const window = defaultSuccessRatePolicy.window
  let converted = 0

  for (let i = 0; i < payments; i++) {
    const t = i / payments
    const arrival = i * arrivalMs
    const dice = { attempt: world(), patience: world(), more: [world(), world(), world()] }
    const ordered = router === "oracle"
      ? [...scenario.providers]
        .sort((a, b) => expected(b, t) - expected(a, t))
        .map((p) => p.id)
      : order(router, {
        candidates: scenario.providers.map((p) => p.id),
        circuits: (id) => circuitOf(outcomes.get(id)!.slice(-50), arrival, defaultBreakerPolicy),
        stats: (id) => {
          const recent = conversions.get(id)!.slice(-window)
          const yes = recent.filter(Boolean).length
          return { provider: id, converted: yes, notConverted: recent.length - yes }
        },
        uniform: choices
      }).map((c) => c.provider)

    let waited = 0
    let k = 0
    for (const id of ordered) {
      const model = byId.get(id)!
      const dieFor = k === 0 ? dice.attempt : dice.more[Math.min(k - 1, 2)]!
      const result = attempt(model, t, () => dieFor)
      k++
      waited += result.latencyMs
      outcomes.get(id)!.push({ at: arrival + waited, kind: result.answered ? "ok" : "bad", latencyMs: result.latencyMs })
      // Availability is the circuit's business; the conversion window learns from answers only.
      if (!result.answered) continue
      const paid = result.converts && dice.patience < stays(waited)
      conversions.get(id)!.push(paid)
      if (paid) converted++
      break
    }
  }
  return converted / payments
}

/** What routing a buyer to `model` first is worth at `t`, known only to the simulator. */
const expected = (model: ProviderModel, t: number) =>
  model.up(t) && model.latencyMs(t) <= timeoutMs ? model.rate(t) * stays(model.latencyMs(t)) : 0

export interface ScenarioResult {
  readonly scenario: string
  readonly payments: number
  readonly static: number
  readonly health: number
  readonly successRate: number
  readonly oracle: number
}

const round = (x: number) => Math.round(x * 10_000) / 10_000

export const simulate = (scenario: Scenario, payments: number, seed = 42): ScenarioResult => ({
  scenario: scenario.name,
  payments,
  static: round(run(scenario, "static", payments, seed)),
  health: round(run(scenario, "health", payments, seed)),
  successRate: round(run(scenario, "success_rate", payments, seed)),
  oracle: round(run(scenario, "oracle", payments, seed))
})
