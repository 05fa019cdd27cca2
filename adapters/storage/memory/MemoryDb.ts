/**
 * The in-memory database behind the memory store: named tables of immutable rows, and
 * serializable transactions. Every store call runs under one lock (a call outside a transaction
 * is its own transaction, like SQL autocommit), and a failed or interrupted transaction restores
 * the tables it started from: each table journals the first previous value of every key a
 * transaction writes, so a transaction costs what it changes, never what the store holds. Fast
 * and exact for embedders' tests; nothing survives a restart.
 */
import { Context, Effect, Exit, Layer, Semaphore } from "effect"
import { Transactions } from "../../../core/ports/Transactions.ts"

const InTransaction = Context.Reference<boolean>("adapters/storage/memory/MemoryDb/InTransaction", {
  defaultValue: () => false
})

/** A table: a `Map` that tells the database which key it is about to write, before it does. */
class JournaledMap<A> extends Map<string, A> {
  constructor(private readonly beforeWrite: (key: string) => void, private readonly beforeClear: () => void) {
    super()
  }
  override set(key: string, value: A) {
    this.beforeWrite(key)
    return super.set(key, value)
  }
  override delete(key: string) {
    this.beforeWrite(key)
    return super.delete(key)
  }
  override clear() {
    this.beforeClear()
    super.clear()
  }
  /** Rollback writes, unjournaled. */
  restore(key: string, value: A) {
    super.set(key, value)
  }
  forget(key: string) {
    super.delete(key)
  }
}

export class MemoryDb extends Context.Service<MemoryDb, {
  /** The table `name` (created empty on first use). Mutate it only inside `run`. */
  readonly table: <A>(name: string) => Map<string, A>
  /** Runs `effect` atomically; nested calls join the running transaction. */
  readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("adapters/storage/memory/MemoryDb") {
  static readonly layer = Layer.effect(
    MemoryDb,
    Effect.gen(function*() {
      const tables = new Map<string, JournaledMap<unknown>>()
      /** The first value (or absence) of every key the running transaction wrote, per table. */
      let journal: Array<readonly [JournaledMap<unknown>, string, boolean, unknown]> | null = null
      const touched = new Set<string>()
      const record = (table: JournaledMap<unknown>, name: string, key: string) => {
        if (journal === null) return
        const id = `${name}\u0000${key}`
        if (touched.has(id)) return
        touched.add(id)
        journal.push([table, key, table.has(key), table.get(key)])
      }
      const lock = yield* Semaphore.make(1)

      const table = <A>(name: string): Map<string, A> => {
        let t = tables.get(name)
        if (t === undefined) {
          t = new JournaledMap((key) => record(t!, name, key), () => {
            for (const key of t!.keys()) record(t!, name, key)
          })
          tables.set(name, t)
        }
        return t as unknown as Map<string, A>
      }

      const rollback = (entries: ReadonlyArray<readonly [JournaledMap<unknown>, string, boolean, unknown]>) => {
        for (let i = entries.length - 1; i >= 0; i--) {
          const [t, key, had, value] = entries[i]!
          if (had) t.restore(key, value)
          else t.forget(key)
        }
      }

      const run = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.flatMap(InTransaction, (inTransaction) =>
          inTransaction ? effect : lock.withPermits(1)(
            Effect.suspend(() => {
              const entries: Array<readonly [JournaledMap<unknown>, string, boolean, unknown]> = []
              journal = entries
              touched.clear()
              return effect.pipe(
                Effect.provideService(InTransaction, true),
                Effect.onExit((exit) =>
                  Effect.sync(() => {
                    journal = null
                    touched.clear()
                    if (!Exit.isSuccess(exit)) rollback(entries)
                  }))
              )
            })
          ))

      return MemoryDb.of({ table, run })
    })
  )

  static readonly transactions = Layer.effect(
    Transactions,
    Effect.map(MemoryDb, (db) => Transactions.of({ run: db.run, batch: db.run }))
  )
}
