/**
 * Two entries that name the same two accounts in opposite orders, appended concurrently on the
 * PostgreSQL server many times: each append updates its balances in one order (by book, then
 * currency), so the two transactions queue on the rows instead of deadlocking (a deadlock is a
 * `40P01` the store would die of). Seen failing before the order was fixed: the entries' own
 * order (money leaves, then arrives) locks `fx` then `external` in one and the reverse in the other.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Exit, Result } from "effect"
import { entry } from "../../../core/ledger/Journal.ts"
import { LedgerStore } from "../../../core/ports/LedgerStore.ts"
import { newShop, postgresStore } from "../../support/Stores.ts"

const databaseUrl = process.env["DATABASE_URL"]

describe.skipIf(databaseUrl === undefined)("ledger lock order (PostgreSQL)", () => {
  it.effect("opposite entries on the same accounts, 2 x 150 at once: no deadlock, and the balances net to zero", () =>
    Effect.gen(function*() {
      const ledger = yield* LedgerStore
      const { shopId } = yield* newShop
      const createdAt = yield* DateTime.now
      const one = BigDecimal.fromNumberUnsafe(1)
      let n = 0
      const append = (from: "fx" | "external", to: "fx" | "external") =>
        Effect.suspend(() => {
          const made = entry(
            { id: `je_lock_${++n}`, environment: "sandbox", shopId, kind: "adjustment", reference: `lock-${n}`, createdAt },
            [{ from, to, currency: "USD", amount: one }]
          )
          return Result.isSuccess(made) ? ledger.append(made.success) : Effect.die(made.failure)
        })
      const worker = (from: "fx" | "external", to: "fx" | "external") => Effect.exit(Effect.repeat(append(from, to), { times: 149 }))
      const [a, b] = yield* Effect.all([worker("fx", "external"), worker("external", "fx")], { concurrency: 2 })
      assert.isTrue(Exit.isSuccess(a), `fx -> external: ${Exit.isFailure(a) ? String(a.cause) : ""}`)
      assert.isTrue(Exit.isSuccess(b), `external -> fx: ${Exit.isFailure(b) ? String(b.cause) : ""}`)
      const balances = yield* ledger.balances("sandbox", shopId)
      for (const book of ["fx", "external"] as const) {
        const balance = balances.find((x) => x.book === book)
        assert.isTrue(balance === undefined || BigDecimal.isZero(balance.balance), `${book} nets to zero`)
      }
    }).pipe(Effect.provide(postgresStore(databaseUrl!, "ledger_lock"))), 60_000)
})
