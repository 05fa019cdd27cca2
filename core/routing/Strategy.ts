/**
 * The order a payment tries its candidate providers in, and why: the routing strategies on top of
 * the candidates the rules (or the shop's routes) allow.
 *
 * - `static`: the configured order.
 * - `health`: the configured order without providers whose circuit is open (`Health.ts`); a
 *   half-open one keeps its place for one probe. When every circuit is open the configured order
 *   is kept: a payment is never refused for health alone.
 * - `success_rate`: Thompson sampling over recent conversions (`SuccessRate.ts`), then the health
 *   filter. It only ever orders the candidates it was given, so a provider the rules exclude is
 *   never chosen.
 */
import { type Circuit, type CircuitState } from "./Health.ts"
import { defaultSuccessRatePolicy, type Stats, type SuccessRatePolicy, thompsonOrder } from "./SuccessRate.ts"

export type StrategyName = "static" | "health" | "success_rate"

export interface RoutedCandidate {
  readonly provider: string
  readonly strategy: StrategyName
  readonly circuit: CircuitState
  /** The success-rate draw that placed it, when that strategy ordered it. */
  readonly score: number | null
}

export interface Inputs {
  /** Candidates in their configured order. */
  readonly candidates: ReadonlyArray<string>
  readonly circuits: (provider: string) => Circuit
  readonly stats: (provider: string) => Stats
  readonly uniform: () => number
  readonly successRate?: SuccessRatePolicy | undefined
}

export const order = (strategy: StrategyName, inputs: Inputs): ReadonlyArray<RoutedCandidate> => {
  const circuitOf = (provider: string) => inputs.circuits(provider).state
  if (strategy === "static") {
    return inputs.candidates.map((provider) => ({ provider, strategy, circuit: circuitOf(provider), score: null }))
  }
  const ranked = strategy === "success_rate"
    ? thompsonOrder(inputs.candidates.map(inputs.stats), inputs.uniform, inputs.successRate ?? defaultSuccessRatePolicy)
    : inputs.candidates.map((provider) => ({ provider, score: null }))
  const all = ranked.map((r) => ({ provider: r.provider, strategy, circuit: circuitOf(r.provider), score: r.score }))
  const usable = all.filter((c) => c.circuit !== "open")
  return usable.length > 0 ? usable : all
}
