/**
 * The in-memory table of idempotency keys, shared by the stores that write it: the idempotency
 * store, and the payment store whose last write on a payment completes the request's key in the
 * same write (`PaymentStore.updateCompletingKey`). The table and its writes only: neither store
 * reaches into the other.
 */
import type { IdempotencyRecord, KeyCompletion } from "../../../core/ports/IdempotencyStore.ts"
import type { MemoryDb } from "./MemoryDb.ts"

/** A key's place in the table: its scope and key. */
export const keyId = (scope: string, key: string) => `${scope}\u0000${key}`

export const keyRecords = (db: MemoryDb["Service"]) => db.table<IdempotencyRecord>("idempotency_keys")

/** Stores a key's response; call it inside `db.run`. */
export const completeKey = (records: Map<string, IdempotencyRecord>, c: KeyCompletion) => {
  const id = keyId(c.scope, c.key)
  const r = records.get(id)
  if (r !== undefined) records.set(id, { ...r, state: "completed", responseStatus: c.responseStatus, responseBody: c.responseBody })
}
