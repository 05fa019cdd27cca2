/**
 * What every request goes through, matched or not: a request id (also sent back as
 * `X-Request-Id`), one log line naming the route by its template (`RouteTemplates.ts`), and the error envelope for whatever no endpoint answered
 * (unknown route, malformed body, a defect) so that no response is a bare 404 or 500.
 */
import { ByteSize, Cause, Clock, Context, Effect, Layer, type Types } from "effect"
import { SecureRandom } from "effect/crypto"
import { HttpIncomingMessage, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { apiError, ApiError as ApiErrorClass, type ApiError } from "../../../../core/ApiError.ts"
import { EngineConfig } from "../../../../core/EngineConfig.ts"
import * as SecureRandomPool from "../../../../core/SecureRandomPool.ts"
import type { Environment } from "../../../../core/Environment.ts"
import { renderError } from "../support/ErrorRendering.ts"
import { recordRequest } from "./Metrics.ts"
import { RequestLogStore } from "../../../../core/ports/RequestLogStore.ts"
import { refusalOfBody } from "./StorableText.ts"
import { routeOf } from "../support/RouteTemplates.ts"
import { RequestId } from "../support/RequestId.ts"

/** Kept here too: the middlewares and pages read the request id beside the lifecycle that sets it. */
export { RequestId }

/**
 * Fields of the request's log line that an inner middleware learns on the way (the shop, once
 * the credential is authenticated: `SecurityLive.ts`), read when the line is written.
 */
export class RequestLogFields extends Context.Service<RequestLogFields, { shopId?: string; environment?: Environment }>()("adapters/http/RequestLogFields") {}

const requestIdHeader = "x-request-id"

/** The status a request is counted and logged with when its client went away before the answer. */
const clientClosedRequest = 499

/** Whether the request was interrupted because its client closed the connection, and for nothing else. */
const clientWentAway = (cause: Cause.Cause<unknown>) =>
  Cause.hasInterruptsOnly(cause) &&
  cause.reasons.some((reason) => Cause.isInterruptReason(reason) && reason.annotations.has(HttpServerError.ClientAbort.key))

/** The largest request body read (`payload_too_large` past it). */
export const maxBodyBytes = 1024 * 1024

/** A provider's report file uploaded by the operator: a day of a busy account runs to megabytes. */
export const maxReportBytes = 32 * 1024 * 1024

/** The console's upload form: a report file and a few fields around it (multipart). */
const consoleReportUpload = "/console/operator/reconciliation/reports"

/** The body limit of a request: the report upload's (the API's, or the console's form of it), or the one of every other route. */
const bodyLimitOf = (request: HttpServerRequest.HttpServerRequest) =>
  request.method !== "POST"
    ? maxBodyBytes
    : request.url.startsWith("/admin/v1/reconciliation/reports")
    ? maxReportBytes
    : request.url.startsWith(consoleReportUpload)
    ? maxReportBytes + 64 * 1024
    : maxBodyBytes

/** Translates what escaped the endpoints into an `ApiError`. */
const toApiError = (cause: Cause.Cause<unknown>): ApiError => {
  const failure = cause.reasons.find(Cause.isFailReason)?.error
  const reason = (failure as { reason?: { _tag?: string; reason?: string } } | undefined)?.reason
  switch (reason?._tag) {
    case "RouteNotFound":
      return apiError("not_found", "No such endpoint", {})
    case "RequestParseError":
      return reason.reason === "BodyTooLarge"
        ? tooLarge(maxBodyBytes)
        : apiError("invalid_request", "The request body is not valid JSON", { issues: [], missingFields: [] })
    default:
      return apiError("internal_error", "Internal error", {})
  }
}

const tooLarge = (limit: number) => apiError("payload_too_large", `The request body is larger than ${limit} bytes`, { maxBytes: limit })

const isEnvelope = (response: HttpServerResponse.HttpServerResponse) =>
  (response.headers["content-type"] ?? "").includes("application/json")

const nulRefused = apiError("invalid_request", "NUL characters are not allowed in ids, query values or strings", {
  issues: [{ path: "", message: "Contains a NUL (\\u0000) character" }],
  missingFields: []
})

/**
 * Text the store cannot keep is refused before any endpoint sees it: NUL in the path and query
 * (PostgreSQL text cannot hold it, and no id or name needs one), and in a JSON body NUL, lone
 * UTF-16 surrogates and absurd nesting, each string named (StorableText.ts).
 */
const refuseUnstorableText = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    if (/%00|\u0000/i.test(request.url)) return yield* Effect.fail(nulRefused)
    if (request.method === "GET" || request.method === "HEAD" || request.method === "DELETE") return
    if (!(request.headers["content-type"] ?? "").includes("json")) return
    const text = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
    const refusal = refusalOfBody(text)
    if (refusal !== undefined) return yield* Effect.fail(refusal)
  })

