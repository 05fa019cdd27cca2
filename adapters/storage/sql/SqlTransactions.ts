/**
 * Transactions on the SQL store. `run` is a database transaction. `batch` queues the writes of
 * an effect that reads nothing (`write`) and sends them as one statement, each write a
 * data-modifying `WITH` part: one statement is atomic on its own, so they commit together or not
 * at all, in one round trip instead of BEGIN, one per write and COMMIT. Inside the batch the
 * client's connection refuses every statement, so a read or a write that was not queued is a
 * defect rather than a statement outside the unit.
 */
import { Context, Effect, Layer, Option, Stream } from "effect"
import { SqlClient, type SqlConnection, type Statement } from "effect/sql"
import { Transactions } from "../../../core/ports/Transactions.ts"

/** The writes queued by the running `batch`; none outside one. */
const WriteBatch = Context.Reference<Array<Statement.Statement<unknown>> | undefined>(
  "adapters/storage/sql/WriteBatch",
  { defaultValue: () => undefined }
)

/**
 * Runs a write whose answer the caller does not read: at once, or queued when a `batch` is
 * running. A store method that can be part of a write-ahead writes through this.
 */
export const write = (statement: Statement.Statement<unknown>): Effect.Effect<void, unknown> =>
  Effect.flatMap(WriteBatch, (queued) => queued === undefined ? Effect.asVoid(statement) : Effect.sync(() => void queued.push(statement)))

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

    /** The queued writes as one statement. */
    const flush = (queued: ReadonlyArray<Statement.Statement<unknown>>) =>
      queued.length === 0 ? Effect.void : Effect.orDie(
        queued.length === 1
          ? queued[0]!
          : sql`WITH ${sql.join(", ", false)(queued.map((s, i) => sql`${sql.literal(`w${i}`)} AS (${s})`))} SELECT 1`
      )

    const batch = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.flatMap(Effect.serviceOption(sql.transactionService), (open) => {
        if (Option.isSome(open)) return effect
        const queued: Array<Statement.Statement<unknown>> = []
        return effect.pipe(
          Effect.provideService(WriteBatch, queued),
          Effect.provideService(sql.transactionService, [refusing, 0]),
          Effect.tap(() => flush(queued))
        )
      })

    return Transactions.of({ run, batch })
  })
)
