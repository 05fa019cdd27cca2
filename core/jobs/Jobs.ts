/**
 * Background work on the job store: enqueue from any transaction, and a worker that claims due
 * jobs with a lease and runs the handler registered for each kind. Any number of workers (host
 * replicas) can share one store: a claimed job is invisible to the others until its lease lapses,
 * so a worker that dies mid-job loses nothing. Handlers must be idempotent (at-least-once).
 *
 * Failures retry with exponential backoff (30 s, 1 min, 2 min, ... up to 1 hour) and give up
 * after `maxAttempts`, leaving the job `dead` with its last error.
 *
 * Sandbox time: a job is enqueued on the clock of its caller (`CurrentClockScope`, set with the
 * shop's shifted clock by `ShopClocks`), so `runAt` is in that shop's time, the store claims it
 * once the shop's clock reaches it, and it runs (and retries) on that clock. Callers change
 * nothing.
 */
import { Cause, Context, DateTime, Duration, Effect, Layer, Schedule } from "effect"
import { realNow } from "../clock/RealClock.ts"
import { CurrentClockScope, ShopClocks } from "../clock/ShopClocks.ts"
import { Ids } from "../Ids.ts"
import { ownTrace, traceParentOf } from "../Tracing.ts"
import * as Metrics from "../Metrics.ts"
import { type Job, JobStore } from "../ports/JobStore.ts"

export type JobHandler = (payload: unknown) => Effect.Effect<void, unknown>

export interface EnqueueOptions {
  /** When to run; default now. */
  readonly runAt?: DateTime.Utc | undefined
  /** At most one job per key, ever. */
  readonly dedupeKey?: string | undefined
}

/** A job to enqueue, with its options. */
export interface NewJob extends EnqueueOptions {
  readonly kind: string
  readonly payload: unknown
}

export const maxAttempts = 10
export const leaseMs = 60_000

const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000)

