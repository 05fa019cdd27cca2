import { defineConfig } from "vitest/config"
import SlowestFirst from "./test/support/SlowestFirst.ts"

// Vitest 5's reporter calls Map.groupBy, which Node 20 lacks (Node 21+ has it).
if (typeof (Map as { groupBy?: unknown }).groupBy !== "function") {
  Object.defineProperty(Map, "groupBy", {
    value: <K, V>(items: Iterable<V>, key: (item: V, index: number) => K) => {
      const groups = new Map<K, Array<V>>()
      let index = 0
      for (const item of items) {
        const k = key(item, index++)
        const group = groups.get(k)
        if (group === undefined) groups.set(k, [item])
        else group.push(item)
      }
      return groups
    }
  })
}

/**
 * Slow drills the default suite leaves out, to keep it within its time on the 2-core CI machine:
 * the bench's smoke run and the packed-package install. `npm run test:drills` runs them
 * (docs/architecture.md, "Tests").
 */
const drills = ["test/bench/Bench.test.ts", "test/package/Package.test.ts"]
const drillsOnly = process.env["TEST_DRILLS"] === "only"

export default defineConfig({
  test: {
    include: drillsOnly ? drills : ["test/**/*.test.ts", "providers/**/*.conformance.ts"],
    exclude: drillsOnly ? [] : ["**/node_modules/**", ...drills],
    setupFiles: ["test/support/Environment.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Modules load once per worker, not per file (docs/architecture.md, "Tests").
    isolate: false,
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst }
  }
})
