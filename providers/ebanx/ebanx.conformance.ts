/** The shared conformance kit against the EBANX connector and its simulator (`npm run conformance -- providers/ebanx`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"

providerConformance(harness)
