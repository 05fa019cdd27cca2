/**
 * The test files that take the longest start first. A fresh checkout has no timing cache, and
 * vitest then starts the largest files first: the bench's smoke check, a small file that runs for
 * two minutes, started last and kept one of the two workers busy alone for a minute at the end.
 * Started first, it runs beside the many short files instead. With a timing cache, the order
 * vitest learned is kept for every file not named here.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node"

/** Each over 40 s on the 2-core CI machine, the longest first. */
const slowest = [
  "test/bench/Bench.test.ts",
  "test/http/Fuzz.test.ts",
  "test/simulation/Simulation.test.ts",
  "test/package/Package.test.ts",
  "test/pages/Docs.test.ts",
  "test/crash/CrashRecovery.test.ts"
]

const rank = (file: TestSpecification) => {
  const index = slowest.findIndex((path) => file.moduleId.endsWith(path))
  return index === -1 ? slowest.length : index
}

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    // Array.prototype.sort is stable: the files not named keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b))
  }
}
