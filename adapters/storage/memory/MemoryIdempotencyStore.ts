/** The idempotency-key store in memory: one record per (scope, key), claimed with a lease. */
import { DateTime, Effect, Layer } from "effect"
import { type IdempotencyRecord, IdempotencyStore, type KeyClaim, KeyTaken } from "../../../core/ports/IdempotencyStore.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { completeKey, keyId as idemKey, keyRecords } from "./MemoryIdempotencyKeys.ts"

/** A key held by the execution that claims it, bound to `resourceId`. */
const held = (c: KeyClaim, resourceId: string | null): IdempotencyRecord => ({
  scope: c.scope,
  key: c.key,
  requestHash: c.requestHash,
  state: "in_progress",
  holder: c.holder,
  resourceId,
  responseStatus: null,
  responseBody: null,
  lockedUntil: c.lockedUntil,
  createdAt: c.now,
  expiresAt: c.expiresAt
})

export const MemoryIdempotencyStore = Layer.effect(
  IdempotencyStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const records = keyRecords(db)
    const update = (scope: string, key: string, change: (r: IdempotencyRecord) => IdempotencyRecord | undefined) => {
      const id = idemKey(scope, key)
      const r = records.get(id)
      if (r === undefined) return
      const next = change(r)
      if (next === undefined) records.delete(id)
      else records.set(id, next)
    }
    return IdempotencyStore.of({
      acquire: (r) =>
        db.run(Effect.sync(() => {
          const id = idemKey(r.scope, r.key)
          const existing = records.get(id)
          const expired = existing !== undefined && DateTime.isLessThan(existing.expiresAt, r.now)
          // A lapsed lock is taken over only by the same request: it continues the bound record.
          const lapsed = existing !== undefined && existing.state === "in_progress" &&
            DateTime.isLessThan(existing.lockedUntil, r.now) && existing.requestHash === r.requestHash
          if (existing !== undefined && !expired && !lapsed) return { _tag: "Existing", record: existing } as const
          const resourceId = lapsed && !expired ? existing.resourceId : null
          records.set(id, {
            ...held(r, resourceId),
            ...(lapsed && !expired ? { createdAt: existing.createdAt, expiresAt: existing.expiresAt } : {})
          })
          return { _tag: "Acquired", resourceId } as const
        })),
      claim: (r) =>
        db.run(Effect.suspend(() => {
          const id = idemKey(r.scope, r.key)
          if (records.has(id)) return Effect.fail(new KeyTaken())
          records.set(id, held(r, r.resourceId))
          return Effect.void
        })),
      bind: (scope, key, resourceId) =>
        db.run(Effect.sync(() => update(scope, key, (r) => ({ ...r, resourceId })))),
      extend: (scope, key, holder, lockedUntil) =>
        db.run(Effect.sync(() => update(scope, key, (r) => r.state === "in_progress" && r.holder === holder ? { ...r, lockedUntil } : r))),
      complete: (scope, key, responseStatus, responseBody) =>
        db.run(Effect.sync(() => completeKey(records, { scope, key, responseStatus, responseBody }))),
      release: (scope, key, holder) =>
        db.run(Effect.sync(() => update(scope, key, (r) => r.state === "in_progress" && r.holder === holder ? undefined : r))),
      purgeExpired: (now) =>
        db.run(Effect.sync(() => {
          let n = 0
          for (const [id, r] of records) {
            if (DateTime.isLessThan(r.expiresAt, now)) {
              records.delete(id)
              n++
            }
          }
          return n
        }))
    })
  })
)
