/**
 * `Idempotency-Key` (spec 1.9), exactly once even across crashes:
 *
 * - The first request with a key executes; concurrent retries wait for it (then replay) or, after
 *   `waitForExecution`, get 409 `idempotency_key_in_progress`. The same key with another request
 *   is refused (409 `idempotency_key_reused`).
 * - The execution gets the key as an argument (`KeyHandle`). One that calls an upstream writes
 *   its record ahead (a payment, a refund, a payout) and binds the key to it with `key.bind`, in
 *   the transaction that inserts the record. From then on the key belongs to that record: a retry
 *   after a crash, a timeout or a lapsed lease runs the execution again with that record's id
 *   (`key.resume`), and the execution continues the record instead of starting a second one.
 * - A run that claims its key in the write-ahead (`claimInWriteAhead`) does not claim it first:
 *   `key.bind` inserts the key with its record, one statement fewer for a new key.
 *   A key that exists fails that write-ahead, which wrote nothing, and the run goes the usual way
 *   (claim first, then replay, wait, refuse a reuse or continue); so does an execution that
 *   failed before its write-ahead, so that a replay never answers an error it did not store.
 * - The executor holds the key with a lease that a heartbeat keeps extending while it runs, so a
 *   slow execution is never taken over; only a dead executor's lease lapses. The lease names its
 *   execution (`holder`): one that stalled past it and was taken over can no longer extend, end
 *   or free the new holder's.
 * - An operation that calls no upstream and writes in one transaction (a transfer, a swap, a
 *   refund request) runs `atomic`: its result is stored in its own transaction, so a crash
 *   leaves either nothing (a retry executes) or the stored result (a retry replays).
 * - A success is stored and replayed (with `onReplay`, the HTTP layer's `Idempotent-Replayed:
 *   true`), as the body the run answers with its value (`Answered`): encoded once. An execution
 *   whose last write stored that body itself (a payment left pending:
 *   `PaymentStore.updateCompletingKey`) returns it with its value (`Executed`), and the run does not store it again. Errors are never stored (spec 1.9): an error frees the key and a retry executes
 *   again. An execution that wrote ahead ends its record in a final state before it answers an
 *   error (a failed payment, a payout whose debit was reversed), so that retry starts afresh
 *   with nothing to continue; but an error that leaves the record open (`keepsRecordOpen`: the
 *   provider gave no answer about a charge) keeps the key bound to it, and a retry continues it.
 *   Results are kept 24 hours.
 * - Keys live on real time, whatever clock the request runs on: a sandbox shop's test clock moves
 *   its payments and schedules, never its keys' leases and retention (as Stripe's test clocks
 *   leave idempotency alone), so a retry after an advance replays instead of executing again.
 */
import { Cause, Context, DateTime, Duration, Effect, Exit, Layer, Schema } from "effect"
import { ApiError, apiError, type ApiErrorOf, keepsRecordOpen } from "../ApiError.ts"
import { realNow } from "../clock/RealClock.ts"
import { Ids } from "../Ids.ts"
import * as Metrics from "../Metrics.ts"
import { IdempotencyStore, type KeyCompletion, KeyTaken } from "../ports/IdempotencyStore.ts"
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

/** The key of a request being executed, handed to its execution. */
export interface KeyHandle {
  readonly scope: string
  readonly key: string
  /** The record an earlier execution of this key bound (to continue it), or undefined. */
  readonly resume: string | undefined
  /**
   * Binds the key to the record written ahead, in that record's transaction; claims it there
   * when the run has not claimed it yet (`claimInWriteAhead`: a key that exists fails the
   * transaction with `KeyTaken`, nothing of it written, and the run answers from the key).
   */
  readonly bind: (resourceId: string) => Effect.Effect<void, KeyTaken>
}

/** The response a record's last write may store for the key, in that write (`PaymentStore.updateCompletingKey`). */
export const completionOf = (key: KeyHandle, responseBody: string): KeyCompletion => ({
  scope: key.scope,
  key: key.key,
  responseStatus: 200,
  responseBody
})

/** An execution's value, with the completion its own last write stored for the key (if it did). */
export class Executed<A> {
  constructor(readonly value: A, readonly stored: KeyCompletion | undefined) {}
}

