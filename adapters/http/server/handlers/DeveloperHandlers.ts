/** Handlers of the merchant's developer tools: key rotation and the request log. */
import { DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type { Credential } from "../../../../core/auth/Credential.ts"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { RestrictedKeys } from "../../../../core/auth/RestrictedKeys.ts"
import { Merchants } from "../../../../core/tenancy/Merchants.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"
import { RequestLogStore } from "../../../../core/ports/RequestLogStore.ts"

const environmentWord = (c: Credential) => (c.environment === "sandbox" ? "test" : "live")

/** A restricted key as the API shows it: the secret masked unless it was just created. */
const restrictedView = (c: Credential, secretKey?: string) => ({
  id: c.id,
  name: c.name ?? "",
  environment: c.environment,
  scope: c.shopId === null ? "merchant" as const : "shop" as const,
  permissions: c.permissions ?? [],
  secretKey: secretKey ?? `rk_${environmentWord(c)}_…${c.secretLast4}`,
  createdAt: DateTime.formatIso(c.createdAt),
  revokedAt: c.revokedAt === null ? null : DateTime.formatIso(c.revokedAt)
})

export const DeveloperHandlers = HttpApiBuilder.group(Api, "developers", (handlers) =>
  Effect.gen(function*() {
    const merchants = yield* Merchants
    const restricted = yield* RestrictedKeys
    const scopes = yield* Scopes
    const log = yield* RequestLogStore
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers.handleAll({
      keys: () =>
        documented("developers.keys", Effect.gen(function*() {
          const { credential: c } = yield* CurrentPrincipal
          // A restricted key never reaches here (key management needs a full key: SecurityLive).
          if (c.publishableKey === null) return yield* Effect.die(new Error("a restricted key reached GET /me/keys"))
          return {
            keyId: c.id,
            environment: c.environment,
            scope: c.shopId === null ? "merchant" as const : "shop" as const,
            version: c.version,
            publishableKey: c.publishableKey,
            secretKey: `sk_${c.environment === "sandbox" ? "test" : "live"}_…${c.secretLast4}`,
            createdAt: DateTime.formatIso(c.createdAt)
          }
        })),
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
      createRestrictedKey: ({ payload }) =>
        documented("developers.createRestrictedKey", Effect.gen(function*() {
          const created = yield* restricted.create((yield* CurrentPrincipal).credential, payload)
          return restrictedView(created.credential, created.secretKey)
        })),
      listRestrictedKeys: () =>
        documented("developers.listRestrictedKeys", Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const scope = yield* scopes.resolve(principal)
          return { data: (yield* restricted.list(principal.credential, scope.shop.id)).map((c) => restrictedView(c)) }
        })),
      revokeRestrictedKey: ({ params }) =>
        documented("developers.revokeRestrictedKey", Effect.map(
          Effect.flatMap(CurrentPrincipal, (p) => restricted.revoke(p.credential, params.id)),
          (c) => restrictedView(c)
        )),
      requests: () =>
        documented("developers.requests", Effect.gen(function*() {
          const scope = yield* scopes.resolve(yield* CurrentPrincipal)
          const lines = yield* log.recent(scope.environment, scope.shop.id)
          return { data: lines.map(({ requestId, method, path, status, durationMs, atMs }) => ({ requestId, method, path, status, durationMs, at: new Date(atMs).toISOString() })) }
        }))
    })
  }))
