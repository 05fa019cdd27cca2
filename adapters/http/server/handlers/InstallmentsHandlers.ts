/** The instalment quote (`GET /installments`): a thin map of `Payments.quoteInstallments`. */
import { BigDecimal, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import * as Money from "../../../../core/Money.ts"
import { Payments } from "../../../../core/payments/Payments.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"

export const InstallmentsHandlers = HttpApiBuilder.group(Api, "installments", (handlers) =>
  Effect.gen(function*() {
    const payments = yield* Payments
    const scopes = yield* Scopes
    return handlers.handle("quote", ({ query }) =>
      documented("installments.quote", Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const quote = yield* scopes.within(principal, { shopId: query.shopId }, (scope) =>
          payments.quoteInstallments(scope, query.paymentMethodId, BigDecimal.normalize(BigDecimal.fromNumberUnsafe(query.amount))))
        return {
          paymentMethodId: quote.paymentMethodId,
          currency: quote.currency,
          amountLocal: Money.toJsonNumber(quote.amountLocal),
          options: quote.options.map((o) => ({
            count: o.count,
            instalmentAmount: Money.toJsonNumber(o.instalmentAmount),
            firstInstalmentAmount: Money.toJsonNumber(o.firstInstalmentAmount),
            total: Money.toJsonNumber(o.total),
            interest: o.interest
          }))
        }
      })))
  }))
