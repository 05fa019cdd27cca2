/** The shared conformance kit against the Conekta connector and its simulator (`npm run conformance -- providers/conekta`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"

providerConformance(harness)
