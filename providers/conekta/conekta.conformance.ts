/** The shared conformance kit against the Conekta connector and its simulator (`npm run conformance -- providers/conekta`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"

// Conekta signs the body (`digest`, RSA-SHA256) with no signing time in it, and the plugin reads
// the order from the API after verifying: the kit's signature and notify-then-query checks apply,
// no age check.
providerConformance("conekta", harness, { callbacks: "signed-notify-then-query", timestamped: false })
