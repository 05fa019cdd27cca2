/** Handlers of the operator's admin API: merchants and their keys, FX rates, providers and their routes. */
import { DateTime, Duration, Effect, Option, Schema } from "effect"
import { Payments } from "../../../../core/payments/Payments.ts"
import { invalidRequest, notFound } from "../../../../core/ApiError.ts"
import { EngineConfig } from "../../../../core/EngineConfig.ts"
import * as Money from "../../../../core/Money.ts"
import { Fx } from "../../../../core/fx/Fx.ts"
import { type FxRate, FxRateStore } from "../../../../core/ports/FxRateStore.ts"
import { ProviderRouteStore } from "../../../../core/ports/ProviderRouteStore.ts"
import { Routing } from "../../../../core/routing/Routing.ts"
import { TenancyStore } from "../../../../core/ports/TenancyStore.ts"
import { ProviderRegistry } from "../../../../core/ports/ProviderRegistry.ts"
import { StoredCreatedMerchant, StoredRotatedKeys } from "../../api/AdminApi.ts"
import { makeIdempotent } from "../support/Idempotent.ts"
import { HttpApiBuilder } from "effect/http-api"
import { type KeyPair, Merchants } from "../../../../core/tenancy/Merchants.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"

const rateView = (rate: FxRate) => ({
  currency: rate.currency,
  perUsd: Money.toJsonNumber(rate.perUsd),
  enabled: rate.enabled,
  updatedAt: DateTime.formatIso(rate.updatedAt)
})

const issued = (pair: KeyPair) => ({
  keyId: pair.credentialId,
  environment: pair.environment,
  scope: pair.scope,
  shopId: pair.shopId,
  version: pair.version,
  publishableKey: pair.publishableKey,
  secretKey: pair.secretKey
})

/**
 * The scope of the operator's idempotency keys: one operator, whatever the environment of what
 * they change (the key and the request's fingerprint tell operations apart).
 */
export const operatorScope = { environment: "production", merchant: { id: "operator" } } as const

export const AdminHandlers = HttpApiBuilder.group(Api, "admin", (handlers) =>
  Effect.gen(function*() {
    const merchants = yield* Merchants
    const idempotent = (yield* makeIdempotent).value
    const payments = yield* Payments
    const fxRates = yield* FxRateStore
    const fx = yield* Fx
    const routes = yield* ProviderRouteStore
    const routing = yield* Routing
    const registry = yield* ProviderRegistry
    const tenancy = yield* TenancyStore
    const config = yield* EngineConfig
    const shopExists = (shopId: string) =>
      Effect.flatMap(tenancy.findShop(shopId), (shop) => Option.isSome(shop) ? Effect.void : Effect.fail(notFound("shop", shopId)))
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers
      .handle("createMerchant", ({ headers, payload }) =>
        documented("admin.createMerchant", idempotent({
          operation: "admin.createMerchant",
          scope: operatorScope,
          key: headers["idempotency-key"],
          request: payload,
          codec: StoredCreatedMerchant,
          // One transaction: the merchant, its keys and the key's stored answer.
          atomic: true,
          execute: () =>
            Effect.map(merchants.create(payload), ({ keys, merchant, shops }) => ({
              merchant: { id: merchant.id, name: merchant.name },
              shops: shops.map((s) => ({ id: s.id, name: s.name })),
              keys: {
                sandbox: { publishableKey: keys.sandbox.publishableKey, secretKey: keys.sandbox.secretKey },
                production: { publishableKey: keys.production.publishableKey, secretKey: keys.production.secretKey }
              }
            }))
        })))
      .handle("issueKeys", ({ params, payload }) =>
        documented("admin.issueKeys", Effect.map(merchants.issueKeys(params.shopId, payload.environment, payload.scope ?? "shop"), issued)))
      .handle("rotateKeys", ({ headers, params }) =>
        documented("admin.rotateKeys", idempotent({
          operation: "admin.rotateKeys",
          scope: operatorScope,
          key: headers["idempotency-key"],
          request: params,
          codec: StoredRotatedKeys,
          atomic: true,
          execute: () =>
            Effect.map(merchants.rotateKeys(params.shopId), ({ keys, revoked }) => ({
              shopId: params.shopId,
              revoked,
              keys: { sandbox: issued(keys.sandbox), production: issued(keys.production) }
            }))
        })))
      .handle("listFxRates", () =>
        documented("admin.listFxRates", Effect.map(fxRates.list, (rates) => ({ markupPct: Money.toJsonNumber(config.fxMarkupPct), rates: rates.map(rateView) }))))
      .handle("putFxRate", ({ params, payload }) =>
        documented("admin.putFxRate", Effect.gen(function*() {
          const currency = Money.normalizeCurrency(params.currency)
          if (Option.isNone(currency) || currency.value === "USD") {
            return yield* invalidRequest(`Unknown currency '${params.currency}'`, [{ path: "currency", message: "Expected an ISO 4217 code other than USD" }])
          }
          const rate = {
            currency: currency.value,
            perUsd: Schema.decodeSync(Money.Amount)(payload.perUsd),
            enabled: payload.enabled ?? true,
            updatedAt: yield* DateTime.now
          }
          yield* fx.setRate(rate)
          return rateView(rate)
        })))
      .handle("listProviders", () =>
        documented("admin.listProviders", Effect.map(registry.all, (providers) => ({
          providers: providers.map((p) => ({ id: p.id, name: p.displayName, environments: p.environments }))
        }))))
      .handle("listRoutes", ({ params, query }) =>
        documented("admin.listRoutes", Effect.gen(function*() {
          yield* shopExists(params.shopId)
          return { routes: yield* routes.list(query.environment, params.shopId) }
        })))
      .handle("putRoute", ({ params, payload }) =>
        documented("admin.putRoute", Effect.gen(function*() {
          yield* shopExists(params.shopId)
          const provider = yield* registry.get(params.providerId)
          if (Option.isNone(provider)) return yield* notFound("provider", params.providerId)
          if (!(yield* registry.mayServe(params.providerId, params.shopId))) {
            return yield* invalidRequest(`Connector account ${params.providerId} does not serve shop ${params.shopId}`, [{
              path: "providerId",
              message: "The account serves only the shops it lists (its shopIds): add the shop to it first"
            }])
          }
          if (!provider.value.environments.includes(payload.environment)) {
            return yield* invalidRequest(`Provider ${params.providerId} does not serve ${payload.environment}`, [{
              path: "environment",
              message: `Expected one of ${provider.value.environments.join(", ")}`
            }])
          }
          const route = {
            environment: payload.environment,
            shopId: params.shopId,
            providerId: params.providerId,
            priority: payload.priority,
            methodIds: payload.methodIds ?? null,
            enabled: payload.enabled ?? true
          }
          yield* routing.putRoute(route)
          return route
        })))
      .handle("reconcileNow", () => documented("admin.reconcileNow", Effect.map(payments.reconcile(Duration.zero), (moved) => ({ moved }))))
      .handle("deleteRoute", ({ params, query }) =>
        documented("admin.deleteRoute", Effect.map(routing.removeRoute(query.environment, params.shopId, params.providerId), (deleted) => ({ deleted }))))
  }))
