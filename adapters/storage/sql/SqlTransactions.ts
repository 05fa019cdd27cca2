/**
 * Transactions on the SQL store. `run` is a database transaction. `batch` queues the writes of
 * an effect that reads nothing (`write`) and sends them as one statement, each write a
 * data-modifying `WITH` part: one statement is atomic on its own, so they commit together or not
 * at all, in one round trip instead of BEGIN, one per write and COMMIT. Inside the batch the
 * client's connection refuses every statement, so a read or a write that was not queued is a
 * defect rather than a statement outside the unit.
 */
import { Context, Effect, Layer, Option, Stream } from "effect"
import { SqlClient, type SqlConnection, type SqlError, type Statement } from "effect/sql"
import { Transactions } from "../../../core/ports/Transactions.ts"

/**
 * What a failed write means to its caller: an expected failure (a key that exists) the unit fails
 * with, or undefined for a database failure.
 */
type Refusal<E> = (error: SqlError.SqlError) => E | undefined

interface Queued {
  readonly statement: Statement.Statement<unknown>
  readonly refusal: Refusal<unknown> | undefined
}

/** The writes queued by the running `batch`; none outside one. */
const WriteBatch = Context.Reference<Array<Queued> | undefined>(
  "adapters/storage/sql/WriteBatch",
  { defaultValue: () => undefined }
)

/**
 * Runs a write whose answer the caller does not read: at once, or queued when a `batch` is
 * running. A store method that can be part of a write-ahead writes through this. `refusal` names
 * the failures the write expects (a unique key taken): the unit fails with them, wherever the
 * statement runs (at once, or as the batch's one statement).
 */
export const write = <E = never>(
  statement: Statement.Statement<unknown>,
  refusal?: Refusal<E>
): Effect.Effect<void, E | SqlError.SqlError> =>
  Effect.flatMap(WriteBatch, (queued) =>
    queued === undefined
      ? Effect.asVoid(statement).pipe(Effect.catchTag("SqlError", (error) => Effect.fail(refusal?.(error) ?? error)))
      : Effect.sync(() => void queued.push({ statement, refusal })))

const refused = () => new Error("A statement that is not a queued write ran inside Transactions.batch")
const refusing: SqlConnection.Connection = {
  execute: () => Effect.die(refused()),
  executeRaw: () => Effect.die(refused()),
  executeStream: () => Stream.die(refused()),
  executeValues: () => Effect.die(refused()),
  executeValuesUnprepared: () => Effect.die(refused()),
  executeUnprepared: () => Effect.die(refused())
}

export const SqlTransactions = Layer.effect(
  Transactions,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const run = <A, E, R>(effect: Effect.Effect<A, E, R>) => sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die))

    /**
     * The queued writes as one statement. A failure one of them expects is the unit's (its type
     * is in the batch's effect, whose write declared it); any other is a defect.
     */
    const flush = (queued: ReadonlyArray<Queued>) =>
      queued.length === 0 ? Effect.void : (queued.length === 1
        ? queued[0]!.statement
        : sql`WITH ${sql.join(", ", false)(queued.map((q, i) => sql`${sql.literal(`w${i}`)} AS (${q.statement})`))} SELECT 1`).pipe(
          Effect.asVoid,
          Effect.catchTag("SqlError", (error) => {
            for (const { refusal } of queued) {
              const refused = refusal?.(error)
              if (refused !== undefined) return Effect.fail(refused)
            }
            return Effect.die(error)
          })
        )

    const batch = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.flatMap(Effect.serviceOption(sql.transactionService), (open) => {
        if (Option.isSome(open)) return effect
        const queued: Array<Queued> = []
        return effect.pipe(
          Effect.provideService(WriteBatch, queued),
          Effect.provideService(sql.transactionService, [refusing, 0]),
          Effect.tap(() => flush(queued) as Effect.Effect<void, E>)
        )
      })

    return Transactions.of({ run, batch })
  })
)
