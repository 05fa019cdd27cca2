/**
 * The idempotency-key store on every store: one executor per key whatever the race, replay,
 * release and takeover, a lease that belongs to the execution holding it, and expiry. The claim
 * made by a write-ahead itself is asserted with the payment it commits with
 * (`PayinStoreContract.test.ts`).
 */
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { IdempotencyStore } from "../../../core/ports/IdempotencyStore.ts"
import { storeTargets } from "../../support/Stores.ts"

const t0 = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
const at = (seconds: number) => DateTime.add(t0, { seconds })

let seq = 0
const uid = (prefix: string) => `${prefix}${++seq}_${Math.random().toString(36).slice(2, 8)}`

/** A new scope, and a claim of one of its keys at `now` with a 30 s lease, kept 24 hours. */
const newScope = Effect.gen(function*() {
  const store = yield* IdempotencyStore
  const scope = uid("scope_")
  const acquire = (key: string, now: DateTime.Utc, hash = "h1", holder = "x1") =>
    store.acquire({ scope, key, requestHash: hash, holder, now, lockedUntil: DateTime.add(now, { seconds: 30 }), expiresAt: DateTime.add(now, { hours: 24 }) })
  return { store, scope, acquire }
})

for (const target of storeTargets("idempotency")) {
  describe(`IdempotencyStore on ${target.name}`, () => {
    layer(target.layer(), { timeout: 60_000 })((it) => {
      it.effect("idempotency: one executor per key under 20 racing requests; replay, release, takeover, expiry", () =>
        Effect.gen(function*() {
          const { acquire, scope, store } = yield* newScope
          const results = yield* Effect.all(Array.from({ length: 20 }, (_, i) => acquire("k1", t0, "h1", `x${i}`)), { concurrency: "unbounded" })
          assert.strictEqual(results.filter((r) => r._tag === "Acquired").length, 1)
          const waiting = results.find((r) => r._tag === "Existing")
          assert.isTrue(waiting?._tag === "Existing" && waiting.record.state === "in_progress")

          yield* store.complete(scope, "k1", 201, "{\"ok\":true}")
          const replay = yield* acquire("k1", at(1), "h2")
          assert.isTrue(replay._tag === "Existing")
          if (replay._tag === "Existing") {
            assert.strictEqual(replay.record.state, "completed")
            assert.strictEqual(replay.record.responseStatus, 201)
            assert.strictEqual(replay.record.responseBody, "{\"ok\":true}")
            assert.strictEqual(replay.record.requestHash, "h1")
          }

          assert.strictEqual((yield* acquire("k2", t0))._tag, "Acquired")
          yield* store.release(scope, "k2", "x1")
          assert.strictEqual((yield* acquire("k2", at(1)))._tag, "Acquired")
          // k2's executor holds the lock until t0+31s; past it, a retry takes over.
          assert.strictEqual((yield* acquire("k2", at(20)))._tag, "Existing")
          assert.strictEqual((yield* acquire("k2", at(40)))._tag, "Acquired")
          // A completed record is replayed for 24 hours, then the key is free again.
          assert.strictEqual((yield* acquire("k1", DateTime.add(t0, { hours: 25 })))._tag, "Acquired")
          assert.isTrue((yield* store.purgeExpired(DateTime.add(t0, { days: 3 }))) >= 2)
        }))

      it.effect("idempotency: a bound key is continued after a crash; heartbeats hold it; a lapsed lock goes to the same request only", () =>
        Effect.gen(function*() {
          const { acquire, scope, store } = yield* newScope
          assert.deepStrictEqual(yield* acquire("k", t0), { _tag: "Acquired", resourceId: null })
          yield* store.bind(scope, "k", "TXN-1")
          // A heartbeat keeps the executor's lock past its first lease.
          yield* store.extend(scope, "k", "x1", at(60))
          assert.strictEqual((yield* acquire("k", at(45)))._tag, "Existing")
          // Another request never takes over a lapsed lock; the same request does, with the bound record.
          assert.strictEqual((yield* acquire("k", at(61), "h2"))._tag, "Existing")
          assert.deepStrictEqual(yield* acquire("k", at(61)), { _tag: "Acquired", resourceId: "TXN-1" })
          // A dying execution ends its lock at once: the retry continues the bound record.
          yield* store.extend(scope, "k", "x1", at(62))
          const held = yield* acquire("k", at(63))
          assert.deepStrictEqual(held, { _tag: "Acquired", resourceId: "TXN-1" })
          yield* store.complete(scope, "k", 201, "{\"id\":\"TXN-1\"}")
          const replay = yield* acquire("k", at(64))
          assert.isTrue(replay._tag === "Existing" && replay.record.state === "completed" && replay.record.resourceId === "TXN-1")
          // An error frees even a bound key (errors are never stored): the retry starts afresh.
          assert.deepStrictEqual(yield* acquire("k2b", at(70)), { _tag: "Acquired", resourceId: null })
          yield* store.bind(scope, "k2b", "TXN-2")
          yield* store.release(scope, "k2b", "x1")
          assert.deepStrictEqual(yield* acquire("k2b", at(71)), { _tag: "Acquired", resourceId: null })
          // Past retention the key starts afresh, unbound.
          assert.deepStrictEqual(yield* acquire("k", DateTime.add(t0, { hours: 25 })), { _tag: "Acquired", resourceId: null })
        }))

      it.effect("an execution whose lapsed lease was taken over cannot free or end the new holder's claim", () =>
        Effect.gen(function*() {
          const { scope, store, ...claims } = yield* newScope
          const acquire = (now: DateTime.Utc, holder: string) => claims.acquire("k", now, "h1", holder)
          assert.strictEqual((yield* acquire(t0, "A"))._tag, "Acquired")
          // A stalled past its lease (no heartbeat reached the store): B, a retry, takes the key over.
          assert.strictEqual((yield* acquire(at(40), "B"))._tag, "Acquired")
          // A fails late and releases: B's claim stays.
          yield* store.release(scope, "k", "A")
          assert.strictEqual((yield* acquire(at(41), "C"))._tag, "Existing", "B still holds the key")
          // A dies late and ends its lease, or its heartbeat extends it: B's lease is B's.
          yield* store.extend(scope, "k", "A", at(42))
          assert.strictEqual((yield* acquire(at(43), "C"))._tag, "Existing", "B's lease still runs")
          yield* store.extend(scope, "k", "A", at(500))
          assert.strictEqual((yield* acquire(at(71), "C"))._tag, "Acquired", "B's lease lapsed at its own time")
        }))
    })
  })
}
