/**
 * The simulator's only source of choices: a seeded PRNG (mulberry32, as `test/support/Random.ts`),
 * so that one seed replays one history exactly. Nothing in the simulator calls `Math.random`.
 */
import { prng } from "../support/Random.ts"

export class Random {
  private readonly next: () => number
  constructor(readonly seed: number) {
    this.next = prng(seed)
  }
  /** A number in [0, 1). */
  float(): number {
    return this.next()
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n)
  }
  /** An integer in [lo, hi]. */
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1)
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<A>(xs: ReadonlyArray<A>): A {
    return xs[this.int(xs.length)]!
  }
  /** A choice weighted by the numbers beside it. */
  weighted<A>(table: ReadonlyArray<readonly [A, number]>): A {
    const total = table.reduce((s, [, w]) => s + w, 0)
    let r = this.next() * total
    for (const [a, w] of table) {
      if ((r -= w) < 0) return a
    }
    return table[table.length - 1]![0]
  }
  /** A seed for a child generator (one per step, so a step's choices do not depend on the steps before it). */
  fork(): number {
    return this.int(0x7fffffff)
  }
}
