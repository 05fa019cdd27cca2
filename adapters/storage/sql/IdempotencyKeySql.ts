/**
 * SQL shared by the stores that write `idempotency_keys`: the idempotency store, and the payment
 * store whose last write on a payment completes the request's key in the same statement
 * (`PaymentStore.updateCompletingKey`). Statements only: neither store reaches into the other.
 */
import type { SqlClient } from "effect/sql"
import type { KeyCompletion } from "../../../core/ports/IdempotencyStore.ts"

/** Stores a key's response; a fragment another statement can embed (`WITH ... AS (...)`). */
export const completeKeyStatement = (sql: SqlClient.SqlClient, c: KeyCompletion) =>
  sql`UPDATE idempotency_keys SET state = 'completed', response_status = ${c.responseStatus}, response_body = ${c.responseBody}
      WHERE scope = ${c.scope} AND key = ${c.key}`
