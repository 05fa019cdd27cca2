/** The shared conformance kit against the Mercado Pago connector and its simulator (`npm run conformance -- providers/mercadopago`). */
import { providerConformance } from "../kit/ProviderConformance.ts"
import { harness } from "./ConformanceHarness.ts"
import { callbackMaxAgeSeconds } from "./MercadoPagoProvider.ts"

// Signed notifications (x-signature covers data.id) that the plugin then checks with a query;
// Mercado Pago retries one for up to 4 days with its first `ts`.
providerConformance("mercadopago", harness, { callbacks: "signed-notify-then-query", callbackMaxAgeSeconds })
