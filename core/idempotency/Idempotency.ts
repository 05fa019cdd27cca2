/**
 * `Idempotency-Key` (spec 1.9), exactly once even across crashes:
 *
 * - The first request with a key executes; concurrent retries wait for it (then replay) or, after
 *   `waitForExecution`, get 409 `idempotency_key_in_progress`. The same key with another request
 *   is refused (409 `idempotency_key_reused`).
 * - An execution that calls an upstream writes its record ahead (a payment, a refund, a payout)
 *   and binds the key to it with `bind`, in the transaction that inserts the record. From then
 *   on the key belongs to that record: a retry after a crash, a timeout or a lapsed lease runs the
 *   execution again with that record's id (`resume`), and the execution continues the record
 *   instead of starting a second one.
 * - The executor holds the key with a lease that a heartbeat keeps extending while it runs, so a
 *   slow execution is never taken over; only a dead executor's lease lapses.
 * - An operation that calls no upstream and writes in one transaction (a transfer, a swap, a
 *   refund request) runs `atomic`: its result is stored in its own transaction, so a crash
 *   leaves either nothing (a retry executes) or the stored result (a retry replays).
 * - A success is stored and replayed (with `onReplay`, the HTTP layer's `Idempotent-Replayed:
 *   true`). Errors are never stored (spec 1.9): an error frees the key and a retry executes
 *   again. An execution that wrote ahead ends its record in a final state before it answers an
 *   error (a failed payment, a payout whose debit was reversed), so that retry starts afresh
 *   with nothing to continue. Results are kept 24 hours.
 */
import { Cause, Context, DateTime, Duration, Effect, type Exit, Layer, Schema } from "effect"
import { type ApiError, apiError } from "../ApiError.ts"
import { IdempotencyStore } from "../ports/IdempotencyStore.ts"
import { Transactions } from "../ports/Transactions.ts"

export const retentionHours = 24
/** How long an executor holds a key without a heartbeat before a retry may take over (crash recovery). */
export const executionLease = Duration.seconds(15)
/** How often a running execution extends its lease. */
export const heartbeatEvery = Duration.seconds(5)
/** How long a concurrent retry waits for the first execution before answering 409. */
export const waitForExecution = Duration.seconds(20)

export interface IdempotentRequest {
  /** Environment and credential owner: keys of different merchants never meet. */
  readonly scope: string
  readonly key: string
  /** Fingerprint of the request (method, path, body): a key is bound to one request. */
  readonly fingerprint: string
}

/** The key of a request being executed. */
export interface KeyInExecution {
  readonly scope: string
  readonly key: string
  /**
   * Tells the run that the execution's last write stored the response itself
   * (`PaymentStore.update` with a `KeyCompletion`), so that the run does not store it again.
   */
  readonly storedInWrite: () => void
}

/** The key of the request being executed, for `bind`; none outside an idempotent execution. */
export const CurrentIdempotencyKey = Context.Reference<KeyInExecution | undefined>(
  "core/idempotency/CurrentIdempotencyKey",
  { defaultValue: () => undefined }
)

/** The response body stored for a key: the result encoded by its codec's JSON form. */
export const storedBody = <A, I>(codec: Schema.Codec<A, I>, value: A): string =>
  JSON.stringify(Schema.encodeSync(Schema.toCodecJson(codec))(value))


export interface IdempotencyOptions {
  /** Runs when a stored outcome is answered again. */
  readonly onReplay?: Effect.Effect<void> | undefined
  /** The execution and the stored result commit in one transaction (operations without an upstream). */
  readonly atomic?: boolean | undefined
}

