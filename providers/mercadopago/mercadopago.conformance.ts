/** The shared conformance kit against the Mercado Pago connector and its simulator (`npm run conformance -- providers/mercadopago`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"

providerConformance(harness)
