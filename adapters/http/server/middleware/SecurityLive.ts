/** The implementations of the security middlewares declared in `api/Security.ts`. */
import { Effect, Layer, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { apiError, catchCode } from "../../../../core/ApiError.ts"
import { Auth } from "../../../../core/auth/Auth.ts"
import { AuditContext } from "../../../../core/audit/AuditContext.ts"
import { allows, neededText } from "../../../../core/auth/Permissions.ts"
import { CurrentPrincipal, type Principal } from "../../../../core/auth/Principal.ts"
import { neededBy } from "../../api/Permissions.ts"
import { AdminToken, AnyKey, SecretKey } from "../../api/Security.ts"
import { makeAdminCheck } from "./AdminCheck.ts"
import { clientIp } from "../support/ClientIp.ts"
import { HttpConfig } from "../support/HttpConfig.ts"
import { guessKey, RateLimits } from "./RateLimits.ts"
import { RequestLogFields } from "./RequestLifecycle.ts"
import { makeOnShopClock } from "./RequestClock.ts"

/**
 * The authenticated principal's shop on the request's log line and on every line logged under it
 * (read with the credential already: no store read).
 */
const logShop = <A, E, R>(principal: Principal, effect: Effect.Effect<A, E, R>) => {
  const shopId = principal.shop?.id
  if (shopId === undefined) return effect
  return Effect.flatMap(Effect.serviceOption(RequestLogFields), (fields) => {
    if (Option.isSome(fields)) {
      fields.value.shopId = shopId
      fields.value.environment = principal.environment
    }
    return Effect.annotateLogs(effect, { shopId })
  })
}

const missing = apiError("missing_authorization", "Send `Authorization: Bearer <access token or API key>`")

/**
 * A header that is there but carries no Bearer token (HTTP Basic, a bare key, another scheme) is
 * not a missing one: the key may be right and only the scheme wrong, so the answer says which
 * (Stripe answers such a header with its invalid-key error too). `Bearer` with nothing after it
 * sends no key: missing.
 */
const wrongScheme = (authorization: string | undefined) => {
  const value = (authorization ?? "").trim()
  return value !== "" && value.split(" ")[0]!.toLowerCase() !== "bearer"
}
const notBearer = apiError(
  "invalid_api_key",
  "The Authorization header does not carry a Bearer token: use `Authorization: Bearer <key>` (an access token or an API key; HTTP Basic is not accepted)"
)

/**
 * Authenticates the bearer. A raw API key is looked up; an unknown one takes from the client
 * address's allowance of unknown keys, and once that is spent an unknown one is 429. A known key
 * always works (keys are random: it was not guessed), so guesses from behind a merchant's address
 * do not lock the merchant out. Access tokens are signed and cannot be guessed.
 */
const makeAuthenticate = Effect.gen(function*() {
  const auth = yield* Auth
  const limits = yield* RateLimits
  const http = yield* HttpConfig
  return Effect.fnUntraced(function*(credential: Redacted.Redacted<string>) {
    const bearer = Redacted.value(credential).trim()
    if (bearer === "") {
      return yield* wrongScheme((yield* HttpServerRequest.HttpServerRequest).headers["authorization"]) ? notBearer : missing
    }
    if (!bearer.startsWith("sk_") && !bearer.startsWith("pk_") && !bearer.startsWith("rk_")) return yield* auth.authenticate(bearer)
    const address = clientIp(yield* HttpServerRequest.HttpServerRequest, http.trustedProxies) ?? "unknown"
    return yield* auth.authenticate(bearer).pipe(
      // Only a key the store does not know counts as a guess (a revoked one was real).
      catchCode("invalid_api_key", (error) => Effect.andThen(limits.take("auth", guessKey("key", address)), Effect.fail(error)))
    )
  })
})

/** A restricted key calling an operation its permissions do not cover: 403 before anything runs. */
const permitted = (principal: Principal, group: string, endpoint: HttpApiEndpoint.Top) => {
  const needed = neededBy(group, endpoint)
  if (needed === undefined || needed === null || allows(principal.credential.permissions, needed)) return Effect.void
  return Effect.fail(apiError(
    "permission_denied",
    `${principal.credential.userId === null ? `This restricted key (${principal.keyId})` : `This team member's role (${principal.keyId})`} may not call ${endpoint.method} ${endpoint.path}: it needs ${neededText(needed)}`,
    { needed: neededText(needed) }
  ))
}

/** Who the audit log names for the request's changes: the key (masked) or the token's pair, from where, by which operation. */
const makeAuditedAs = Effect.map(HttpConfig, (http) =>
  (credential: Redacted.Redacted<string>, principal: Principal | null, group: string, endpoint: HttpApiEndpoint.Top) =>
    Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
      const actor = principal === null
        ? { kind: "admin" as const, id: "ADMIN_TOKEN" }
        : principal.credential.userId !== null
        ? { kind: "user" as const, id: principal.keyId }
        : { kind: /^(?:sk|rk|pk)_/.test(Redacted.value(credential).trim()) ? "key" as const : "token" as const, id: principal.keyId }
      return AuditContext.of({ actor, ip: clientIp(request, http.trustedProxies) ?? null, operation: `${group}.${endpoint.identifier}` })
    }))

export const SecretKeyLive = Layer.effect(
  SecretKey,
  Effect.gen(function*() {
    const authenticate = yield* makeAuthenticate
    const limits = yield* RateLimits
    const onShopClock = yield* makeOnShopClock
    const auditedAs = yield* makeAuditedAs
    return SecretKey.of({
      bearer: (httpEffect, { credential, endpoint, group }) =>
        Effect.gen(function*() {
          const principal = yield* authenticate(credential)
          yield* limits.take(principal.environment, principal.credential.id)
          yield* permitted(principal, group.identifier, endpoint)
          if (principal.keyKind !== "secret") {
            return yield* apiError(
              "secret_key_required",
              "This endpoint needs a secret key or an access token; publishable keys serve hosted checkout and `any key` endpoints only"
            )
          }
          const audited = yield* auditedAs(credential, principal, group.identifier, endpoint)
          return yield* onShopClock(principal, logShop(principal, httpEffect.pipe(Effect.provideService(CurrentPrincipal, principal), Effect.provideService(AuditContext, audited))))
        })
    })
  })
)

export const AnyKeyLive = Layer.effect(
  AnyKey,
  Effect.gen(function*() {
    const authenticate = yield* makeAuthenticate
    const limits = yield* RateLimits
    const onShopClock = yield* makeOnShopClock
    const auditedAs = yield* makeAuditedAs
    return AnyKey.of({
      bearer: (httpEffect, { credential, endpoint, group }) =>
        Effect.gen(function*() {
          const principal = yield* authenticate(credential)
          yield* limits.take(principal.environment, principal.credential.id)
          yield* permitted(principal, group.identifier, endpoint)
          const audited = yield* auditedAs(credential, principal, group.identifier, endpoint)
          return yield* onShopClock(principal, logShop(principal, httpEffect.pipe(Effect.provideService(CurrentPrincipal, principal), Effect.provideService(AuditContext, audited))))
        })
    })
  })
)

export const AdminTokenLive = Layer.effect(
  AdminToken,
  Effect.map(Effect.all([makeAdminCheck, makeAuditedAs]), ([check, auditedAs]) =>
    AdminToken.of({
      adminBearer: (httpEffect, { credential, endpoint, group }) =>
        Effect.andThen(
          check(Redacted.value(credential)),
          Effect.flatMap(auditedAs(credential, null, group.identifier, endpoint), (audited) => Effect.provideService(httpEffect, AuditContext, audited))
        )
    }))
)
