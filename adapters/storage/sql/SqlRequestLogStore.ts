/**
 * The request log on SQL (`request_log`): the lines recorded meanwhile are written in one
 * statement every `flushEvery` (and at shutdown), and each shop written to is trimmed to its
 * newest `requestLogSize` in the same flush. A read adds this replica's lines not written yet.
 */
import { Array as Arr, Duration, Effect, Layer, Schedule, Semaphore } from "effect"
import { SqlClient } from "effect/sql"
import { type LoggedRequest, requestLogSize, RequestLogStore } from "../../../core/ports/RequestLogStore.ts"

const flushEvery = Duration.millis(100)

/** A row as the driver answers it: `at_ms` is a bigint column, which may come back as text. */
type Row = Omit<LoggedRequest, "atMs"> & { readonly atMs: string | number }

export const SqlRequestLogStore = Layer.effect(
  RequestLogStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    let unwritten: Array<LoggedRequest> = []
    const flushing = yield* Semaphore.make(1)
    const write = (batch: Arr.NonEmptyReadonlyArray<LoggedRequest>) =>
      Effect.gen(function*() {
        yield* sql`INSERT INTO request_log ${sql.insert(Arr.map(batch, (r) => ({ ...r, durationMs: Math.round(r.durationMs) })))}`
        const shops = new Map(batch.map((r) => [`${r.environment}:${r.shopId}`, r] as const))
        for (const r of shops.values()) {
          yield* sql`
            DELETE FROM request_log WHERE environment = ${r.environment} AND shop_id = ${r.shopId} AND id < (
              SELECT id FROM request_log WHERE environment = ${r.environment} AND shop_id = ${r.shopId}
              ORDER BY id DESC OFFSET ${requestLogSize - 1} LIMIT 1)`
        }
      })
    // The lines being written: still this replica's to answer until the write ends.
    let writing: ReadonlyArray<LoggedRequest> = []
    const flush = flushing.withPermits(1)(Effect.suspend(() => {
      // Taken whole: a line recorded while the batch is written goes to the next one. (The batch
      // was once the queue itself, emptied by its length after the write: the lines pushed
      // during a write were dropped with it.)
      const batch = unwritten
      if (!Arr.isReadonlyArrayNonEmpty(batch)) return Effect.void
      unwritten = []
      writing = batch
      return write(batch).pipe(
        Effect.ensuring(Effect.sync(() => void (writing = []))),
        Effect.catchCause((cause) => Effect.logWarning("request log lines not recorded", cause))
      )
    }))
    yield* flush.pipe(Effect.repeat(Schedule.spaced(flushEvery)), Effect.forkScoped)
    yield* Effect.addFinalizer(() => flush)
    return RequestLogStore.of({
      record: (request) => void unwritten.push(request),
      recent: (environment, shopId) =>
        Effect.suspend(() => {
          const local = [...writing, ...unwritten].filter((r) => r.environment === environment && r.shopId === shopId)
          return sql<Row>`
            SELECT environment, shop_id, request_id, method, path, status, duration_ms, at_ms FROM request_log
            WHERE environment = ${environment} AND shop_id = ${shopId} ORDER BY id DESC LIMIT ${requestLogSize}`.pipe(
            Effect.map((rows) => {
              const read = rows.map((r): LoggedRequest => ({ ...r, atMs: Number(r.atMs) }))
              const seen = new Set(read.map((r) => r.requestId))
              return [...local.filter((r) => !seen.has(r.requestId)).reverse(), ...read].slice(0, requestLogSize)
            }),
            Effect.orDie
          )
        })
    })
  })
)
