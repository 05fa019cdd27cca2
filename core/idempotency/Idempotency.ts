/**
 * `Idempotency-Key` (spec 1.9): the first request with a key executes; a retry with the same key
 * and the same request replays the stored result without executing again, even when many
 * arrive at once (they wait for the first to finish); the same key with another request is
 * refused (409 idempotency_key_reused). Errors are never stored: after an error the key is
 * free and a retry executes again. Results are kept 24 hours.
 */
import { Context, DateTime, Duration, Effect, Layer, Schema } from "effect"
import { type ApiError, apiError } from "../ApiError.ts"
import { IdempotencyStore } from "../ports/IdempotencyStore.ts"

export const retentionHours = 24
/** How long an executor holds a key before another request may take over (crash recovery). */
export const executionLease = Duration.seconds(60)
/** How long a concurrent retry waits for the first execution before answering 409. */
export const waitForExecution = Duration.seconds(20)

export interface IdempotentRequest {
  /** Environment and credential owner: keys of different merchants never meet. */
  readonly scope: string
  readonly key: string
  /** Fingerprint of the request (method, path, body): a key is bound to one request. */
  readonly fingerprint: string
}

export class Idempotency extends Context.Service<Idempotency, {
  /**
   * Runs `execute` once per key; `codec` stores and restores its result as JSON.
   */
  readonly run: <A, I>(
    request: IdempotentRequest,
    codec: Schema.Codec<A, I>,
    execute: Effect.Effect<A, ApiError>
  ) => Effect.Effect<A, ApiError>
}>()("core/idempotency/Idempotency") {
  static readonly layer = Layer.effect(
    Idempotency,
    Effect.gen(function*() {
      const store = yield* IdempotencyStore

      const run = <A, I>(request: IdempotentRequest, codec: Schema.Codec<A, I>, execute: Effect.Effect<A, ApiError>) =>
        Effect.gen(function*() {
          const json = Schema.toCodecJson(codec)
          const deadline = DateTime.add(yield* DateTime.now, { milliseconds: Duration.toMillis(waitForExecution) })
          while (true) {
            const at = yield* DateTime.now
            const claim = yield* store.acquire({
              scope: request.scope,
              key: request.key,
              requestHash: request.fingerprint,
              now: at,
              lockedUntil: DateTime.add(at, { milliseconds: Duration.toMillis(executionLease) }),
              expiresAt: DateTime.add(at, { hours: retentionHours })
            })
            if (claim._tag === "Acquired") {
              return yield* execute.pipe(
                Effect.onExit((exit) =>
                  exit._tag === "Success"
                    ? Effect.flatMap(
                      Schema.encodeEffect(json)(exit.value).pipe(Effect.orDie),
                      (body) => store.complete(request.scope, request.key, 200, JSON.stringify(body))
                    )
                    : store.release(request.scope, request.key)
                )
              )
            }
            const record = claim.record
            if (record.requestHash !== request.fingerprint) {
              return yield* apiError(
                "idempotency_key_reused",
                "This Idempotency-Key was already used with a different request; use a new key for a new request",
                { key: request.key }
              )
            }
            if (record.state === "completed" && record.responseBody !== null) {
              return yield* Schema.decodeUnknownEffect(json)(JSON.parse(record.responseBody)).pipe(Effect.orDie)
            }
            if (DateTime.isGreaterThan(at, deadline)) {
              return yield* apiError("idempotency_key_in_progress", "A request with this Idempotency-Key is still executing; retry shortly", {
                key: request.key
              })
            }
            yield* Effect.sleep(Duration.millis(50))
          }
        })

      return Idempotency.of({ run })
    })
  )
}
