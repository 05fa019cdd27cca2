/** The shared conformance kit against the Mercado Pago connector and its simulator (`npm run conformance -- providers/mercadopago`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"

// Signed notifications (x-signature covers data.id) that the plugin then checks with a query.
providerConformance("mercadopago", harness, { callbacks: "signed-notify-then-query" })