export class Jobs extends Context.Service<Jobs, {
  readonly enqueue: (kind: string, payload: unknown, options?: EnqueueOptions) => Effect.Effect<boolean>
  /**
   * Enqueues several jobs in one write, skipping those whose dedupe key exists; a write that can
   * be part of `Transactions.batch`.
   */
  readonly enqueueAll: (jobs: ReadonlyArray<NewJob>) => Effect.Effect<void>
  /** Registers the handler of a kind (at layer construction). */
  readonly handle: (kind: string, handler: JobHandler) => Effect.Effect<void>
  /** Claims and runs one batch of due jobs; answers how many ran. */
  readonly runDue: Effect.Effect<number>
  /** Claims and runs one batch of the due jobs of one clock scope (a sandbox shop), no tick tasks. */
  readonly runDueOn: (clockScope: string) => Effect.Effect<number>
  /** How many jobs of one clock scope are due, including those another worker is running. */
  readonly countDueOn: (clockScope: string) => Effect.Effect<number>
  /** How many jobs of one clock scope will be due `aheadMs` from now, but those of `exceptKinds`. */
  readonly countDueAhead: (clockScope: string, aheadMs: number, exceptKinds: ReadonlyArray<string>) => Effect.Effect<number>
  /** Tasks to run on every worker tick before claiming (e.g. enqueue the periodic reconcile). */
  readonly onTick: (task: Effect.Effect<void>) => Effect.Effect<void>
}>()("core/jobs/Jobs") {
  static readonly layer = Layer.effect(
    Jobs,
    Effect.gen(function*() {
      const store = yield* JobStore
      const ids = yield* Ids
      const clocks = yield* ShopClocks
      const handlers = new Map<string, JobHandler>()
      const tickTasks: Array<Effect.Effect<void>> = []

      /** What the jobs enqueued together share: when, in which clock scope, and the span that caused them. */
      const context = Effect.gen(function*() {
        const createdAt = yield* DateTime.now
        const span = yield* Effect.option(Effect.currentSpan)
        return { createdAt, clockScope: yield* CurrentClockScope, traceParent: traceParentOf(span) }
      })
      const jobs = Effect.fnUntraced(function*(list: ReadonlyArray<NewJob>) {
        const { clockScope, createdAt, traceParent } = yield* context
        const made: Array<Job> = []
        for (const { dedupeKey, kind, payload, runAt } of list) {
          made.push({
            id: yield* ids.next("job"),
            kind,
            payload,
            runAt: runAt ?? createdAt,
            attempts: 0,
            status: "pending",
            lockedUntil: null,
            lastError: null,
            dedupeKey: dedupeKey ?? null,
            clockScope,
            traceParent,
            createdAt
          })
        }
        return made
      })
      const enqueue = Effect.fn("Jobs.enqueue")(function*(kind: string, payload: unknown, options?: EnqueueOptions) {
        return yield* store.enqueue((yield* jobs([{ kind, payload, ...options }]))[0]!)
      })
      // Untraced: it runs inside the caller's unit (a payment's write-ahead), whose span the jobs
      // link to; a span of its own only queued a write (and cost every create a span).
      const enqueueAll = (list: ReadonlyArray<NewJob>) => Effect.flatMap(jobs(list), store.enqueueAll)

      const run = (job: Job) => {
        const handler = handlers.get(job.kind)!
        return handler(job.payload).pipe(
          // A trace of its own, linked to the span that enqueued it (the request that caused it).
          ownTrace(`Job ${job.kind}`, job.traceParent, { "job.kind": job.kind, "job.attempt": job.attempts }),
          Effect.catchCause((cause) => Effect.fail(Cause.pretty(cause))),
          Effect.matchEffect({
            onSuccess: () => Effect.andThen(store.complete(job.id), Metrics.count(Metrics.jobsRun, { kind: job.kind, outcome: "done" })),
            onFailure: (error) =>
              Effect.gen(function*() {
                yield* Effect.logWarning(`job ${job.kind} ${job.id} failed (attempt ${job.attempts})`, error)
                const dead = job.attempts >= maxAttempts
                yield* Metrics.count(Metrics.jobsRun, { kind: job.kind, outcome: dead ? "dead" : "retry" })
                if (dead) return yield* store.kill(job.id, error)
                const retryAt = DateTime.add(yield* DateTime.now, { milliseconds: backoffMs(job.attempts) })
                yield* store.retry(job.id, retryAt, error)
              })
          }),
          (effect) => clocks.onScope(job.clockScope, effect)
        )
      }

      const runBatch = Effect.fnUntraced(function*(clockScope: string | undefined) {
        const claimed = yield* store.claim({ kinds: [...handlers.keys()], now: yield* realNow, leaseMs, limit: 20, clockScope })
        yield* Effect.forEach(claimed, run, { concurrency: 4, discard: true })
        return claimed.length
      })

      const runDue = Effect.gen(function*() {
        for (const task of tickTasks) yield* task
        return yield* runBatch(undefined)
      }).pipe(Effect.withSpan("Jobs.runDue"))

      return Jobs.of({
        enqueue,
        enqueueAll,
        handle: (kind, handler) => Effect.sync(() => void handlers.set(kind, handler)),
        runDue,
        runDueOn: (clockScope) => runBatch(clockScope).pipe(Effect.withSpan("Jobs.runDueOn")),
        countDueOn: (clockScope) => Effect.flatMap(realNow, (now) => store.countDue({ kinds: [...handlers.keys()], now, clockScope })),
        countDueAhead: (clockScope, aheadMs, exceptKinds) =>
          Effect.flatMap(realNow, (now) =>
            store.countDue({
              kinds: [...handlers.keys()].filter((k) => !exceptKinds.includes(k)),
              now: DateTime.add(now, { milliseconds: aheadMs }),
              clockScope
            })),
        onTick: (task) => Effect.sync(() => void tickTasks.push(task))
      })
    })
  )

  /** A scoped worker loop: runs due jobs every `every` until the scope closes. */
  static readonly worker = (every: Duration.Input) =>
    Layer.effectDiscard(Effect.gen(function*() {
      const jobs = yield* Jobs
      yield* jobs.runDue.pipe(
        Effect.catchCause((cause) => Effect.logError("job worker tick failed", cause)),
        Effect.repeat(Schedule.spaced(Duration.fromInputUnsafe(every))),
        Effect.forkScoped
      )
    }))
}
