/** Handlers of the key exchange (`POST /auth/token`, `POST /auth/refresh`) and of `GET /ping`. */
import { Clock, DateTime, Effect } from "effect"
import { clientIp } from "../support/ClientIp.ts"
import { HttpConfig } from "../support/HttpConfig.ts"
import { guessKey, RateLimits } from "../middleware/RateLimits.ts"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Auth } from "../../../../core/auth/Auth.ts"
import { Team } from "../../../../core/team/Team.ts"
import { SingleSignOn } from "../../../../core/team/SingleSignOn.ts"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { Api, apiVersion } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"

export const AuthHandlers = HttpApiBuilder.group(Api, "auth", (handlers) =>
  Effect.gen(function*() {
    const auth = yield* Auth
    const team = yield* Team
    const sso = yield* SingleSignOn
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
      .handle("signIn", ({ payload }) => documented("auth.signIn", Effect.catchTag(team.signIn(payload), "ApiError", failed)))
      .handle("startSingleSignOn", ({ payload }) =>
        documented("auth.startSingleSignOn", Effect.catchTag(sso.start(payload), "ApiError", failed)))
      .handle("finishSingleSignOn", ({ payload }) => documented("auth.finishSingleSignOn", Effect.catchTag(sso.finish(payload.callbackUrl), "ApiError", failed)))
      .handle("acceptInvitation", ({ payload }) =>
        documented("auth.acceptInvitation", Effect.map(Effect.catchTag(team.accept(payload.token, payload.password), "ApiError", failed), (enrol) => ({ totpSecret: enrol.secret, otpauthUri: enrol.uri }))))
      .handle("confirmInvitation", ({ payload }) =>
        documented("auth.confirmInvitation", Effect.map(Effect.catchTag(team.confirm(payload.token, payload.code), "ApiError", failed), (m) => ({ member: { id: m.id, email: m.email, role: m.role } }))))
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
