/**
 * The one place an `ApiError` becomes an HTTP response, and where a `400 invalid_request` is put
 * in the merchant's words: whatever raised it (a request that did not decode, or a core service),
 * each issue reads "Unknown parameter: amout", "Missing required parameter: amount" or
 * "amount: expected a number", never the schema library's "Expected no excess property",
 * "Missing key" or "Expected string | null".
 */
import { HttpServerResponse } from "effect/http"
import { type ApiError, apiError, type Issue } from "../../../../core/ApiError.ts"
import { docsUrl } from "./HttpConfig.ts"
import { httpStatus } from "../../api/ErrorStatus.ts"

/** The library's name of an expected type, in a merchant's words ("string | null" -> "a string"). */
const expectedThing = (expected: string): string => {
  const alternatives = expected.split(" | ").filter((a) => a !== "null" && a !== "undefined")
  if (alternatives.length > 1 && alternatives.every((a) => /^".*"$/.test(a))) {
    return `one of ${alternatives.map((a) => a.slice(1, -1)).join(", ")}`
  }
  const thing = alternatives.join(" or ")
  switch (thing) {
    case "string":
      return "a string"
    case "number":
    case "finite":
    case "a finite number":
      return "a number"
    case "boolean":
      return "true or false"
    case "object":
      return "an object"
    case "array":
      return "a list"
    case "":
      return "a value"
    default:
      return /^".*"$/.test(thing) ? thing.slice(1, -1) : thing
  }
}

/**
 * One issue in the merchant's words. `path` is the dotted name of the parameter ('' for the whole
 * request body); a message already in these words, or written for a person by a service, is kept.
 */
export const merchantMessage = (path: string, message: string): string => {
  if (message === "Missing key") return `Missing required parameter: ${path}`
  if (message === "Expected no excess property" || message.startsWith("Unexpected key")) return `Unknown parameter: ${path}`
  const expected = /^Expected (.*)$/s.exec(message)?.[1]
  if (expected === undefined) return message
  if (path === "") {
    if (expected === "a valid JSON body") return "The request body is not valid JSON"
    const thing = expectedThing(expected)
    return thing === "an object" ? "The request body must be a JSON object" : `The request body must be ${thing}`
  }
  return `${path}: expected ${expectedThing(expected)}`
}

/** Library words in a message written from the issues ("Invalid body: Expected object"). */
const libraryWords = /Missing key|Expected no excess property|Unexpected key|(^|: )Expected /

/** The message naming the first problem, and how many more there are. */
export const firstProblem = (issues: ReadonlyArray<Issue>): string => {
  const first = issues[0]?.message ?? "The request is not valid"
  const more = issues.length - 1
  return more === 0 ? first : `${first} (and ${more} more problem${more === 1 ? "" : "s"} in details.issues)`
}

/** A `400 invalid_request` in the merchant's words; any other error as it is. */
export const inMerchantWords = (error: ApiError): ApiError => {
  if (error.code !== "invalid_request") return error
  const details = error.details as { issues?: ReadonlyArray<Issue>; missingFields?: ReadonlyArray<string>; required?: ReadonlyArray<string> }
  const before = details.issues ?? []
  const issues = before.map((issue) => ({ path: issue.path, message: merchantMessage(issue.path, issue.message) }))
  const changed = issues.some((issue, i) => issue.message !== before[i]!.message)
  const reworded = libraryWords.test(error.message)
  if (!changed && !reworded) return error
  const message = reworded && issues.length > 0 ? firstProblem(issues) : error.message
  return apiError("invalid_request", message, {
    issues,
    missingFields: details.missingFields ?? [],
    ...(details.required === undefined ? {} : { required: details.required })
  })
}

export const renderError = (raised: ApiError, requestId: string, publicUrl: string): HttpServerResponse.HttpServerResponse => {
  const error = inMerchantWords(raised)
  const response = HttpServerResponse.jsonUnsafe({
    error: {
      code: error.code,
      type: error.type,
      message: error.message,
      requestId,
      docs_url: docsUrl(publicUrl, error.code),
      details: error.details
    }
  }, { status: httpStatus[error.code] })
  // RFC 9110: a 405 lists the methods the target accepts.
  const allowed = error.code === "method_not_allowed" ? (error.details as { allowed?: ReadonlyArray<string> }).allowed : undefined
  return allowed === undefined ? response : HttpServerResponse.setHeader(response, "allow", allowed.join(", "))
}
