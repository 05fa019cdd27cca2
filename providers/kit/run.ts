/**
 * `npm run conformance -- <provider folder>`: the package's conformance runner
 * (`payment-engine-conformance`, `ConformanceRunner.ts`) on a folder of this repository or any
 * other; it prints `N passed, N failed` last.
 */
import { runConformance } from "./ConformanceRunner.ts"

process.exit(runConformance(process.argv[2]))
