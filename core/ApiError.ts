/**
 * The API error model: every error code a caller can receive, its HTTP status and its `type`.
 *
 * The codes are the public contract (spec section 7 plus the codes the spec leaves to us), so
 * they live in the core beside the services that raise them. A service fails with `ApiError`;
 * `adapters/http` is the one place that renders it as the envelope
 * `{ error: { code, type, message, requestId, docs_url, details } }`, with the HTTP status it
 * gives each code (`adapters/http/api/ErrorStatus.ts`): the core knows no HTTP.
 */
import { Effect, Schema } from "effect"
import { type ErrorCode, ErrorCodeSchema, ErrorCatalog, type ErrorType } from "./ErrorCatalog.ts"

export { type ErrorCode, ErrorCatalog, ErrorCodeSchema, errorCodes, type ErrorType } from "./ErrorCatalog.ts"


/**
 * The errors an execution answers while the record it wrote ahead stays open: unlike every other
 * error, they keep the `Idempotency-Key` bound to that record, so that a retry continues it
 * instead of starting a second one (`Idempotency.ts`).
 */
export const keepsRecordOpen: ReadonlySet<ErrorCode> = new Set<ErrorCode>(["provider_outcome_unknown"])

export class ApiError extends Schema.TaggedError<ApiError>()("ApiError", {
  code: ErrorCodeSchema,
  message: Schema.String,
  details: Schema.Record(Schema.String, Schema.Unknown)
}) {
  get type(): ErrorType {
    return ErrorCatalog[this.code].type
  }
}

/**
 * An `ApiError` known to carry one of the codes `C`. `apiError` builds one, so an `Effect.gen`
 * infers the union of the codes it can fail with; a service that declares its codes this way lets
 * the HTTP layer check, at compile time, that an operation documents every code it can answer
 * (`documented` in `adapters/http/api/OperationErrors.ts`). Plain `ApiError` is any code.
 */
export type ApiErrorOf<C extends ErrorCode> = ApiError & { readonly code: C }

/**
 * Handles the errors of one code, leaving the others; the type says which remain:
 * `effect.pipe(catchCode("provider_outcome_unknown", (e) => ...))`.
 */
export const catchCode = <C extends ErrorCode, A2, E2, R2>(code: C, handle: (error: ApiErrorOf<C>) => Effect.Effect<A2, E2, R2>) =>
<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A | A2, Exclude<E, ApiErrorOf<C>> | E2, R | R2> =>
  Effect.catchIf(
    self,
    (e): e is Extract<E, ApiErrorOf<C>> => e instanceof ApiError && e.code === code,
    (e) => handle(e as ApiErrorOf<C>)
  ) as Effect.Effect<A | A2, Exclude<E, ApiErrorOf<C>> | E2, R | R2>

/** What `details` holds for a code. */
export type DetailsOf<C extends ErrorCode> = (typeof ErrorCatalog)[C]["details"]["Type"]

/**
 * Builds an `ApiError`; its `details` are typed by the code's schema (and may be left out when
 * every field of that schema is optional).
 */
export const apiError = <C extends ErrorCode>(
  code: C,
  message: string,
  ...[details]: {} extends DetailsOf<C> ? [details?: DetailsOf<C>] : [details: DetailsOf<C>]
): ApiErrorOf<C> => new ApiError({ code, message, details: (details ?? {}) as Record<string, unknown> }) as ApiErrorOf<C>

/** One problem with one input value: where it is and what is wrong with it. */
export interface Issue {
  readonly path: string
  readonly message: string
}

/**
 * `400 invalid_request` with the spec's details: `issues[]` (`{ path, message }`) and
 * `missingFields` (the top-level names of required fields that were absent).
 */
export const invalidRequest = (
  message: string,
  issues: ReadonlyArray<Issue>,
  missingFields: ReadonlyArray<string> = []
): ApiErrorOf<"invalid_request"> => apiError("invalid_request", message, { issues, missingFields })

/** `404 not_found` for a resource kind; an id of another shop gives exactly this too. */
export const notFound = (resource: string, id: string): ApiErrorOf<"not_found"> =>
  apiError("not_found", `No such ${resource}: '${id}'`, { resource, id })
