/**
 * Success-rate routing: the order of a rail's providers drawn by Thompson sampling over each
 * provider's recent conversions. Each provider's conversion rate is a Beta(1 + converted, 1 +
 * not converted) posterior over its last outcomes (a sliding window, so a provider that degrades
 * is noticed); one draw per provider orders them. Exploration is bounded: with probability
 * `explore` the order is a uniform shuffle instead, so a provider the window has forgotten is
 * still tried now and then, and never more often than that.
 *
 * Randomness comes from `uniform` (values in [0, 1)): the engine passes Effect's `Random`, the
 * simulation a seeded generator.
 */

export interface Stats {
  readonly provider: string
  readonly converted: number
  readonly notConverted: number
}

export interface SuccessRatePolicy {
  /** How many of a provider's latest outcomes count. */
  readonly window: number
  /** Share of payments ordered at random. */
  readonly explore: number
}

export const defaultSuccessRatePolicy: SuccessRatePolicy = { window: 200, explore: 0.02 }

/** A standard normal draw (Box-Muller). */
const normal = (uniform: () => number) => {
  const u = Math.max(uniform(), Number.MIN_VALUE)
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform())
}

/** A Gamma(shape, 1) draw (Marsaglia and Tsang; shape >= 1 here). */
const gamma = (shape: number, uniform: () => number): number => {
  const d = shape - 1 / 3
  const c = 1 / Math.sqrt(9 * d)
  for (;;) {
    let x: number
    let v: number
    do {
      x = normal(uniform)
      v = 1 + c * x
    } while (v <= 0)
    v = v * v * v
    const u = uniform()
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v
  }
}

/** A Beta(a, b) draw. */
export const beta = (a: number, b: number, uniform: () => number) => {
  const x = gamma(a, uniform)
  return x / (x + gamma(b, uniform))
}

export interface Scored {
  readonly provider: string
  /** The draw that placed it (null when the order was an exploration shuffle). */
  readonly score: number | null
}

/** The providers in the order to try them, best draw first. */
export const thompsonOrder = (
  stats: ReadonlyArray<Stats>,
  uniform: () => number,
  policy: SuccessRatePolicy = defaultSuccessRatePolicy
): ReadonlyArray<Scored> => {
  if (uniform() < policy.explore) {
    const shuffled = [...stats]
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(uniform() * (i + 1))
      ;[shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!]
    }
    return shuffled.map((s) => ({ provider: s.provider, score: null }))
  }
  return stats
    .map((s) => ({ provider: s.provider, score: beta(1 + s.converted, 1 + s.notConverted, uniform) }))
    .sort((a, b) => b.score - a.score)
}

/** A small, fast, seeded generator of uniforms in [0, 1) (mulberry32): the same seed, the same draws. */
export const seeded = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
