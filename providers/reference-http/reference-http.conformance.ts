/** The shared conformance kit against the reference HTTP provider and its simulator (`npm run conformance -- providers/reference-http`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"

providerConformance(harness)
