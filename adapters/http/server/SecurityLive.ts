/** The implementations of the security middlewares declared in `api/Security.ts`. */
import { Effect, Layer, Option, Redacted } from "effect"
import { apiError } from "../../../core/ApiError.ts"
import { Auth } from "../../../core/auth/Auth.ts"
import { CurrentPrincipal } from "../../../core/auth/Principal.ts"
import { safeEqual } from "../../../core/Secrets.ts"
import { AdminToken, AnyKey, SecretKey } from "../api/Security.ts"
import { HttpConfig } from "./HttpConfig.ts"
import { RateLimits } from "./RateLimits.ts"
import { makeOnShopClock } from "./RequestClock.ts"

const missing = apiError("missing_authorization", "Send `Authorization: Bearer <access token or API key>`")

const authenticate = (auth: Auth["Service"], credential: Redacted.Redacted<string>) => {
  const bearer = Redacted.value(credential).trim()
  return bearer === "" ? Effect.fail(missing) : auth.authenticate(bearer)
}

export const SecretKeyLive = Layer.effect(
  SecretKey,
  Effect.gen(function*() {
    const auth = yield* Auth
    const limits = yield* RateLimits
    const onShopClock = yield* makeOnShopClock
    return SecretKey.of({
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function*() {
          const principal = yield* authenticate(auth, credential)
          yield* limits.take(principal.environment, principal.credential.id)
          if (principal.keyKind !== "secret") {
            return yield* apiError(
              "secret_key_required",
              "This endpoint needs a secret key or an access token; publishable keys serve hosted checkout and `any key` endpoints only"
            )
          }
          return yield* onShopClock(principal, Effect.provideService(httpEffect, CurrentPrincipal, principal))
        })
    })
  })
)

export const AnyKeyLive = Layer.effect(
  AnyKey,
  Effect.gen(function*() {
    const auth = yield* Auth
    const limits = yield* RateLimits
    const onShopClock = yield* makeOnShopClock
    return AnyKey.of({
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function*() {
          const principal = yield* authenticate(auth, credential)
          yield* limits.take(principal.environment, principal.credential.id)
          return yield* onShopClock(principal, Effect.provideService(httpEffect, CurrentPrincipal, principal))
        })
    })
  })
)

export const AdminTokenLive = Layer.effect(
  AdminToken,
  Effect.map(HttpConfig, (config) =>
    AdminToken.of({
      adminBearer: (httpEffect, { credential }) =>
        Option.match(config.adminToken, {
          onNone: () => Effect.fail(apiError("not_found", "The admin API is disabled: the host has no ADMIN_TOKEN", {})),
          onSome: (token) =>
            safeEqual(Redacted.value(credential), Redacted.value(token))
              ? httpEffect
              : Effect.fail(apiError("invalid_api_key", "Invalid admin token"))
        })
    }))
)
