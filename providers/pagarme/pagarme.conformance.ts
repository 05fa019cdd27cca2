/** The shared conformance kit against the Pagar.me connector and its simulator (`npm run conformance -- providers/pagarme`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"

// Webhooks are signed (RS256 over the body, no timestamp), and the plugin then asks the API
// about the charge they name: the kit's notify-then-query checks apply; the signature checks
// without a timestamp are in test/providers/PagarmeProvider.test.ts.
providerConformance("pagarme", harness, { callbacks: "notify-then-query" })
