/** The shared conformance kit against the Pagar.me connector and its simulator (`npm run conformance -- providers/pagarme`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"

// Webhooks are signed (RS256 over the body, no signing time in it), and the plugin then asks the
// API about the charge they name: the kit's signature and notify-then-query checks apply, no age check.
providerConformance("pagarme", harness, { callbacks: "signed-notify-then-query", timestamped: false })
