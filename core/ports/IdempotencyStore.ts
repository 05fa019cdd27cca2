import { Context, type DateTime, type Effect } from "effect"

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
  readonly responseStatus: number | null
  readonly responseBody: string | null
  /** While in progress, the executor holds the key until then; past it a retry may take over. */
  readonly lockedUntil: DateTime.Utc
  readonly createdAt: DateTime.Utc
  readonly expiresAt: DateTime.Utc
}

export type Acquire =
  | { readonly _tag: "Acquired" }
  | { readonly _tag: "Existing"; readonly record: IdempotencyRecord }

export class IdempotencyStore extends Context.Service<IdempotencyStore, {
  /**
   * Claims the key for execution. Answers `Acquired` when the key was free, expired, or held
   * by an executor whose lock lapsed (it crashed); otherwise the record that holds it.
   */
  readonly acquire: (record: {
    readonly scope: string
    readonly key: string
    readonly requestHash: string
    readonly now: DateTime.Utc
    readonly lockedUntil: DateTime.Utc
    readonly expiresAt: DateTime.Utc
  }) => Effect.Effect<Acquire>
  /** Stores the response of a successful execution, to be replayed. */
  readonly complete: (scope: string, key: string, responseStatus: number, responseBody: string) => Effect.Effect<void>
  /** Frees an in-progress key after an error: errors are never stored, so a retry re-executes. */
  readonly release: (scope: string, key: string) => Effect.Effect<void>
  /** Deletes records past their expiry; answers how many. */
  readonly purgeExpired: (now: DateTime.Utc) => Effect.Effect<number>
}>()("core/ports/IdempotencyStore") {}
