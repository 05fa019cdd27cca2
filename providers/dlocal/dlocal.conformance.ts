/** The shared conformance kit against the dLocal pay-in connector and its simulator (`npm run conformance -- providers/dlocal`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"

providerConformance(harness)
