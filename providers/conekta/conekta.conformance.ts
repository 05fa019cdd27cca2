/** The shared conformance kit against the Conekta connector and its simulator (`npm run conformance -- providers/conekta`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"

// Conekta signs the body (`digest`, RSA-SHA256) but nothing in it is a signing time, so the kit's
// `signed` schemes (which also demand a stale-timestamp refusal) do not fit; the plugin reads the
// order from the API after verifying, which the `notify-then-query` checks cover. The signature
// checks (unsigned, garbage, another key, tampered) are in test/providers/ConektaProvider.test.ts.
providerConformance("conekta", harness, { callbacks: "notify-then-query" })
