/** Handlers of the merchant's developer tools: key rotation and the request log. */
import { DateTime, Effect } from "effect"
import { isPermission } from "../../../../core/auth/Permissions.ts"
import { CredentialStore } from "../../../../core/ports/CredentialStore.ts"
import { notFound } from "../../../../core/ApiError.ts"
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
  // A restricted key holds permissions only (`keys` is a role's, never a key's).
  permissions: (c.permissions ?? []).filter(isPermission),
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
    const credentials = yield* CredentialStore
    /**
     * The key pair the developer tools show and rotate: the caller's own; for a team member
     * (`core/team/`), who has none, the merchant's active pair covering the member's shop.
     */
    const pairOfCaller = Effect.flatMap(CurrentPrincipal, (p) =>
      p.credential.userId === null ? Effect.succeed(p.credential) : p.shop === null ? Effect.fail(notFound("key pair", p.environment)) : Effect.flatMap(credentials.listActiveForShop(p.merchant.id, p.shop.id), (active) => {
        const pairs = active.filter((c) => c.environment === p.environment && c.publishableKey !== null && c.permissions === null)
        const pair = pairs.find((c) => c.shopId === p.shop?.id) ?? pairs[0]
        return pair === undefined ? Effect.fail(notFound("key pair", p.environment)) : Effect.succeed(pair)
      }))
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers.handleAll({
      keys: () =>
        documented("developers.keys", Effect.gen(function*() {
          const c = yield* pairOfCaller
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
          const { keys, revoked } = yield* merchants.rotateOwnKeys(yield* pairOfCaller)
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
