/** The endpoint handlers: thin translations between the API schemas and the core services. */
import { Clock, DateTime, Duration, Effect, Option, Schema } from "effect"
import { Catalog } from "../../../../core/catalog/Catalog.ts"
import { type CurrencyBalance, Swaps } from "../../../../core/balances/Swaps.ts"
import { Balances } from "../../../../core/balances/Balances.ts"
import { Payments } from "../../../../core/payments/Payments.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import { Settlements } from "../../../../core/settlements/Settlements.ts"
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
import { SwapView } from "../../api/IdentityApi.ts"
import { clientIp } from "../support/ClientIp.ts"
import { HttpConfig } from "../support/HttpConfig.ts"
import { makeIdempotent } from "../support/Idempotent.ts"
import { aliasedParameter } from "../support/QueryAliases.ts"
import { guessKey, RateLimits } from "../middleware/RateLimits.ts"
import { BalanceHandler } from "./PayinHandlers.ts"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Auth } from "../../../../core/auth/Auth.ts"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { type KeyPair, Merchants } from "../../../../core/tenancy/Merchants.ts"
import { Api, apiVersion } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"

export const AuthHandlers = HttpApiBuilder.group(Api, "auth", (handlers) =>
  Effect.gen(function*() {
    const auth = yield* Auth
    const limits = yield* RateLimits
    const http = yield* HttpConfig
    // Failed logins and refreshes are throttled per client address (the trusted hop's); a right one always works.
    const failed = <E>(error: E) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        Effect.andThen(limits.take("auth", guessKey("login", clientIp(request, http.trustedProxies) ?? "unknown")), Effect.fail(error)))
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers
      .handle("token", ({ payload }) => documented("auth.token", Effect.catchTag(auth.exchange(payload.apiKey, payload.secretKey), "ApiError", failed)))
      .handle("refresh", ({ payload }) => documented("auth.refresh", Effect.catchTag(auth.refresh(payload.refreshToken), "ApiError", failed)))
  }))

export const PingHandlers = HttpApiBuilder.group(Api, "ping", (handlers) =>
  handlers.handle("ping", () =>
    documented("ping.ping", Effect.gen(function*() {
      const principal = yield* CurrentPrincipal
      const now = yield* Clock.currentTimeMillis
      return {
        ok: true,
        environment: principal.environment,
        keyKind: principal.keyKind,
        keyId: principal.keyId,
        apiVersion,
        merchant: { id: principal.merchant.id, name: principal.merchant.name },
        timestamp: DateTime.formatIso(DateTime.makeUnsafe(now))
      }
    }))))

export const IdentityHandlers = HttpApiBuilder.group(Api, "identity", (handlers) =>
  Effect.gen(function*() {
    const balance = yield* BalanceHandler
    const balances = yield* Balances
    const catalog = yield* Catalog
    const scopes = yield* Scopes
    const swaps = yield* Swaps
    const settlements = yield* Settlements
    const idempotent = (yield* makeIdempotent).value
    const n = Money.toJsonNumber
    const balanceView = (b: CurrencyBalance) => ({ currency: b.currency, available: n(b.available), pending: n(b.pending), reserved: n(b.reserved) })
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers
      .handle("swapQuote", ({ query }) =>
        documented("identity.swapQuote", Effect.gen(function*() {
          const scope = yield* scopes.resolve(yield* CurrentPrincipal)
          const from = yield* aliasedParameter({ from: query.from, fromCurrency: query.fromCurrency }, "from", "fromCurrency")
          const amount = Schema.decodeSync(Money.Amount)(query.amount)
          const { available, conversion } = yield* swaps.quote(scope, from.value, amount, { currency: from.name, amount: "amount" })
          return {
            quote: {
              fromCurrency: conversion.from,
              toCurrency: "USD" as const,
              amount: n(amount),
              rate: n(conversion.rate),
              amountUsd: n(conversion.converted),
              available: n(available),
              indicative: true as const
            }
          }
        })))
      .handle("swap", ({ headers, payload }) =>
        documented("identity.swap", Effect.gen(function*() {
          const scope = yield* scopes.resolve(yield* CurrentPrincipal)
          return yield* idempotent({
            operation: "POST /me/balance/swap",
            atomic: true,
            scope,
            key: headers["idempotency-key"],
            request: { fromCurrency: payload.fromCurrency, amount: Money.toText(payload.amount) },
            codec: Schema.Struct({ swap: SwapView }),
            execute: () => Effect.map(swaps.swap(scope, payload.fromCurrency, payload.amount), (s) => ({
              swap: {
                id: s.id,
                fromCurrency: s.fromCurrency,
                toCurrency: s.toCurrency,
                amount: n(s.amount),
                rate: n(s.rate),
                amountUsd: n(s.amountUsd),
                localAvailableAfter: n(s.localAvailableAfter),
                usdAvailableAfter: n(s.usdAvailableAfter)
              }
            }))
          })
        })))
      .handle("fundSandbox", ({ payload }) =>
        documented("identity.fundSandbox", Effect.gen(function*() {
          const scope = yield* scopes.resolve(yield* CurrentPrincipal)
          const balances = yield* swaps.fundSandbox(scope, payload.currency, payload.amount)
          return { currency: payload.currency.toUpperCase(), amount: n(payload.amount), balances: balances.map(balanceView) }
        })))
      .handle("balanceHistory", ({ query }) =>
        documented("identity.balanceHistory", Effect.gen(function*() {
          const scope = yield* scopes.resolve(yield* CurrentPrincipal, { shopId: query.shopId })
          const history = yield* balances.history(scope, query.days ?? 30).pipe(scopes.onClock(scope))
          return {
            book: "available" as const,
            days: history.days,
            currencies: history.currencies.map((c) => ({ currency: c.currency, closing: c.closing.map((d) => n(Money.round(d, c.currency))) }))
          }
        })))
      .handle("balance", (request) => documented("identity.balance", balance(request)))
      .handle("me", () =>
      documented("identity.me", Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const { environment, merchant } = principal
        const scope = yield* scopes.resolve(principal)
        const { entries } = yield* catalog.listing(environment, scope.shop.id, {})
        const crypto = yield* settlements.crypto({ environment, shopId: scope.shop.id })
        return {
          id: merchant.id,
          name: merchant.name,
          email: merchant.email,
          industry: merchant.industry,
          tier: merchant.tier,
          trustScore: merchant.trustScore,
          environment,
          // Each flag turns on with its feature in this build; `methods` lists the method slugs
          // the shop can charge now (routable rails of its default shop); `crypto` the
          // stablecoins its settlement batches are paid in (none without a schedule).
          capabilities: {
            checkout: true,
            directCharge: true,
            refunds: true,
            webhooks: true,
            crypto,
            methods: [...new Set(entries.filter((e) => e.routable).map((e) => e.method.method))].sort()
          }
        }
      })))
  }))

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
