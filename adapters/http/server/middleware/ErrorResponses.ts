/**
 * The API-wide middleware that answers every endpoint failure with the envelope: an `ApiError`
 * as it is, and a request that does not decode as `400 invalid_request` with `details.issues[]`
 * (`{ path, message }`, in the merchant's words: ErrorRendering.ts) and `details.missingFields`.
 *
 * It also reads an empty body sent to an endpoint that takes JSON as `{}`, as Stripe does: a
 * refund with no body refunds all that remains, and a body that must name fields answers
 * "Missing required parameter: ..." for each instead of "Expected object".
 */
import { Effect, Layer, Option } from "effect"
import { SchemaIssue } from "effect"
import { HttpMethod, HttpServerRequest } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { ApiError, invalidRequest, type Issue } from "../../../../core/ApiError.ts"
import { ErrorResponses } from "../../api/Errors.ts"
import { EngineConfig } from "../../../../core/EngineConfig.ts"
import { firstProblem, merchantMessage, renderError } from "../support/ErrorRendering.ts"
import { RequestId } from "./RequestLifecycle.ts"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const pathText = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined) =>
  (path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".")

/** The issues of a request that failed to decode, and the top-level fields that were absent. */
export const fromSchemaError = (error: HttpApiError.HttpApiSchemaError): ApiError => {
  const raw = formatIssues(error.cause.issue).issues.map((issue) => ({ path: pathText(issue.path), message: issue.message }))
  const missingFields = [...new Set(raw.filter((i) => i.message === "Missing key" && !i.path.includes(".")).map((i) => i.path))]
  const issues: Array<Issue> = raw.map((i) => ({ path: i.path, message: merchantMessage(i.path, i.message) }))
  return invalidRequest(firstProblem(issues), issues, missingFields)
}

/** Whether a request can have an empty body: no length, or a length of 0, and not chunked. */
const mayBeEmpty = (request: HttpServerRequest.HttpServerRequest) => {
  const length = request.headers["content-length"]
  return (length === undefined || length.trim() === "0") && request.headers["transfer-encoding"] === undefined
}

/** The request as the endpoint reads it: an empty body is the empty JSON object. */
const emptyBodyAsObject = (request: HttpServerRequest.HttpServerRequest): HttpServerRequest.HttpServerRequest =>
  new Proxy(request, {
    get(target, property) {
      if (property === "text") return Effect.map(target.text, (text) => (text.trim() === "" ? "{}" : text))
      const value = Reflect.get(target, property, target)
      return typeof value === "function" ? value.bind(target) : value
    }
  })

export const ErrorResponsesLive = Layer.effect(
  ErrorResponses,
  Effect.gen(function*() {
    const config = yield* EngineConfig
    return ErrorResponses.of((httpEffect, { endpoint }) => {
      const takesJson = endpoint.payload.has("application/json") && HttpMethod.hasBody(endpoint.method)
      // Only a request that may have no body is wrapped: the others (every POST /payments) run as they are.
      const handled = takesJson
        ? Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) =>
          mayBeEmpty(request)
            ? Effect.provideService(httpEffect, HttpServerRequest.HttpServerRequest, emptyBodyAsObject(request))
            : httpEffect)
        : httpEffect
      return Effect.catch(handled, (error) =>
        Effect.gen(function*() {
          const apiError = error instanceof ApiError
            ? error
            : HttpApiError.HttpApiSchemaError.is(error) && error.kind !== "Body" && error.kind !== "ResponseHeaders"
            ? fromSchemaError(error)
            : undefined
          if (apiError === undefined) return yield* Effect.fail(error)
          const requestId = Option.getOrElse(yield* Effect.serviceOption(RequestId), () => "")
          return renderError(apiError, requestId, config.publicUrl)
        })
      )
    })
  })
)
