/** The admin API of routing: a shop's routing configuration, and why a payment's attempts went where they went. */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { notFound } from "../../../../core/ApiError.ts"
import { Routing } from "../../../../core/routing/Routing.ts"
import { PaymentStore } from "../../../../core/ports/PaymentStore.ts"
import { TenancyStore } from "../../../../core/ports/TenancyStore.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"

export const RoutingAdminHandlers = HttpApiBuilder.group(Api, "routingAdmin", (handlers) =>
  Effect.gen(function*() {
    const routing = yield* Routing
    const tenancy = yield* TenancyStore
    const payments = yield* PaymentStore
    const shopExists = (shopId: string) =>
      Effect.flatMap(tenancy.findShop(shopId), (shop) => Option.isSome(shop) ? Effect.void : Effect.fail(notFound("shop", shopId)))
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers
      .handle("getRouting", ({ params, query }) =>
        documented("routingAdmin.getRouting", Effect.gen(function*() {
          yield* shopExists(params.shopId)
          const { config, version } = yield* routing.config(query.environment, params.shopId)
          return { environment: query.environment, shopId: params.shopId, version, config }
        })))
      .handle("putRouting", ({ params, payload }) =>
        documented("routingAdmin.putRouting", Effect.gen(function*() {
          yield* shopExists(params.shopId)
          const { environment, version: expected, ...config } = payload
          const { version } = yield* routing.configure(environment, params.shopId, config, expected)
          return { environment, shopId: params.shopId, version, config }
        })))
      .handle("getPaymentRouting", ({ params }) =>
        documented("routingAdmin.getPaymentRouting", Effect.gen(function*() {
          const found = yield* payments.findById(params.id)
          if (Option.isNone(found)) return yield* notFound("payment", params.id)
          return {
            transactionId: found.value.id,
            attempts: found.value.attempts.map((a) => ({
              provider: a.provider,
              outcome: a.outcome,
              latencyMs: a.latencyMs,
              reason: a.reason,
              ...(found.value.card === undefined ? {} : { decline: a.decline ?? null }),
              routing: a.routing ?? null
            })),
            skipped: found.value.skipped ?? []
          }
        })))
  }))