/** What a run answers: the value, and the body the key holds for it (stored now, or replayed). */
export interface Answered<A> {
  readonly value: A
  readonly body: string
  readonly replayed: boolean
}

/** Each codec's JSON encoder, made once (`toCodecJson` builds a new schema on every call). */
const jsonEncoders = new WeakMap<Schema.Codec<any, any>, (value: any) => unknown>()

/** The response body stored for a key: the result encoded by its codec's JSON form. */
export const storedBody = <A, I>(codec: Schema.Codec<A, I>, value: A): string => {
  let encode = jsonEncoders.get(codec)
  if (encode === undefined) jsonEncoders.set(codec, encode = Schema.encodeSync(Schema.toCodecJson(codec)))
  return JSON.stringify(encode(value))
}


export interface IdempotencyOptions {
  /** Runs when a stored outcome is answered again. */
  readonly onReplay?: Effect.Effect<void> | undefined
  /** The execution and the stored result commit in one transaction (operations without an upstream). */
  readonly atomic?: boolean | undefined
  /**
   * The execution claims the key itself, in the write-ahead of its record (`key.bind`), instead of
   * the run claiming it before executing: for an execution that always writes a record ahead
   * before it succeeds (creating a payment).
   */
  readonly claimInWriteAhead?: boolean | undefined
}

/** What a key can answer besides its execution's own errors. */
export type KeyCode = "idempotency_key_reused" | "idempotency_key_in_progress"

/**
 * Runs `execute` once per key; `codec` stores and restores its result as JSON. The execution's
 * own error codes come through as they are typed, with the key's two (`KeyCode`).
 */
export type Run = <A, I, E extends ApiError>(
  request: IdempotentRequest,
  codec: Schema.Codec<A, I>,
  execute: (key: KeyHandle) => Effect.Effect<A | Executed<A>, E | KeyTaken>,
  options?: IdempotencyOptions
) => Effect.Effect<Answered<A>, E | ApiErrorOf<KeyCode>>

