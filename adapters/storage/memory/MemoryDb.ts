/**
 * The in-memory database behind the memory store: named tables of immutable rows, and
 * serializable transactions. Every store call runs under one lock (a call outside a transaction
 * is its own transaction, like SQL autocommit), and a failed or interrupted transaction restores
 * the tables it started from. Fast and exact for embedders' tests; nothing survives a restart.
 */
import { Context, Effect, Exit, Layer, Semaphore } from "effect"
import { Transactions } from "../../../core/ports/Transactions.ts"

const InTransaction = Context.Reference<boolean>("adapters/storage/memory/MemoryDb/InTransaction", {
  defaultValue: () => false
})

export class MemoryDb extends Context.Service<MemoryDb, {
  /** The table `name` (created empty on first use). Mutate it only inside `run`. */
  readonly table: <A>(name: string) => Map<string, A>
  /** Runs `effect` atomically; nested calls join the running transaction. */
  readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("adapters/storage/memory/MemoryDb") {
  static readonly layer = Layer.effect(
    MemoryDb,
    Effect.gen(function*() {
      const tables = new Map<string, Map<string, unknown>>()
      const lock = yield* Semaphore.make(1)

      const table = <A>(name: string): Map<string, A> => {
        let t = tables.get(name)
        if (t === undefined) {
          t = new Map()
          tables.set(name, t)
        }
        return t as Map<string, A>
      }

      const restore = (snapshot: ReadonlyMap<string, ReadonlyMap<string, unknown>>) => {
        for (const [name, rows] of tables) {
          rows.clear()
          for (const [k, v] of snapshot.get(name) ?? []) rows.set(k, v)
        }
      }

      const run = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.flatMap(InTransaction, (inTransaction) =>
          inTransaction ? effect : lock.withPermits(1)(
            Effect.suspend(() => {
              const snapshot = new Map([...tables].map(([name, rows]) => [name, new Map(rows)] as const))
              return effect.pipe(
                Effect.provideService(InTransaction, true),
                Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : Effect.sync(() => restore(snapshot)))
              )
            })
          ))

      return MemoryDb.of({ table, run })
    })
  )

  static readonly transactions = Layer.effect(
    Transactions,
    Effect.map(MemoryDb, (db) => Transactions.of({ run: db.run }))
  )
}