export class Idempotency extends Context.Service<Idempotency, {
  /**
   * Runs `execute` once per key; `codec` stores and restores its result as JSON. `execute`
   * receives the id of the record an earlier execution of the same key bound (to continue it),
   * or undefined.
   */
  readonly run: <A, I>(
    request: IdempotentRequest,
    codec: Schema.Codec<A, I>,
    execute: (resume: string | undefined) => Effect.Effect<A, ApiError>,
    options?: IdempotencyOptions
  ) => Effect.Effect<A, ApiError>
  /**
   * Binds the current request's key (if any) to the record written ahead; run it inside the
   * transaction that inserts the record.
   */
  readonly bind: (resourceId: string) => Effect.Effect<void>
}>()("core/idempotency/Idempotency") {
  static readonly layer = Layer.effect(
    Idempotency,
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const tx = yield* Transactions

      const bind = (resourceId: string) =>
        Effect.gen(function*() {
          const current = yield* CurrentIdempotencyKey
          if (current !== undefined) yield* store.bind(current.scope, current.key, resourceId)
        })

      const leaseFrom = (at: DateTime.Utc) => DateTime.add(at, { milliseconds: Duration.toMillis(executionLease) })

      /**
       * The keys this engine is executing. While there are any, one heartbeat extends all their
       * leases every `heartbeatEvery` (a key's first extension comes within that, well inside its
       * lease): an execution costs no fiber and no timer of its own, and an idle engine runs none.
       */
      const running = new Set<{ readonly scope: string; readonly key: string }>()
      const lifetime = yield* Effect.scope
      // The heartbeat runs in the engine's context, not in that of the request that started it
      // (its span, log annotations and key would otherwise outlive it on every extension).
      const engineContext = yield* Effect.context<never>()
      let beating = false
      const extendAll = Effect.gen(function*() {
        const at = yield* DateTime.now
        for (const { key, scope } of running) yield* store.extend(scope, key, leaseFrom(at))
      }).pipe(Effect.catchCause((cause) => Effect.logWarning("idempotency leases not extended", cause)))
      const heartbeat = Effect.gen(function*() {
        while (running.size > 0) {
          yield* Effect.sleep(heartbeatEvery)
          yield* extendAll
        }
        beating = false
      })
      const hold = (held: { readonly scope: string; readonly key: string }) =>
        Effect.suspend(() => {
          running.add(held)
          if (beating) return Effect.void
          beating = true
          return Effect.asVoid(Effect.forkIn(Effect.provideContext(heartbeat, engineContext), lifetime))
        })

      const complete = <A, I>(request: IdempotentRequest, codec: Schema.Codec<A, I>, value: A) =>
        Effect.flatMap(Effect.sync(() => storedBody(codec, value)), (body) => store.complete(request.scope, request.key, 200, body))

      /**
       * Stores a success (unless the execution's last write did); frees the key after an error;
       * after a defect or an interruption ends the lock at once, so that a retry continues what
       * the execution wrote ahead.
       */
      const finish = <A, I>(request: IdempotentRequest, codec: Schema.Codec<A, I>, stored: () => boolean) => (exit: Exit.Exit<A, ApiError>) =>
        Effect.gen(function*() {
          if (exit._tag === "Success") return stored() ? undefined : yield* complete(request, codec, exit.value)
          if (exit.cause.reasons.some(Cause.isFailReason)) return yield* store.release(request.scope, request.key)
          yield* store.extend(request.scope, request.key, yield* DateTime.now)
        })

      const run = <A, I>(
        request: IdempotentRequest,
        codec: Schema.Codec<A, I>,
        execute: (resume: string | undefined) => Effect.Effect<A, ApiError>,
        options?: IdempotencyOptions
      ) =>
        Effect.gen(function*() {
          const atomic = options?.atomic === true
          const deadline = DateTime.add(yield* DateTime.now, { milliseconds: Duration.toMillis(waitForExecution) })
          while (true) {
            const at = yield* DateTime.now
            const claim = yield* store.acquire({
              scope: request.scope,
              key: request.key,
              requestHash: request.fingerprint,
              now: at,
              lockedUntil: leaseFrom(at),
              expiresAt: DateTime.add(at, { hours: retentionHours })
            })
            if (claim._tag === "Acquired") {
              // An atomic execution stores its result in its own transaction; another may store it in its last write.
              let storedInWrite = false
              const execution = execute(claim.resourceId ?? undefined)
              const held = { scope: request.scope, key: request.key }
              return yield* Effect.acquireUseRelease(
                hold(held),
                () => atomic ? tx.run(Effect.tap(execution, (value) => complete(request, codec, value))) : execution,
                () => Effect.sync(() => void running.delete(held))
              ).pipe(
                Effect.provideService(CurrentIdempotencyKey, {
                  scope: request.scope,
                  key: request.key,
                  storedInWrite: () => void (storedInWrite = true)
                }),
                Effect.onExit(finish(request, codec, () => atomic || storedInWrite))
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
              if (options?.onReplay !== undefined) yield* options.onReplay
              return yield* Schema.decodeUnknownEffect(Schema.toCodecJson(codec))(JSON.parse(record.responseBody)).pipe(Effect.orDie)
            }
            if (DateTime.isGreaterThan(at, deadline)) {
              return yield* apiError("idempotency_key_in_progress", "A request with this Idempotency-Key is still executing; retry shortly", {
                key: request.key
              })
            }
            yield* Effect.sleep(Duration.millis(50))
          }
        })

      return Idempotency.of({ run, bind })
    })
  )
}
