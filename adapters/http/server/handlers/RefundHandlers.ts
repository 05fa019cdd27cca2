/** Handlers of refunds and claims (merchant), and of chargeback resolution (operator). */
import { type BigDecimal, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { Refunds, claimView, refundView } from "../../../../core/refunds/Refunds.ts"
import { Payments } from "../../../../core/payments/Payments.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import { Api } from "../../api/Api.ts"
import { ClaimView, RefundView } from "../../api/RefundsApi.ts"
import { operatorScope } from "./AdminHandlers.ts"
import { makeIdempotent } from "../support/Idempotent.ts"
import * as Money from "../../../../core/Money.ts"
import { documented } from "../../api/OperationErrors.ts"

export const RefundHandlers = HttpApiBuilder.group(Api, "claims", (handlers) =>
  Effect.gen(function*() {
    const claims = yield* Refunds
    const payments = yield* Payments
    const scopes = yield* Scopes
    const idempotent = (yield* makeIdempotent).value
    const refund = (
      id: string,
      headers: { readonly "idempotency-key"?: string | undefined },
      payload: { readonly amount?: BigDecimal.BigDecimal | undefined; readonly reason?: string | undefined }
    ) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        return yield* scopes.withinOwning(principal, yield* payments.shopOf(principal.environment, id), (scope) =>
          idempotent({
            operation: `POST /payments/${id}/refund`,
            atomic: true,
            scope,
            key: headers["idempotency-key"],
            request: { amount: payload.amount === undefined ? null : Money.toText(payload.amount), reason: payload.reason ?? null },
            codec: RefundView,
            execute: () => Effect.map(claims.refund(scope, id, payload), refundView)
          }))
      })
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers.handleAll({
      refund: ({ headers, params, payload }) => documented("claims.refund", refund(params.id, headers, payload)),
      refundTransaction: ({ headers, params, payload }) => documented("claims.refundTransaction", refund(params.id, headers, payload)),
      paymentClaims: ({ params }) =>
        documented("claims.paymentClaims", Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const { claims: of } = yield* scopes.withinOwning(principal, yield* payments.shopOf(principal.environment, params.id), (scope) =>
            claims.ofPayment(scope, params.id))
          return { data: of.map(claimView) }
        })),
      get: ({ params }) =>
        documented("claims.get", Effect.gen(function*() {
          const scope = yield* scopes.resolve(yield* CurrentPrincipal)
          return claimView(yield* claims.get(scope, params.id))
        })),
      simulate: ({ params, payload }) =>
        documented("claims.simulate", Effect.gen(function*() {
          const scope = yield* scopes.resolve(yield* CurrentPrincipal)
          return claimView(yield* claims.simulateChargeback(scope, params.id, payload.outcome))
        })),
      simulateChargeback: ({ headers, params, payload }) =>
        documented("claims.simulateChargeback", Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return yield* scopes.withinOwning(principal, yield* payments.shopOf(principal.environment, params.id), (scope) =>
            idempotent({
              operation: `POST /payments/${params.id}/simulate-chargeback`,
              // One transaction: the chargeback, its entry, its events and the key's stored answer.
              atomic: true,
              scope,
              key: headers["idempotency-key"],
              request: { reason: payload.reason ?? null },
              codec: ClaimView,
              execute: () => Effect.map(claims.simulateOpenChargeback(scope, params.id, payload.reason), claimView)
            }))
        }))
    })
  }))

export const RefundAdminHandlers = HttpApiBuilder.group(Api, "claimAdmin", (handlers) =>
  Effect.gen(function*() {
    const claims = yield* Refunds
    const idempotent = (yield* makeIdempotent).value
    return handlers.handleAll({
      resolve: ({ params, payload }) => documented("claimAdmin.resolve", Effect.map(claims.resolveChargeback(params.id, payload.outcome), claimView)),
      openChargeback: ({ headers, params, payload }) =>
        documented("claimAdmin.openChargeback", idempotent({
          operation: `admin.openChargeback ${params.id}`,
          scope: operatorScope,
          key: headers["idempotency-key"],
          request: { reason: payload.reason ?? null },
          codec: ClaimView,
          atomic: true,
          execute: () => Effect.map(claims.openChargebackByOperator(params.id, payload.reason), claimView)
        }))
    })
  }))

