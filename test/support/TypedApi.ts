/**
 * The API as a merchant's typed client calls it: `HttpApiClient` derived from the host's own
 * `HttpApi` definition, so a request is built from the endpoint's schemas and an answer decoded
 * with them. A changed response shape fails to compile in the test (or to decode at run time),
 * where `call` (Host.ts) reads `body: any`. Errors arrive as the core's `ApiError` (the envelope
 * decoded): assert on `code`, and on `httpStatus[code]` for the status.
 */
import { Effect } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "../../adapters/http/api/Api.ts"
import { ApiError } from "../../core/ApiError.ts"
import { baseUrl } from "./Host.ts"

/** A client of the host under test that sends `bearer` (a secret key, an admin token) on every request. */
export const apiAs = (bearer: string) =>
  Effect.flatMap(baseUrl, (base) =>
    HttpApiClient.make(Api, {
      baseUrl: base,
      transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(bearer))
    })).pipe(Effect.provide(FetchHttpClient.layer))

/** The `ApiError` an operation failed with (its code, details), for asserting refusals. */
export const refusal = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.flip(effect)

/**
 * The `ApiError` an operation was refused with, narrowed from the client's other failures: a
 * success, a transport failure or an answer that does not decode fails the test instead.
 */
export const refused = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<ApiError, never, R> =>
  Effect.matchEffect(effect, {
    onSuccess: (a) => Effect.die(new Error(`expected a refusal, got a success: ${JSON.stringify(Array.isArray(a) ? a[0] : a)}`)),
    onFailure: (e) => e instanceof ApiError ? Effect.succeed(e) : Effect.die(e)
  })
