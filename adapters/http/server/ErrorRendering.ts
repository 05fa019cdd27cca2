/** The one place an `ApiError` becomes an HTTP response. */
import { HttpServerResponse } from "effect/http"
import type { ApiError } from "../../../core/ApiError.ts"
import { docsUrl } from "./HttpConfig.ts"

export const renderError = (error: ApiError, requestId: string, publicUrl: string): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe({
    error: {
      code: error.code,
      type: error.type,
      message: error.message,
      requestId,
      docs_url: docsUrl(publicUrl, error.code),
      details: error.details
    }
  }, { status: error.status })
