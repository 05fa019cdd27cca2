import { Context, type DateTime, type Effect, type Option } from "effect"

/**
 * A unit of background work (expiry, reconcile, settlement, delivery...) stored in the database
 * and claimed with a lease, so any number of host replicas can share the queue: a claimed job is
 * invisible to others until its lease lapses, and a worker that dies loses nothing.
 */
export interface Job {
  readonly id: string
  readonly kind: string
  readonly payload: unknown
  readonly runAt: DateTime.Utc
  readonly attempts: number
  readonly status: "pending" | "done" | "dead"
  readonly lockedUntil: DateTime.Utc | null
  readonly lastError: string | null
  /** At most one job per dedupe key, ever (e.g. `expire:TXN-...`). */
  readonly dedupeKey: string | null
  /**
   * The sandbox shop whose test clock the job runs on (`SandboxClockStore`), or null for the real
   * clock: its `runAt` is then on that shop's time, and it is due once the shop's clock reaches it.
   */
  readonly clockScope: string | null
  /**
   * The W3C `traceparent` of the span that enqueued it (a request, another job), so that the job's
   * own trace links back to what caused it; null when there was none.
   */
  readonly traceParent?: string | null | undefined
  readonly createdAt: DateTime.Utc
}

export class JobStore extends Context.Service<JobStore, {
  /** Adds a job; false when a job with the same dedupe key exists. */
  readonly enqueue: (job: Job) => Effect.Effect<boolean>
  /**
   * Adds several jobs at once (one statement on SQL), skipping those whose dedupe key exists. A
   * write that can be part of `Transactions.batch`.
   */
  readonly enqueueAll: (jobs: ReadonlyArray<Job>) => Effect.Effect<void>
  readonly find: (id: string) => Effect.Effect<Option.Option<Job>>
  /**
   * Leases up to `limit` due jobs of the given kinds until `now + leaseMs` (real time), counting
   * an attempt on each. A job is due when its `runAt` is at or before `now` plus the offset of its
   * clock scope (0 for none); jobs due on the real clock come first, each group oldest `runAt`
   * first. With `clockScope`, only that scope's jobs. Two concurrent claims never return the same
   * job.
   */
  readonly claim: (options: {
    readonly kinds: ReadonlyArray<string>
    readonly now: DateTime.Utc
    readonly leaseMs: number
    readonly limit: number
    readonly clockScope?: string | undefined
  }) => Effect.Effect<ReadonlyArray<Job>>
  /**
   * How many pending jobs of the given kinds in `clockScope` are due at `now` on its clock, leased
   * or not (work a test clock's advance waits for).
   */
  readonly countDue: (options: {
    readonly kinds: ReadonlyArray<string>
    readonly now: DateTime.Utc
    readonly clockScope: string
  }) => Effect.Effect<number>
  /**
   * The queue as an operator watches it: per kind, the pending jobs due at `now` on the real
   * clock and the oldest one's `runAt` (its lag), and the dead jobs (for the metrics).
   */
  readonly backlog: (now: DateTime.Utc) => Effect.Effect<ReadonlyArray<{
    readonly kind: string
    readonly due: number
    readonly oldestDueAt: DateTime.Utc | null
    readonly dead: number
  }>>
  readonly complete: (id: string) => Effect.Effect<void>
  /** Puts a job back to run at `runAt`, recording the error. */
  readonly retry: (id: string, runAt: DateTime.Utc, error: string) => Effect.Effect<void>
  /** Gives up on a job (dead letter), recording the error. */
  readonly kill: (id: string, error: string) => Effect.Effect<void>
}>()("core/ports/JobStore") {}
