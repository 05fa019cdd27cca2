import { Context, type Effect, Schema } from "effect"

/**
 * Runs an effect as one database transaction: every store call inside commits together or not
 * at all. Nested calls join the outer transaction. Money moves only inside one of these.
 */
export class Transactions extends Context.Service<Transactions, {
  readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("core/ports/Transactions") {}

/**
 * A versioned write lost to another writer (the store's `update` answered false): the caller
 * rolls back and reads again.
 */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {}) {}
