/**
 * The job queue on SQL. A claim leases due rows with `FOR UPDATE SKIP LOCKED`, so replicas share
 * the queue. Due means `run_at <= now` on the real clock, or, for a job on a sandbox shop's test
 * clock, `run_at <= now + that shop's offset`: the first is the plain index range scan it always
 * was; the second only walks the shops whose clock moved (`sandbox_clocks`), each by the index
 * `jobs_scoped_due`.
 */
import { Array as Arr, DateTime, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { type Job, JobStore } from "../../../core/ports/JobStore.ts"
import { date, dateOrNull, utc, utcOrNull } from "./Rows.ts"
import { write } from "./SqlTransactions.ts"

interface JobRow {
  readonly id: string
  readonly kind: string
  readonly payload: unknown
  readonly runAt: Date
  readonly attempts: number
  readonly status: "pending" | "done" | "dead"
  readonly lockedUntil: Date | null
  readonly lastError: string | null
  readonly dedupeKey: string | null
  readonly clockScope: string | null
  readonly traceParent: string | null
  readonly createdAt: Date
}
const toJob = (r: JobRow): Job => ({
  ...r,
  runAt: utc(r.runAt),
  lockedUntil: utcOrNull(r.lockedUntil),
  createdAt: utc(r.createdAt)
})

const byRunAt = (a: Job, b: Job) => DateTime.toEpochMillis(a.runAt) - DateTime.toEpochMillis(b.runAt) || a.id.localeCompare(b.id)

export const SqlJobStore = Layer.effect(
  JobStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const claim: JobStore["Service"]["claim"] = ({ clockScope, kinds, leaseMs, limit, now }) =>
      Effect.gen(function*() {
        if (kinds.length === 0) return []
        const at = date(now)
        const lease = sql`UPDATE jobs SET attempts = attempts + 1, locked_until = ${date(DateTime.add(now, { milliseconds: leaseMs }))}`
        const free = sql`status = 'pending' AND ${sql.in("kind", kinds)} AND (locked_until IS NULL OR locked_until < ${at})`
        const scoped = clockScope === undefined ? sql`TRUE` : sql`clock_scope = ${clockScope}`
        // Due on the real clock (whatever the scope: a test clock is never behind it).
        const onRealClock = yield* sql<JobRow>`${lease} WHERE id IN (
            SELECT id FROM jobs WHERE ${free} AND run_at <= ${at} AND ${scoped}
            ORDER BY run_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED
          ) RETURNING *`
        if (onRealClock.length >= limit) return onRealClock.map(toJob).sort(byRunAt)
        // Due only on a test clock that runs ahead.
        const shops = clockScope === undefined ? sql`TRUE` : sql`sandbox_clocks.shop_id = ${clockScope}`
        const onTestClock = yield* sql<JobRow>`${lease} WHERE id IN (
            SELECT jobs.id FROM sandbox_clocks JOIN jobs ON jobs.clock_scope = sandbox_clocks.shop_id
            WHERE ${shops} AND ${free} AND run_at > ${at}
              AND run_at <= CAST(${at} AS timestamptz) + sandbox_clocks.offset_ms * INTERVAL '1 millisecond'
            ORDER BY run_at, jobs.id LIMIT ${limit - onRealClock.length} FOR UPDATE OF jobs SKIP LOCKED
          ) RETURNING *`
        return [...onRealClock.map(toJob).sort(byRunAt), ...onTestClock.map(toJob).sort(byRunAt)]
      }).pipe(Effect.orDie)

    /** One multi-row insert; a job whose id or dedupe key exists is skipped. */
    const insert = (list: Arr.NonEmptyReadonlyArray<Job>) =>
      sql<{ readonly id: string }>`
        INSERT INTO jobs ${
        sql.insert(Arr.map(list, (job) => ({
          ...job,
          traceParent: job.traceParent ?? null,
          payload: JSON.stringify(job.payload),
          runAt: date(job.runAt),
          lockedUntil: dateOrNull(job.lockedUntil),
          createdAt: date(job.createdAt)
        })))
      }
        ON CONFLICT DO NOTHING RETURNING id`
    return JobStore.of({
      enqueue: (job) => insert([job] as const).pipe(Effect.map((added) => added.length === 1), Effect.orDie),
      enqueueAll: (list) => Arr.isReadonlyArrayNonEmpty(list) ? write(insert(list)).pipe(Effect.orDie) : Effect.void,
      find: (id) =>
        sql<JobRow>`SELECT * FROM jobs WHERE id = ${id}`.pipe(
          Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(toJob(rows[0]!))),
          Effect.orDie
        ),
      claim,
      countDue: ({ clockScope, kinds, now }) =>
        kinds.length === 0 ? Effect.succeed(0) : sql<{ readonly n: number }>`
          SELECT count(*)::int AS n FROM jobs LEFT JOIN sandbox_clocks ON sandbox_clocks.shop_id = jobs.clock_scope
          WHERE clock_scope = ${clockScope} AND status = 'pending' AND ${sql.in("kind", kinds)}
            AND run_at <= CAST(${date(now)} AS timestamptz) + COALESCE(offset_ms, 0) * INTERVAL '1 millisecond'`.pipe(
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie
        ),
      backlog: (now) =>
        sql<{ readonly kind: string; readonly due: number; readonly oldestDueAt: Date | null; readonly dead: number }>`
          SELECT kind,
            count(*) FILTER (WHERE status = 'pending' AND run_at <= ${date(now)})::int AS due,
            min(run_at) FILTER (WHERE status = 'pending' AND run_at <= ${date(now)}) AS oldest_due_at,
            count(*) FILTER (WHERE status = 'dead')::int AS dead
          FROM jobs WHERE status = 'dead' OR (status = 'pending' AND run_at <= ${date(now)})
          GROUP BY kind`.pipe(
          Effect.map((rows) => rows.map((r) => ({ kind: r.kind, due: r.due, oldestDueAt: utcOrNull(r.oldestDueAt), dead: r.dead }))),
          Effect.orDie
        ),
      complete: (id) => sql`UPDATE jobs SET status = 'done', locked_until = NULL WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      retry: (id, runAt, error) =>
        sql`UPDATE jobs SET run_at = ${date(runAt)}, locked_until = NULL, last_error = ${error} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      kill: (id, error) =>
        sql`UPDATE jobs SET status = 'dead', locked_until = NULL, last_error = ${error} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    })
  })
)
