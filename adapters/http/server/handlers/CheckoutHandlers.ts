/** Handlers of the hosted-checkout API: sessions (secret key) and the public token endpoints. */
import { DateTime, Effect, Option, Schema } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { Checkout, type Created } from "../../../../core/checkout/Checkout.ts"
import type { CheckoutSession } from "../../../../core/checkout/CheckoutSession.ts"
import { EngineConfig } from "../../../../core/EngineConfig.ts"
import { toJsonNumber } from "../../../../core/Money.ts"
import type { SandboxSimulate } from "../../../../core/ports/PaymentProvider.ts"
import { checkoutUrlOf } from "../../../../core/payments/PaymentView.ts"
import { publicStatus } from "../../../../core/payments/PaymentState.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import { Api } from "../../api/Api.ts"
import { CreateSessionBody, SessionCreated } from "../../api/CheckoutApi.ts"
import { documented } from "../../api/OperationErrors.ts"
import { clientIp } from "../support/ClientIp.ts"
import { makeIdempotent } from "../support/Idempotent.ts"
import { HttpConfig } from "../support/HttpConfig.ts"

const encodeBody = Schema.encodeSync(CreateSessionBody)

/** `{checkout_url}/checkout/{token}`: the session's page, opened by its token. */
export const sessionPageUrl = (checkoutUrl: string, token: string) => `${checkoutUrl}/checkout/${encodeURIComponent(token)}`

const createdView = (created: Created, checkoutUrl: string) => {
  const { local, payment, session, token } = created
  return {
    sessionId: session.id,
    token,
    checkoutUrl: payment === null ? sessionPageUrl(checkoutUrl, token) : checkoutUrlOf(checkoutUrl, payment),
    paymentMethodId: session.paymentMethodId,
    status: session.status,
    amount: toJsonNumber(created.amountUsd),
    currency: "USD" as const,
    ...(session.currency === "USD" ? {} : { inputCurrency: session.currency, inputAmount: toJsonNumber(session.amount) }),
    country: session.country,
    ...(local === null ? {} : { amountLocal: toJsonNumber(local.amount), currencyLocal: local.currency }),
    ...(session.status === "awaiting_details" ? { missingFields: created.missingFields } : {}),
    merchantOrderId: session.merchantOrderId,
    expiresAt: DateTime.formatIso(session.expiresAt)
  }
}

/** A session as its public read shows it; `token` is the one the caller opened it with (the session keeps its hash). */
export const readSessionView = (s: CheckoutSession, token: string) => ({
  sessionId: s.id,
  token,
  status: s.status,
  amount: toJsonNumber(s.amount),
  currency: s.currency,
  country: s.country,
  paymentMethodId: s.paymentMethodId,
  customer: { firstName: s.customer.firstName, lastName: s.customer.lastName, email: s.customer.email, phone: s.customer.phone },
  customerIp: s.customerIp,
  returnUrl: s.returnUrl,
  merchantOrderId: s.merchantOrderId,
  expiresAt: DateTime.formatIso(s.expiresAt),
  completedTxId: s.completedTxId
})

export const CheckoutHandlers = HttpApiBuilder.group(Api, "checkout", (handlers) =>
  Effect.gen(function*() {
    const checkout = yield* Checkout
    const scopes = yield* Scopes
    const idempotent = (yield* makeIdempotent).value
    const config = yield* EngineConfig
    // Checked at compile time against the codes the operation documents.
    return handlers.handle("createSession", ({ headers, payload }) =>
      documented("checkout.createSession", Effect.gen(function*() {
        const simulate: SandboxSimulate | undefined = headers["sandbox-simulate"]
        return yield* scopes.within(yield* CurrentPrincipal, { merchantId: payload.merchantId, shopId: payload.shopId }, (scope) =>
          idempotent({
            operation: "POST /checkout/sessions",
            scope,
            key: headers["idempotency-key"],
            request: { body: encodeBody(payload), simulate: simulate ?? null },
            codec: SessionCreated,
            // A retry of an interrupted execution continues the one-shot payment it wrote ahead.
            execute: (key) => Effect.map(checkout.create(scope, { ...payload, simulate }, key), (created) => createdView(created, config.checkoutUrl))
          }))
      })))
  }))

export const CheckoutPublicHandlers = HttpApiBuilder.group(Api, "checkoutPublic", (handlers) =>
  Effect.gen(function*() {
    const checkout = yield* Checkout
    const config = yield* EngineConfig
    const http = yield* HttpConfig
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers
      .handle("getSession", ({ params }) => documented("checkoutPublic.getSession", Effect.map(checkout.get(params.token), (s) => readSessionView(s, params.token))))
      .handle("select", ({ params, payload }) =>
        documented("checkoutPublic.select", Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const payment = yield* checkout.select(params.token, payload, clientIp(request, http.trustedProxies))
          const session = yield* checkout.get(params.token).pipe(Effect.option)
          return {
            sessionId: Option.match(session, { onNone: () => payment.id, onSome: (s) => s.id }),
            transactionId: payment.id,
            checkoutUrl: checkoutUrlOf(config.checkoutUrl, payment),
            status: publicStatus(payment.status)
          }
        })))
  }))
