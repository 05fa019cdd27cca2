/**
 * The vault's JSON API: `POST /v1/cards` (a tokenize session), `GET /v1/cards/{token}`,
 * `POST /v1/forward` and `GET /v1/audit` (the engine's key), `GET /health`. Handlers are thin:
 * authenticate, decode, call a service, map its errors through `Envelope`.
 */
import { Effect, Layer, Redacted, Schema } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { CardDescription, ForwardRequest, ForwardResponse } from "../../core/ports/CardVault.ts"
import { CardInput } from "../cards/CardInput.ts"
import { Cards } from "../cards/Cards.ts"
import { Forwarder } from "../forward/Forwarder.ts"
import { CardStore } from "../store/CardStore.ts"
import { bearerOf, isEngineKey, verifySession } from "./Auth.ts"
import { errorResponse, fromError, json, type VaultError } from "./Envelope.ts"

export interface ApiConfig {
  readonly engineKey: Redacted.Redacted<string>
  readonly sessionSecret: Redacted.Redacted<string>
}

const TokenizeBody = CardInput.mapFields(({ merchantId: _, ...rest }) => rest)

const unauthorized = errorResponse(401, "unauthorized", "this call needs the vault's engine credential")

const queryOf = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://vault").searchParams

/** The JSON body decoded by `schema`, or the 400 to answer. */
const decodeBody = <S extends Schema.Top & { readonly DecodingServices: never }>(request: HttpServerRequest.HttpServerRequest, schema: S) =>
  request.json.pipe(
    Effect.mapError(() => errorResponse(400, "invalid_json", "the body is not JSON")),
    Effect.flatMap((body) =>
      Effect.mapError(Schema.decodeUnknownEffect(schema)(body), (error) =>
        errorResponse(400, "invalid_request", "the body does not have the expected fields", { issues: String(error.message).slice(0, 2000) }))
    )
  )

const handle = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, VaultError | HttpServerResponse.HttpServerResponse, R>) =>
  effect.pipe(
    Effect.catch((failure) => Effect.succeed(HttpServerResponse.isHttpServerResponse(failure) ? failure : fromError(failure)))
  )

export const apiRoutes = (config: ApiConfig) => Layer.unwrap(Effect.gen(function*() {
  const cards = yield* Cards
  const forwarder = yield* Forwarder
  const store = yield* CardStore
  const engineOnly = (request: HttpServerRequest.HttpServerRequest) =>
    isEngineKey(config.engineKey, bearerOf(request.headers["authorization"])) ? Effect.void : Effect.fail(unauthorized)

  const encodeCard = Schema.encodeSync(CardDescription)
  const encodeForward = Schema.encodeSync(ForwardResponse)

  return Layer.mergeAll(
    HttpRouter.add("GET", "/health", json(200, { status: "ok" })),
    // Any other path or method: the envelope, not an empty 404.
    HttpRouter.add("*", "/*", errorResponse(404, "not_found", "no such route on the vault")),
    HttpRouter.add("POST", "/v1/cards", (request) =>
      handle(Effect.gen(function*() {
        const session = yield* Effect.mapError(
          verifySession(config.sessionSecret, bearerOf(request.headers["authorization"])),
          (e) => errorResponse(401, "session_invalid", e.message)
        )
        const body = yield* decodeBody(request, TokenizeBody)
        const card = yield* cards.tokenize({ ...body, merchantId: session.merchantId }, `merchant:${session.merchantId}`)
        return json(201, encodeCard(card))
      }))),
    HttpRouter.add("GET", "/v1/cards/:token", (request) =>
      handle(Effect.gen(function*() {
        yield* engineOnly(request)
        const { token } = yield* HttpRouter.params
        const merchantId = queryOf(request).get("merchantId")
        if (merchantId === null || merchantId === "") return errorResponse(400, "invalid_request", "merchantId is required")
        const card = yield* cards.describe(merchantId, token ?? "")
        return json(200, encodeCard(card))
      }))),
    HttpRouter.add("POST", "/v1/forward", (request) =>
      handle(Effect.gen(function*() {
        yield* engineOnly(request)
        const body = yield* decodeBody(request, ForwardRequest)
        const answer = yield* forwarder.forward(body, "engine")
        return json(200, encodeForward(answer))
      }))),
    HttpRouter.add("GET", "/v1/audit", (request) =>
      handle(Effect.gen(function*() {
        yield* engineOnly(request)
        const token = queryOf(request).get("token")
        if (token === null || token === "") return errorResponse(400, "invalid_request", "token is required")
        const entries = yield* store.audit(token)
        return json(200, { data: entries.map((e) => ({ ...e, at: e.at.toISOString() })) })
      })))
  )
}))
