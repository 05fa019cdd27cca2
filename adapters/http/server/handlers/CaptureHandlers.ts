/** Handlers of capture and void (`core/payments/Capture.ts`): thin, each once per `Idempotency-Key`. */
import { type BigDecimal, Effect } from "effect"
import type { ApiError } from "../../../../core/ApiError.ts"
import type { KeyHandle } from "../../../../core/idempotency/Idempotency.ts"
import type { Payment } from "../../../../core/payments/Payment.ts"
import type { KeyTaken } from "../../../../core/ports/IdempotencyStore.ts"
import type { ShopScope } from "../../../../core/tenancy/Scopes.ts"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import * as Money from "../../../../core/Money.ts"
import { Payments } from "../../../../core/payments/Payments.ts"
import { readView } from "../../../../core/payments/PaymentView.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"
import { PaymentRecord } from "../../api/PaymentsApi.ts"
import { makeIdempotent } from "../support/Idempotent.ts"

export const CaptureHandlers = HttpApiBuilder.group(Api, "authorizations", (handlers) =>
  Effect.gen(function*() {
    const payments = yield* Payments
    const scopes = yield* Scopes
    const idempotent = (yield* makeIdempotent).value
    const settle = <E extends ApiError>(
      kind: "capture" | "void",
      id: string,
      headers: { readonly "idempotency-key"?: string | undefined },
      amount: BigDecimal.BigDecimal | undefined,
      run: (scope: ShopScope, key: KeyHandle | undefined) => Effect.Effect<Payment, E | KeyTaken>
    ) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        return yield* scopes.withinOwning(principal, yield* payments.shopOf(principal.environment, id), (scope) =>
          idempotent({
            operation: `POST /payments/${id}/${kind}`,
            scope,
            key: headers["idempotency-key"],
            request: { amount: amount === undefined ? null : Money.toText(amount) },
            codec: PaymentRecord,
            execute: (key) => Effect.map(run(scope, key), readView)
          }))
      })
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers.handleAll({
      capture: ({ headers, params, payload }) =>
        documented("authorizations.capture", settle("capture", params.id, headers, payload.amount, (scope, key) => payments.capture(scope, params.id, payload.amount, key))),
      void: ({ headers, params }) =>
        documented("authorizations.void", settle("void", params.id, headers, undefined, (scope, key) => payments.void(scope, params.id, key)))
    })
  }))
