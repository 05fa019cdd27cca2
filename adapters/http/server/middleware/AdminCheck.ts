/** The operator's `ADMIN_TOKEN` as a bearer: one check for every route that takes it. */
import { Effect, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { apiError, type ApiErrorOf } from "../../../../core/ApiError.ts"
import { safeEqual } from "../../../../core/Secrets.ts"
import { clientIp } from "../support/ClientIp.ts"
import { HttpConfig } from "../support/HttpConfig.ts"
import { guessKey, RateLimits } from "./RateLimits.ts"

/**
 * The operator's token, as every route that takes it checks it (the admin API, `GET /metrics`). A
 * wrong one takes from the client address's allowance of wrong operator tokens, and once that is
 * spent a wrong one is 429; the right one always works, so a guesser behind the operator's
 * address does not lock the operator out. Guessing is then only as slow as the token is long:
 * `ADMIN_TOKEN` must be long and random (`docs/operating.md` says so).
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
          if (safeEqual(given, Redacted.value(token))) return
          yield* limits.take("auth", guessKey("admin", address))
          return yield* apiError("invalid_api_key", "Invalid admin token")
        })
    })
})

