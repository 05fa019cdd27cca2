import { Context, type DateTime, type Effect, Schema } from "effect"

/**
 * One use of an `Idempotency-Key` within a scope (environment + credential owner). The primary
 * key (scope, key) is what guarantees one execution per key, whatever the concurrency.
 */
export interface IdempotencyRecord {
  readonly scope: string
  readonly key: string
  /** Hash of method, path and body: a reuse with another request is refused. */
  readonly requestHash: string
  readonly state: "in_progress" | "completed"
  /** The execution that holds (or last held) the key: it alone extends, ends or releases the lease. */
  readonly holder: string | null
  /**
   * The record the execution wrote ahead (a payment, a refund, a payout), bound in the
   * transaction that created it: from then on the key belongs to that record, and a retry
   * continues it instead of starting another.
   */
  readonly resourceId: string | null
  readonly responseStatus: number | null
  readonly responseBody: string | null
  /** While in progress, the executor holds the key until then; past it a retry may take over. */
  readonly lockedUntil: DateTime.Utc
  readonly createdAt: DateTime.Utc
  readonly expiresAt: DateTime.Utc
}

/**
 * The response stored for a key, written by the execution's last write itself
 * (`PaymentStore.updateCompletingKey`): the key completes in the write that changes the record, or
 * not at all. For a payment, the body is the core's create view of it (`CreatedView`).
 */
export interface KeyCompletion {
  readonly scope: string
  readonly key: string
  readonly responseStatus: number
  readonly responseBody: string
}

export type Acquire =
  /** The caller executes; `resourceId` is the record a crashed execution already wrote ahead. */
  | { readonly _tag: "Acquired"; readonly resourceId: string | null }
  | { readonly _tag: "Existing"; readonly record: IdempotencyRecord }

/** The claim an execution makes on a key: its lease, and the key's retention. */
export interface KeyClaim {
  readonly scope: string
  readonly key: string
  readonly requestHash: string
  /** Names the execution; `extend` and `release` act only for it. */
  readonly holder: string
  readonly now: DateTime.Utc
  readonly lockedUntil: DateTime.Utc
  readonly expiresAt: DateTime.Utc
}

/**
 * The key exists (another execution holds it, completed it, or it expired and was not purged
 * yet): the write-ahead that tried to claim it wrote nothing.
 */
export class KeyTaken extends Schema.TaggedError<KeyTaken>()("KeyTaken", {}) {}

export class IdempotencyStore extends Context.Service<IdempotencyStore, {
  /**
   * Claims the key for execution. Answers `Acquired` when the key was free, expired, or held
   * for the same request by an executor whose lock lapsed (it crashed: the record it bound, if
   * any, comes back to be continued); otherwise the record that holds it.
   */
  readonly acquire: (claim: KeyClaim) => Effect.Effect<Acquire>
  /**
   * Claims a key that does not exist yet, held by `claim.holder` and bound to the record being
   * written ahead: a write of that record's transaction (it can be part of `Transactions.batch`),
   * so the key and its record commit together. A key that exists fails the whole unit with
   * `KeyTaken`: nothing of it is written, and the caller goes the `acquire` way.
   */
  readonly claim: (claim: KeyClaim & { readonly resourceId: string }) => Effect.Effect<void, KeyTaken>
  /**
   * Binds the key to the record its execution wrote ahead; run it in that record's transaction
   * (a write that can be part of `Transactions.batch`).
   */
  readonly bind: (scope: string, key: string, resourceId: string) => Effect.Effect<void>
  /**
   * Moves the lock `holder` has on the key to `lockedUntil`: a heartbeat extends it while the
   * execution runs; an execution that dies ends it at once, so a retry continues its bound record
   * without waiting. A key another execution holds now is left as it is.
   */
  readonly extend: (scope: string, key: string, holder: string, lockedUntil: DateTime.Utc) => Effect.Effect<void>
  /** Stores the response of a finished execution, to be replayed. */
  readonly complete: (scope: string, key: string, responseStatus: number, responseBody: string) => Effect.Effect<void>
  /**
   * Frees the key `holder` holds after an error: errors are never stored, a retry executes
   * afresh. A key another execution holds now is left as it is.
   */
  readonly release: (scope: string, key: string, holder: string) => Effect.Effect<void>
  /** Deletes records past their expiry; answers how many. */
  readonly purgeExpired: (now: DateTime.Utc) => Effect.Effect<number>
}>()("core/ports/IdempotencyStore") {}
