/**
 * What every request goes through, matched or not: a request id (also sent back as
 * `X-Request-Id`), one log line, and the error envelope for whatever no endpoint answered
 * (unknown route, malformed body, a defect) so that no response is a bare 404 or 500.
 */
import { Cause, Clock, Context, Effect, Layer, type Types } from "effect"
import { SecureRandom } from "effect/crypto"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { apiError, type ApiError } from "../../../core/ApiError.ts"
import { EngineConfig } from "../../../core/EngineConfig.ts"
import { renderError } from "./ErrorRendering.ts"

export class RequestId extends Context.Service<RequestId, string>()("adapters/http/RequestId") {}

const requestIdHeader = "x-request-id"

/** Translates what escaped the endpoints into an `ApiError`. */
const toApiError = (cause: Cause.Cause<unknown>): ApiError => {
  const failure = cause.reasons.find(Cause.isFailReason)?.error
  const reason = (failure as { reason?: { _tag?: string } } | undefined)?.reason
  switch (reason?._tag) {
    case "RouteNotFound":
      return apiError("not_found", "No such endpoint", {})
    case "RequestParseError":
      return apiError("invalid_request", "The request body is not valid JSON", { issues: [], missingFields: [] })
    default:
      return apiError("internal_error", "Internal error", {})
  }
}

export const RequestLifecycle = HttpRouter.middleware<{ provides: RequestId; handles: unknown }>()(
  Effect.gen(function*() {
    const config = yield* EngineConfig
    const random = yield* SecureRandom.SecureRandom
    // Every failure is answered here; the type says "unhandled" only because the router's
    // middleware type asks a global middleware to pass on what it does not handle.
    return (httpEffect): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest> =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const requestId = `req_${(yield* random.ulid).toLowerCase()}`
        const started = yield* Clock.currentTimeMillis
        const response = yield* httpEffect.pipe(
          Effect.provideService(RequestId, requestId),
          Effect.catchCause((cause) =>
            Effect.gen(function*() {
              const error = toApiError(cause)
              if (error.code === "internal_error") yield* Effect.logError("request failed", cause)
              return renderError(error, requestId, config.publicUrl)
            })
          )
        )
        const elapsed = (yield* Clock.currentTimeMillis) - started
        yield* Effect.logInfo(`${request.method} ${request.url} ${response.status} ${elapsed}ms`).pipe(
          Effect.annotateLogs({ requestId })
        )
        return HttpServerResponse.setHeader(response, requestIdHeader, requestId)
      })
  }),
  { global: true }
).pipe(Layer.provide(SecureRandom.layerWebCrypto))
