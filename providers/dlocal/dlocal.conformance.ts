/** The shared conformance kit against the dLocal pay-in connector and its simulator (`npm run conformance -- providers/dlocal`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"
import { notificationMaxAgeSeconds } from "./Signing.ts"

// dLocal signs every notification (the payment object) like its requests, and retries one for days
// keeping its X-Date: a signed one is accepted within that horizon (`Signing.ts`).
providerConformance("dlocal", harness, { callbacks: "signed", callbackMaxAgeSeconds: notificationMaxAgeSeconds })
