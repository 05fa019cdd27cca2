/** The shared conformance kit against the dLocal pay-in connector and its simulator (`npm run conformance -- providers/dlocal`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"

// dLocal signs every notification (the payment object) like its requests.
providerConformance("dlocal", harness, { callbacks: "signed" })
