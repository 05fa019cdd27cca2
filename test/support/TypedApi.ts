/**
 * The API as a merchant's typed client calls it: `HttpApiClient` derived from the host's own
 * `HttpApi` definition, so a request is built from the endpoint's schemas and an answer decoded
 * with them. A changed response shape fails to compile in the test (or to decode at run time),
 * where `call` (Host.ts) reads `body: any`. Errors arrive as the core's `ApiError` (the envelope
 * decoded): assert on `code`, and on `httpStatus[code]` for the status.
 */
import { Effect } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest, type HttpClientResponse, type HttpServer } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "../../adapters/http/api/Api.ts"
import { ApiError } from "../../core/ApiError.ts"
import { contractViolation } from "./Contract.ts"
import { baseUrl } from "./Host.ts"

/**
 * Holds every answer to the published contract as `call` does (Contract.ts): decoding alone
 * accepts an error code the operation does not document, or a status it does not list for it.
 */
const keepsContract = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.flatMap(Effect.orDie(response.text), (text) => {
    let body: unknown = text
    try {
      body = text === "" ? undefined : JSON.parse(text)
    } catch {
      // not JSON: keep the text
    }
    const url = new URL(response.request.url)
    const violation = contractViolation(response.request.method, url.pathname + url.search, response.status, body)
    return violation === undefined ? Effect.void : Effect.die(new Error(`Contract: ${response.request.method} ${url.pathname}: ${violation}`))
  })

const makeClient = (base: string, bearer: string) =>
  HttpApiClient.make(Api, {
    baseUrl: base,
    transformClient: (client) =>
      client.pipe(HttpClient.mapRequest(HttpClientRequest.bearerToken(bearer)), HttpClient.transformResponse(Effect.tap(keepsContract)))
  }).pipe(Effect.provide(FetchHttpClient.layer))

type Client = Effect.Success<ReturnType<typeof makeClient>>

/** Clients made, by host and bearer: making one walks the whole `Api` (about 200 ms). */
const clients = new Map<string, Client>()

/** A client of the host under test that sends `bearer` (a secret key, an admin token) on every request. */
export const apiAs = (bearer: string): Effect.Effect<Client, never, HttpServer.HttpServer> =>
  Effect.flatMap(baseUrl, (base) => {
    const key = `${base} ${bearer}`
    const made = clients.get(key)
    return made !== undefined ? Effect.succeed(made) : Effect.tap(makeClient(base, bearer), (client) => Effect.sync(() => clients.set(key, client)))
  })

/**
 * The `ApiError` an operation was refused with, narrowed from the client's other failures: a
 * success, a transport failure or an answer that does not decode fails the test instead.
 */
export const refused = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<ApiError, never, R> =>
  Effect.matchEffect(effect, {
    onSuccess: (a) => Effect.die(new Error(`expected a refusal, got a success: ${JSON.stringify(Array.isArray(a) ? a[0] : a)}`)),
    onFailure: (e) => e instanceof ApiError ? Effect.succeed(e) : Effect.die(e)
  })

/** With the raw response beside the decoded answer, for its status and headers. */
export const withResponse = { responseMode: "decoded-and-response" } as const
