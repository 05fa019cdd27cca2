/** Handlers of the merchant's developer tools: key rotation and the request log. */
import { DateTime, Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { Merchants } from "../../../../core/tenancy/Merchants.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"
import { RequestLog } from "../middleware/RequestLog.ts"

export const DeveloperHandlers = HttpApiBuilder.group(Api, "developers", (handlers) =>
  Effect.gen(function*() {
    const merchants = yield* Merchants
    const scopes = yield* Scopes
    const log = yield* RequestLog
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers.handleAll({
      keys: () =>
        documented("developers.keys", Effect.map(CurrentPrincipal, ({ credential: c }) => ({
          keyId: c.id,
          environment: c.environment,
          scope: c.shopId === null ? "merchant" as const : "shop" as const,
          version: c.version,
          publishableKey: c.publishableKey,
          secretKey: `sk_${c.environment === "sandbox" ? "test" : "live"}_…${c.secretLast4}`,
          createdAt: DateTime.formatIso(c.createdAt)
        }))),
      rotateKeys: () =>
        documented("developers.rotateKeys", Effect.gen(function*() {
          const { keys, revoked } = yield* merchants.rotateOwnKeys((yield* CurrentPrincipal).credential)
          return {
            revoked,
            keys: {
              keyId: keys.credentialId,
              environment: keys.environment,
              scope: keys.scope,
              shopId: keys.shopId,
              version: keys.version,
              publishableKey: keys.publishableKey,
              secretKey: keys.secretKey
            }
          }
        })),
      requests: () =>
        documented("developers.requests", Effect.gen(function*() {
          const scope = yield* scopes.resolve(yield* CurrentPrincipal)
          return { data: log.recent(scope.environment, scope.shop.id) }
        }))
    })
  })).pipe(Layer.provide(RequestLog.layer))
