/**
 * Runs a POST once per `Idempotency-Key` (when the request sends one): the key is scoped to the
 * environment and merchant, bound to a fingerprint of the operation and its request, and the
 * result is stored with the codec the endpoint gives (its own success schema, or the core's view
 * of what it created: a payment's `CreatedView`). A replay answers the stored value, encoded by
 * the endpoint's schema as the first answer was (`value`), or the very bytes the key holds
 * (`respond`, for the create on the hot path), with the header `Idempotent-Replayed: true`.
 */
import { Effect, type Schema } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { ApiError, ApiErrorOf } from "../../../../core/ApiError.ts"
import { Executed, Idempotency, type KeyCode, type KeyHandle } from "../../../../core/idempotency/Idempotency.ts"
import type { KeyTaken } from "../../../../core/ports/IdempotencyStore.ts"
import { secretHasher } from "../../../../core/Secrets.ts"
import type { ShopScope } from "../../../../core/tenancy/Scopes.ts"

const stable = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(stable)
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, stable((value as Record<string, unknown>)[k])]))
  }
  return value
}

const markReplayed = HttpEffect.appendPreResponseHandler((_request, response) =>
  Effect.succeed(HttpServerResponse.setHeader(response, "idempotent-replayed", "true"))
)

export interface IdempotentOptions<A, I, E extends ApiError> {
  readonly operation: string
  readonly scope: { readonly environment: ShopScope["environment"]; readonly merchant: { readonly id: string } }
  readonly key: string | undefined
  /** What the key is bound to: the encoded body and any header that changes the outcome. */
  readonly request: unknown
  readonly codec: Schema.Codec<A, I>
  /**
   * The execution, given the request's key (none without an `Idempotency-Key` header): `key.resume`
   * names the record an interrupted execution of the same key wrote ahead, `key.bind` binds the
   * key to the record it writes ahead. It may return its value with the completion its own last
   * write stored for the key (`Executed`): the value encoded by `codec`, made by the execution.
   */
  readonly execute: (key: KeyHandle | undefined) => Effect.Effect<A | Executed<A>, E | KeyTaken>
  /** One transaction, no upstream: the result is stored in it (see `Idempotency`). */
  readonly atomic?: boolean
  /** The execution claims the key in its record's write-ahead (see `Idempotency`). */
  readonly claimInWriteAhead?: boolean
}

export const makeIdempotent = Effect.gen(function*() {
  const idempotency = yield* Idempotency
  const hash = yield* secretHasher

  /** The run with a key: the key claimed, bound to the request's fingerprint, and its answer. */
  const run = <A, I, E extends ApiError>(options: IdempotentOptions<A, I, E>) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const fingerprint = yield* hash(`${options.operation}\n${JSON.stringify(stable(options.request))}`)
      return yield* idempotency.run(
        { scope: `${options.scope.environment}:${options.scope.merchant.id}`, key: options.key!, fingerprint },
        options.codec,
        options.execute,
        {
          onReplay: Effect.provideService(markReplayed, HttpServerRequest.HttpServerRequest, request),
          atomic: options.atomic,
          claimInWriteAhead: options.claimInWriteAhead
        }
      )
    })

  /** Runs the POST once per key; answers its value (the endpoint's schema encodes it, the first time as on a replay). */
  const value = <A, I, E extends ApiError>(
    options: IdempotentOptions<A, I, E>
  ): Effect.Effect<A, E | ApiErrorOf<KeyCode>, HttpServerRequest.HttpServerRequest> =>
    // Without a key there is nothing to claim, so nothing can find one taken.
    options.key === undefined
      ? options.execute(undefined).pipe(
        Effect.map((result) => result instanceof Executed ? result.value : result),
        Effect.catchTag("KeyTaken", Effect.die)
      )
      : Effect.map(run(options), (answered) => answered.value)

  /**
   * Runs the POST once per key, like `value`; with a key, answers the very bytes the key holds
   * with `status` (the view encoded once, when it was stored, and the same bytes on a replay),
   * rather than encoding the value again through the endpoint's schema. Without a key, the value.
   */
  const respond = <A, I, E extends ApiError>(
    options: IdempotentOptions<A, I, E>,
    status: number
  ): Effect.Effect<A | HttpServerResponse.HttpServerResponse, E | ApiErrorOf<KeyCode>, HttpServerRequest.HttpServerRequest> =>
    options.key === undefined
      ? value(options)
      : Effect.map(run(options), (answered) => HttpServerResponse.text(answered.body, { status, contentType: "application/json" }))

  return { value, respond }
})
