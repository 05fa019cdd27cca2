/**
 * The memory store's transactions: a failed or interrupted transaction leaves every table as it
 * found it (writes, deletes and clears undone, in any order and repeated), nested calls join the
 * running transaction, and committed work stays.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Fiber } from "effect"
import { MemoryDb } from "../../../adapters/storage/memory/MemoryDb.ts"

const snapshot = (t: Map<string, number>) => [...t.entries()].sort(([a], [b]) => a.localeCompare(b))

describe("memory store transactions", () => {
  it.effect("a failed transaction restores every table it touched; a committed one stays", () =>
    Effect.gen(function*() {
      const db = yield* MemoryDb
      const a = db.table<number>("a")
      const b = db.table<number>("b")
      yield* db.run(Effect.sync(() => {
        a.set("x", 1)
        a.set("y", 2)
        b.set("z", 3)
      }))
      const before = [snapshot(a), snapshot(b)]
      const failed = yield* Effect.exit(db.run(Effect.gen(function*() {
        a.set("x", 10)
        a.set("x", 11)
        a.delete("y")
        a.set("new", 5)
        b.clear()
        b.set("z", 30)
        // A nested call joins the running transaction: rolled back with it.
        yield* db.run(Effect.sync(() => a.set("nested", 7)))
        return yield* Effect.fail("boom")
      })))
      assert.isTrue(Exit.isFailure(failed))
      assert.deepStrictEqual([snapshot(a), snapshot(b)], before)

      yield* db.run(Effect.sync(() => a.delete("x")))
      assert.deepStrictEqual(snapshot(a), [["y", 2]])
    }).pipe(Effect.provide(MemoryDb.layer)))

  it.effect("an interrupted transaction is undone too", () =>
    Effect.gen(function*() {
      const db = yield* MemoryDb
      const t = db.table<number>("t")
      yield* db.run(Effect.sync(() => t.set("k", 1)))
      const fiber = yield* Effect.forkChild(db.run(Effect.gen(function*() {
        t.set("k", 2)
        t.set("other", 3)
        return yield* Effect.never
      })))
      yield* Effect.yieldNow
      yield* Fiber.interrupt(fiber)
      assert.deepStrictEqual(snapshot(t), [["k", 1]])
    }).pipe(Effect.provide(MemoryDb.layer)))
})
