import { Context, Effect, Predicate, Schema } from "effect"

/**
 * Runs an effect as one database transaction: every store call inside commits together or not
 * at all. Nested calls join the outer transaction. Money moves only inside one of these.
 */
export class Transactions extends Context.Service<Transactions, {
  readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Like `run`, for an effect made only of writes whose answers it does not read (a record
   * written ahead, the key bound to it, its timers): they commit together or not at all. The
   * SQL store queues them and sends them as one statement, one round trip instead of a
   * transaction's BEGIN, one per write and COMMIT; a read or a write it cannot queue inside is a
   * defect there. Inside an open transaction it is `run`.
   */
  readonly batch: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("core/ports/Transactions") {}

/**
 * A versioned write lost to another writer (the store's `update` answered false): the caller
 * rolls back and reads again.
 */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {}) {}

const isConflict = (e: unknown): e is Conflict => Predicate.isTagged(e, "Conflict")

/**
 * Runs a read-then-write again each time it loses to another writer (`Conflict`), at most
 * `times` more: the next run reads what the winner wrote and decides again (the change may no
 * longer apply, and says so). Losing more often than that is a defect, named by `what`.
 */
export const retryOnConflict = (what: string, times: number) =>
<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, Conflict>, R> => {
  const attempt = (left: number): Effect.Effect<A, Exclude<E, Conflict>, R> =>
    Effect.catch(self, (e) =>
      !isConflict(e)
        ? Effect.fail(e as Exclude<E, Conflict>)
        : left > 0
        ? attempt(left - 1)
        : Effect.die(new Error(`${what}: too many concurrent updates`)))
  return attempt(times)
}
