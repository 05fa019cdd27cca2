/** The shared conformance kit against the EBANX connector and its simulator (`npm run conformance -- providers/ebanx`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"

// EBANX signs nothing: its notification names payments, and the plugin asks EBANX about them.
providerConformance("ebanx", harness, { callbacks: "notify-then-query" })
