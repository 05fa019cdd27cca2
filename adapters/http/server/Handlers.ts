/** The endpoint handlers: thin translations between the API schemas and the core services. */
import { Clock, DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Auth } from "../../../core/auth/Auth.ts"
import { CurrentPrincipal } from "../../../core/auth/Principal.ts"
import { type KeyPair, Merchants } from "../../../core/tenancy/Merchants.ts"
import { Api, apiVersion } from "../api/Api.ts"

export const AuthHandlers = HttpApiBuilder.group(Api, "auth", (handlers) =>
  Effect.gen(function*() {
    const auth = yield* Auth
    return handlers
      .handle("token", ({ payload }) => auth.exchange(payload.apiKey, payload.secretKey))
      .handle("refresh", ({ payload }) => auth.refresh(payload.refreshToken))
  }))

export const PingHandlers = HttpApiBuilder.group(Api, "ping", (handlers) =>
  handlers.handle("ping", () =>
    Effect.gen(function*() {
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
    })))

export const IdentityHandlers = HttpApiBuilder.group(Api, "identity", (handlers) =>
  handlers.handle("me", () =>
    Effect.map(CurrentPrincipal, ({ environment, merchant }) => ({
      id: merchant.id,
      name: merchant.name,
      email: merchant.email,
      industry: merchant.industry,
      tier: merchant.tier,
      trustScore: merchant.trustScore,
      environment,
      // Pay-ins, checkout, refunds and webhooks are not served by this build yet; each flag turns
      // on with its feature, and `methods` lists the catalog slugs the shop can charge.
      capabilities: { checkout: false, directCharge: false, refunds: false, webhooks: false, crypto: [], methods: [] }
    }))))

const issued = (pair: KeyPair) => ({
  keyId: pair.credentialId,
  environment: pair.environment,
  scope: pair.scope,
  shopId: pair.shopId,
  version: pair.version,
  publishableKey: pair.publishableKey,
  secretKey: pair.secretKey
})

export const AdminHandlers = HttpApiBuilder.group(Api, "admin", (handlers) =>
  Effect.gen(function*() {
    const merchants = yield* Merchants
    return handlers
      .handle("createMerchant", ({ payload }) =>
        Effect.map(merchants.create(payload), ({ keys, merchant, shops }) => ({
          merchant: { id: merchant.id, name: merchant.name },
          shops: shops.map((s) => ({ id: s.id, name: s.name })),
          keys: {
            sandbox: { publishableKey: keys.sandbox.publishableKey, secretKey: keys.sandbox.secretKey },
            production: { publishableKey: keys.production.publishableKey, secretKey: keys.production.secretKey }
          }
        })))
      .handle("issueKeys", ({ params, payload }) =>
        Effect.map(merchants.issueKeys(params.shopId, payload.environment, payload.scope ?? "shop"), issued))
      .handle("rotateKeys", ({ params }) =>
        Effect.map(merchants.rotateKeys(params.shopId), ({ keys, revoked }) => ({
          shopId: params.shopId,
          revoked,
          keys: { sandbox: issued(keys.sandbox), production: issued(keys.production) }
        })))
  }))
