/**
 * `npm run simulator -- mercadopago [--port N]`: Mercado Pago's simulator on its own, with the
 * conformance harness's test credentials (see `providers/kit/Standalone.ts`). The official SDK
 * reaches it by setting its `AppConfig.BASE_URL` (see `test/providers/MercadoPagoSdk.test.ts`).
 */
import { Effect } from "effect"
import { paymentIdOf } from "../kit/Standalone.ts"
import { simulator } from "./ConformanceHarness.ts"
import { MercadoPagoConnector } from "./MercadoPagoProvider.ts"

export default MercadoPagoConnector.standalone(
  Effect.gen(function*() {
    const { simulator: sim, ...started } = yield* simulator()
    const payment = paymentIdOf(sim.charges, (p) => p.reference)
    return {
      ...started,
      moves: {
        pay: (id) => Effect.flatMap(payment(id), sim.complete),
        fail: (id) => Effect.flatMap(payment(id), (p) => sim.fail(p, "cc_rejected_other_reason")),
        expire: (id) => Effect.flatMap(payment(id), (p) => sim.setStatus(p, "cancelled", "expired")),
        chargeback: (id) => Effect.flatMap(payment(id), (p) => sim.setStatus(p, "charged_back", "settled")),
        refunds: { hold: sim.setRefundsPending, settle: sim.settleRefund, reject: sim.rejectRefund }
      }
    }
  })
)