/** A declared body over the limit is refused before a byte of it is read. */
const declaredTooLarge = (request: HttpServerRequest.HttpServerRequest) => {
  const length = Number(request.headers["content-length"] ?? "0")
  return Number.isFinite(length) && length > bodyLimitOf(request)
}

export const RequestLifecycle = HttpRouter.middleware<{ provides: RequestId; handles: unknown }>()(
  Effect.gen(function*() {
    const config = yield* EngineConfig
    const random = yield* SecureRandom.SecureRandom
    const requestLog = yield* RequestLogStore
    // Every failure is answered here; the type says "unhandled" only because the router's
    // middleware type asks a global middleware to pass on what it does not handle.
    return (httpEffect): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest> =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const requestId = `req_${(yield* random.ulid).toLowerCase()}`
        // The request's id on its span: a trace found from the id in an error envelope, and back.
        yield* Effect.annotateCurrentSpan("http.request_id", requestId)
        const started = yield* Clock.currentTimeMillis
        const fields: { shopId?: string; environment?: Environment } = {}
        const answer = declaredTooLarge(request) ? Effect.fail(tooLarge(bodyLimitOf(request))) : Effect.andThen(refuseUnstorableText(request), httpEffect)
        const response = yield* answer.pipe(
          // The endpoints' own answer to a body that is not JSON is a bare 415: give it the envelope.
          Effect.flatMap((response) =>
            response.status === 415 && !isEnvelope(response)
              ? Effect.fail(apiError("unsupported_media_type", `Unsupported Content-Type '${request.headers["content-type"] ?? ""}': send application/json`, {}))
              : Effect.succeed(response)
          ),
          Effect.provideService(RequestId, requestId),
          Effect.provideService(RequestLogFields, fields),
          Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(bodyLimitOf(request))),
          Effect.catchCause((cause) =>
            Effect.gen(function*() {
              // The client closed the connection before its answer: nothing failed here, and no
              // one will read the answer. It is counted and logged as 499 (nginx's "client
              // closed request"), never as a 500 that would page an operator.
              if (clientWentAway(cause)) return HttpServerResponse.empty({ status: clientClosedRequest })
              const failure = cause.reasons.find(Cause.isFailReason)?.error
              const error = failure instanceof ApiErrorClass ? failure : toApiError(cause)
              if (error.code === "internal_error") yield* Effect.logError("request failed", cause).pipe(Effect.annotateLogs({ requestId, ...fields }))
              return renderError(error, requestId, config.publicUrl)
            })
          )
        )
        const elapsed = (yield* Clock.currentTimeMillis) - started
        const route = routeOf(request.method, request.url)
        yield* recordRequest(route, request.method, response.status, elapsed)
        if (fields.shopId !== undefined && fields.environment !== undefined) {
          requestLog.record({
            environment: fields.environment,
            shopId: fields.shopId,
            requestId,
            method: request.method,
            // The merchant's own log, shown to that shop alone: the path it called
            // (its own ids), without the query (an email, a phone or a document number).
            path: request.url.split("?")[0]!,
            status: response.status,
            durationMs: elapsed,
            atMs: started
          })
        }
        // The route's template, never the path: a page's path carries a capability token
        // (`/checkout/:token`), and any path carries whatever the client put in it.
        yield* Effect.logInfo(`${request.method} ${route} ${response.status} ${elapsed}ms`).pipe(
          Effect.annotateLogs({ requestId, ...fields, method: request.method, route, status: response.status, durationMs: elapsed })
        )
        return HttpServerResponse.setHeader(response, requestIdHeader, requestId)
      })
  }),
  { global: true }
).pipe(Layer.provide(SecureRandomPool.layer))
