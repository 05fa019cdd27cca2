/** The shared conformance kit against the Pagar.me connector and its simulator (`npm run conformance -- providers/pagarme`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"

providerConformance(harness)