export class Idempotency extends Context.Service<Idempotency, {
  /**
   * Runs `execute` once per key; `codec` stores and restores its result as JSON. `execute`
   * receives the id of the record an earlier execution of the same key bound (to continue it),
   * or undefined.
   */
  readonly run: Run
}>()("core/idempotency/Idempotency") {
  static readonly layer = Layer.effect(
    Idempotency,
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const tx = yield* Transactions
      const ids = yield* Ids

      const leaseFrom = (at: DateTime.Utc) => DateTime.add(at, { milliseconds: Duration.toMillis(executionLease) })

      /** A claim made at `at`: the lease and the retention counted from then. */
      const claimAt = (request: IdempotentRequest, holder: string, at: DateTime.Utc) => ({
        scope: request.scope,
        key: request.key,
        requestHash: request.fingerprint,
        holder,
        now: at,
        lockedUntil: leaseFrom(at),
        expiresAt: DateTime.add(at, { hours: retentionHours })
      })

      /** The key held by one execution: what its heartbeat extends. */
      interface Held {
        readonly scope: string
        readonly key: string
        readonly holder: string
      }

      /**
       * The keys this engine is executing. While there are any, one heartbeat extends all their
       * leases every `heartbeatEvery` (a key's first extension comes within that, well inside its
       * lease): an execution costs no fiber and no timer of its own, and an idle engine runs none.
       */
      const running = new Set<Held>()
      const lifetime = yield* Effect.scope
      // The heartbeat runs in the engine's context, not in that of the request that started it
      // (its span, log annotations and key would otherwise outlive it on every extension).
      const engineContext = yield* Effect.context<never>()
      let beating = false
      const extendAll = Effect.gen(function*() {
        const at = yield* realNow
        for (const { holder, key, scope } of running) yield* store.extend(scope, key, holder, leaseFrom(at))
      }).pipe(Effect.catchCause((cause) => Effect.logWarning("idempotency leases not extended", cause)))
      const heartbeat = Effect.gen(function*() {
        while (running.size > 0) {
          yield* Effect.sleep(heartbeatEvery)
          yield* extendAll
        }
        beating = false
      })
      /** Runs `execution` with its key's lease kept alive. */
      const holding = <A, E, R>(held: Held, execution: Effect.Effect<A, E, R>) =>
        Effect.acquireUseRelease(
          Effect.suspend(() => {
            running.add(held)
            if (beating) return Effect.void
            beating = true
            return Effect.asVoid(Effect.forkIn(Effect.provideContext(heartbeat, engineContext), lifetime))
          }),
          () => execution,
          () => Effect.sync(() => void running.delete(held))
        )

      /** A success as the run keeps it: its value, the body encoded once, and whether the key holds it already. */
      interface Done<A> {
        readonly value: A
        readonly body: string
        readonly stored: boolean
      }

      /** The execution with its result made a `Done` (the body its last write stored, or encoded now). */
      const executing = <A, I>(codec: Schema.Codec<A, I>, execution: Effect.Effect<A | Executed<A>, ApiError | KeyTaken>) =>
        Effect.map(execution, (result): Done<A> => {
          const { value, stored } = result instanceof Executed ? result : new Executed(result, undefined)
          return { value, body: stored?.responseBody ?? storedBody(codec, value), stored: stored !== undefined }
        })

      const answered = <A>(done: Done<A>): Answered<A> => ({ value: done.value, body: done.body, replayed: false })

      /**
       * Stores a success (unless the execution's last write did); frees the key after an error;
       * after a defect, an interruption or an error that leaves the record open
       * (`keepsRecordOpen`) ends the lock at once, so that a retry continues what the execution
       * wrote ahead. Each acts only on the key `holder` holds.
       */
      const finish = <A>(request: IdempotentRequest, holder: string) =>
      <E>(exit: Exit.Exit<Done<A>, E>) =>
        Effect.gen(function*() {
          if (exit._tag === "Success") return exit.value.stored ? undefined : yield* store.complete(request.scope, request.key, 200, exit.value.body)
          const failure = exit.cause.reasons.find(Cause.isFailReason)?.error
          const open = failure instanceof ApiError && keepsRecordOpen.has(failure.code)
          if (failure !== undefined && !open) return yield* store.release(request.scope, request.key, holder)
          yield* store.extend(request.scope, request.key, holder, yield* realNow)
        })

      /**
       * One execution that claims the key in its write-ahead. Answers its exit, or undefined when
       * it did not claim the key: the key existed (`KeyTaken`), or the execution failed before it
       * wrote anything ahead. An execution that fails after it reached its write-ahead has claimed
       * the key (the write-ahead fails with nothing else) and frees it like any other.
       */
      const executeClaiming = Effect.fnUntraced(function*<A, I>(
        request: IdempotentRequest,
        codec: Schema.Codec<A, I>,
        execute: (key: KeyHandle) => Effect.Effect<A | Executed<A>, ApiError | KeyTaken>
      ) {
        const holder = yield* ids.secret("", 12)
        let claimed = false
        /** Whether the execution ended without claiming the key: the run then goes the `acquire` way. */
        const unclaimed = (exit: Exit.Exit<Done<A>, ApiError | KeyTaken>) => {
          const failed = Exit.isFailure(exit) ? exit.cause.reasons.find(Cause.isFailReason)?.error : undefined
          return failed instanceof KeyTaken || (failed !== undefined && !claimed)
        }
        const key: KeyHandle = {
          scope: request.scope,
          key: request.key,
          resume: undefined,
          bind: (resourceId) =>
            Effect.flatMap(realNow, (at) => {
              claimed = true
              return store.claim({ ...claimAt(request, holder, at), resourceId })
            })
        }
        const exit = yield* holding({ scope: request.scope, key: request.key, holder }, executing(codec, execute(key))).pipe(
          // Also when the request is interrupted: its lease ends at once, for its retry to continue.
          Effect.onExit((exit) => unclaimed(exit) ? Effect.void : finish<A>(request, holder)(exit)),
          Effect.exit
        )
        if (unclaimed(exit)) return undefined
        if (Exit.isSuccess(exit) && !claimed) {
          return yield* Effect.die(new Error(`An execution run with claimInWriteAhead succeeded without claiming key ${request.key}`))
        }
        return Exit.map(exit as Exit.Exit<Done<A>, ApiError>, answered)
      })

      /** Claims the key before executing: executes, replays, waits for another execution, or refuses. */
      const acquiring = Effect.fnUntraced(function*<A, I>(
        request: IdempotentRequest,
        codec: Schema.Codec<A, I>,
        execute: (key: KeyHandle) => Effect.Effect<A | Executed<A>, ApiError | KeyTaken>,
        options?: IdempotencyOptions
      ): Effect.fn.Return<Answered<A>, ApiError> {
        const atomic = options?.atomic === true
        const holder = yield* ids.secret("", 12)
        const deadline = DateTime.add(yield* realNow, { milliseconds: Duration.toMillis(waitForExecution) })
        while (true) {
          const at = yield* realNow
          const acquired = yield* store.acquire(claimAt(request, holder, at))
          if (acquired._tag === "Acquired") {
            const key: KeyHandle = {
              scope: request.scope,
              key: request.key,
              resume: acquired.resourceId ?? undefined,
              bind: (resourceId) => store.bind(request.scope, request.key, resourceId)
            }
            const execution = executing(codec, execute(key)).pipe(
              // The key is claimed: binding it to a record cannot find it taken.
              Effect.catchTag("KeyTaken", Effect.die)
            )
            // An atomic execution stores its result in its own transaction.
            const stored = atomic
              ? tx.run(Effect.tap(execution, (done) => store.complete(request.scope, request.key, 200, done.body))).pipe(
                Effect.map((done): Done<A> => ({ ...done, stored: true }))
              )
              : execution
            return yield* holding({ scope: request.scope, key: request.key, holder }, stored).pipe(
              Effect.onExit(finish<A>(request, holder)),
              Effect.map(answered)
            )
          }
          const record = acquired.record
          if (record.requestHash !== request.fingerprint) {
            yield* Metrics.count(Metrics.idempotentRequests, { outcome: "conflict" })
            return yield* apiError(
              "idempotency_key_reused",
              "This Idempotency-Key was already used with a different request; use a new key for a new request",
              { key: request.key }
            )
          }
          if (record.state === "completed" && record.responseBody !== null) {
            if (options?.onReplay !== undefined) yield* options.onReplay
            yield* Metrics.count(Metrics.idempotentRequests, { outcome: "replay" })
            const value = yield* Schema.decodeUnknownEffect(Schema.toCodecJson(codec))(JSON.parse(record.responseBody)).pipe(Effect.orDie)
            return { value, body: record.responseBody, replayed: true } satisfies Answered<A>
          }
          if (DateTime.isGreaterThan(at, deadline)) {
            yield* Metrics.count(Metrics.idempotentRequests, { outcome: "in_progress" })
            return yield* apiError("idempotency_key_in_progress", "A request with this Idempotency-Key is still executing; retry shortly", {
              key: request.key
            })
          }
          yield* Effect.sleep(Duration.millis(50))
        }
      })

      /**
       * The key's own round trips (its claim, a replay, a wait for another execution, a refusal),
       * around the execution it guards, are a span (never the key itself: a client's value). A
       * key claimed by the execution's write-ahead makes no round trip of its own: that span would
       * only repeat the execution's, and there is none.
       */
      const run = <A, I>(
        request: IdempotentRequest,
        codec: Schema.Codec<A, I>,
        execute: (key: KeyHandle) => Effect.Effect<A | Executed<A>, ApiError | KeyTaken>,
        options?: IdempotencyOptions
      ): Effect.Effect<Answered<A>, ApiError> => {
        const acquire = () =>
          acquiring(request, codec, execute, options).pipe(
            Effect.withSpan("Idempotency.run", { attributes: { "idempotency.claim_in_write_ahead": options?.claimInWriteAhead === true } })
          )
        return options?.claimInWriteAhead === true && options.atomic !== true
          ? Effect.flatMap(executeClaiming(request, codec, execute), (exit) => exit === undefined ? acquire() : exit)
          : acquire()
      }

      // The internals handle any ApiError; the signature keeps each execution's codes.
      return Idempotency.of({ run: run as Run })
    })
  )
}
