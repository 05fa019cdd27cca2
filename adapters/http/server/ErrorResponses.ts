/**
 * The API-wide middleware that answers every endpoint failure with the envelope: an `ApiError`
 * as it is, and a request that does not decode as `400 invalid_request` with `details.issues[]`
 * (`{ path, message }`) and `details.missingFields`.
 */
import { Effect, Layer, Option } from "effect"
import { SchemaIssue } from "effect"
import { HttpApiError } from "effect/http-api"
import { ApiError, invalidRequest, type Issue } from "../../../core/ApiError.ts"
import { ErrorResponses } from "../api/Errors.ts"
import { EngineConfig } from "../../../core/EngineConfig.ts"
import { renderError } from "./ErrorRendering.ts"
import { RequestId } from "./RequestLifecycle.ts"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const pathText = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined) =>
  (path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".")

/** The issues of a request that failed to decode, and the top-level fields that were absent. */
export const fromSchemaError = (error: HttpApiError.HttpApiSchemaError): ApiError => {
  const slot = error.kind === "Payload" || error.kind === "Body" ? "body" : error.kind.toLowerCase()
  const issues: Array<Issue> = formatIssues(error.cause.issue).issues.map((issue) => ({
    path: pathText(issue.path),
    message: issue.message
  }))
  const missingFields = [...new Set(issues.filter((i) => i.message === "Missing key" && !i.path.includes(".")).map((i) => i.path))]
  const where = issues.map((i) => (i.path === "" ? i.message : `${i.path}: ${i.message}`)).join("; ")
  return invalidRequest(`Invalid ${slot}: ${where}`, issues, missingFields)
}

export const ErrorResponsesLive = Layer.effect(
  ErrorResponses,
  Effect.gen(function*() {
    const config = yield* EngineConfig
    return ErrorResponses.of((httpEffect) =>
      Effect.catch(httpEffect, (error) =>
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
    )
  })
)
