/** The operator's `ADMIN_TOKEN` as a bearer: one check for every route that takes it. */
import { Effect, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { apiError, type ApiErrorOf } from "../../../core/ApiError.ts"
import { safeEqual } from "../../../core/Secrets.ts"
import { clientIp } from "./ClientIp.ts"
import { HttpConfig } from "./HttpConfig.ts"
import { RateLimits } from "./RateLimits.ts"

/**
 * The operator's token, as every route that takes it checks it (the admin API, `GET /metrics`). A
 * wrong one takes from the client address's allowance of `POST /auth/token`, like a guessed API
 * key, and once that is spent no token from the address is even compared (a right guess must not
 * be told apart): an operator who set a short `ADMIN_TOKEN` is not open to guessing at the API's
 * speed, through any of them or the console's sign-in.
 */
export const makeAdminCheck = Effect.gen(function*() {
  const config = yield* HttpConfig
  const limits = yield* RateLimits
  return (given: string): Effect.Effect<void, ApiErrorOf<"not_found" | "invalid_api_key" | "rate_limited">, HttpServerRequest.HttpServerRequest> =>
    Option.match(config.adminToken, {
      onNone: () => Effect.fail(apiError("not_found", "The admin API is disabled: the host has no ADMIN_TOKEN", {})),
      onSome: (token) =>
        Effect.gen(function*() {
          const address = clientIp(yield* HttpServerRequest.HttpServerRequest, config.trustedProxies) ?? "unknown"
          yield* limits.check("auth", address)
          if (safeEqual(given, Redacted.value(token))) return
          yield* limits.take("auth", address)
          return yield* apiError("invalid_api_key", "Invalid admin token")
        })
    })
})

