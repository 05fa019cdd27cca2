/**
 * `npm run simulate -- --seed N --steps M [--store memory|pglite|postgres] [--seeds K] [--store-failures R] [--plant NAME] [--verbose]`
 *
 * Runs the seeded simulation of the engine (see `Run.ts`, invariants in `Invariants.ts`); with
 * `--seeds K`, seeds N .. N+K-1 one after the other (a nightly run: `--seed 1 --seeds 200 --steps
 * 2000`). Exits 1 on the first failing seed, after printing its shortest failing history.
 * `--plant` runs a deliberately broken engine, to see the invariants catch it: `drop-posting`
 * (the first approved refund's entry loses a posting), `release-key-on-crash` (a key freed when
 * its execution dies), `ignore-upstream-key` (the upstreams charge again for a key they charged),
 * `skip-payout-reversal` (the first failed payout's reversal entry is never written),
 * `ignore-payout-key` (the payout upstream pays again for a key it paid).
 */
import { simulate } from "./Simulate.ts"
import type { Plant, StoreName } from "./Run.ts"
import type { DoubleOptions } from "./ProviderDouble.ts"
import type { PayoutDoubleOptions } from "./PayoutDouble.ts"

const args = process.argv.slice(2)
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? undefined : args[i + 1]
}
const seed = Number(arg("seed") ?? Date.now() % 1_000_000)
const steps = Number(arg("steps") ?? 500)
const seeds = Number(arg("seeds") ?? 1)
const store = (arg("store") ?? "memory") as StoreName
/** How often a store transaction fails before its commit (0 .. 1). */
const storeFailures = Number(arg("store-failures") ?? 0)
const plants: Readonly<Record<string, { readonly plant?: Plant; readonly double?: DoubleOptions; readonly payoutDouble?: PayoutDoubleOptions }>> = {
  "drop-posting": { plant: { _tag: "DropPosting", kind: "refund.completed" } },
  "release-key-on-crash": { plant: { _tag: "ReleaseKeyOnCrash" } },
  "ignore-upstream-key": { double: { ignoresIdempotencyKey: true } },
  "skip-payout-reversal": { plant: { _tag: "SkipEntry", kind: "payout.failed" } },
  "ignore-payout-key": { payoutDouble: { ignoresIdempotencyKey: true } }
}
const planted = arg("plant") === undefined ? {} : plants[arg("plant")!]
if (planted === undefined) {
  console.error(`--plant is one of ${Object.keys(plants).join(", ")}`)
  process.exit(2)
}
if (!["memory", "pglite", "postgres"].includes(store) || !Number.isInteger(seed) || !Number.isInteger(steps) || steps < 1) {
  console.error("usage: npm run simulate -- --seed N --steps M [--store memory|pglite|postgres] [--seeds K] [--verbose]")
  process.exit(2)
}

let total = 0
let millis = 0
for (let s = seed; s < seed + seeds; s++) {
  const report = await simulate(s, steps, { store, storeFailures, ...planted, verbose: args.includes("--verbose") })
  total += report.result.steps
  millis += report.result.millis
  if (!report.result.ok) {
    const replay = `--seed ${s} --steps ${steps} --store ${store}${storeFailures > 0 ? ` --store-failures ${storeFailures}` : ""}${arg("plant") === undefined ? "" : ` --plant ${arg("plant")}`}`
    console.log(`FAILED: seed ${s} (replay: npm run simulate -- ${replay})`)
    process.exit(1)
  }
  console.log(`seed ${s}: ${report.result.steps} steps, invariants held (${report.stepsPerSecond.toFixed(0)} steps/s)`)
  if (seeds === 1 || args.includes("--verbose")) for (const line of report.result.summary) console.log(`  ${line}`)
}
console.log(`${seeds} seed(s), ${total} steps on ${store} in ${(millis / 1000).toFixed(1)} s: ${(total / (millis / 1000)).toFixed(0)} steps/s`)
process.exit(0)
