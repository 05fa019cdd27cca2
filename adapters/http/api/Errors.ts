/**
 * The error envelope of every failed response, as a schema: `{ error: { code, type, message,
 * requestId, docs_url, details } }`. Its type side is the core `ApiError`, so handlers fail with
 * `ApiError` and the OpenAPI document shows the envelope at each status the API can answer.
 */
import { Schema, SchemaTransformation } from "effect"
import { HttpApiMiddleware, HttpApiSchema } from "effect/http-api"
import { ApiError, ErrorCodeSchema, errorCodes } from "../../../core/ApiError.ts"
import { httpStatus } from "./ErrorStatus.ts"

export const ErrorBody = Schema.Struct({
  code: ErrorCodeSchema,
  type: Schema.String,
  message: Schema.String,
  requestId: Schema.String,
  docs_url: Schema.String,
  details: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "ErrorBody" })

export const ErrorEnvelope = Schema.Struct({ error: ErrorBody }).annotate({
  identifier: "Error",
  description: "The error envelope. `details` depends on `code`; see the list of codes in the API description."
})

const ApiErrorType = Schema.instanceOf(ApiError)

/**
 * The envelope schema for one HTTP status. The middleware in `server/ErrorResponses.ts` renders
 * errors itself (it knows the request id); this schema documents them and types the handlers.
 */
const atStatus = (status: number) =>
  ErrorEnvelope.pipe(
    Schema.decodeTo(
      ApiErrorType,
      SchemaTransformation.transform({
        decode: ({ error }) => new ApiError({ code: error.code, message: error.message, details: error.details }),
        encode: (e) => ({
          error: { code: e.code, type: e.type, message: e.message, requestId: "", docs_url: "", details: e.details }
        })
      })
    ),
    HttpApiSchema.status(status)
  )

/** Every status some error code answers with. */
export const errorStatuses = [...new Set(errorCodes.map((c) => httpStatus[c]))].sort()

export const ApiErrorResponses = errorStatuses.map(atStatus)

/**
 * Applied to the whole API: turns every failure of an endpoint (an `ApiError`, a request that
 * does not decode, a defect) into the envelope with the request id.
 */
export class ErrorResponses extends HttpApiMiddleware.Service<ErrorResponses>()("adapters/http/ErrorResponses", {
  error: ApiErrorResponses
}) {}
