import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Environment } from "../Environment.ts"

/**
 * One change on the record (`core/audit/Audit.ts`): who made it, from where, by which operation,
 * to which object, and what changed (secrets masked). Rows form a hash chain per `chain`: each
 * row's `hash` is SHA-256 over the previous row's hash and its own content, so a row edited or
 * deleted breaks every hash after it.
 */
export interface AuditEntry {
  readonly id: string
  /** `<environment>:<merchantId>` for a merchant's changes, `operator` for the host's own. */
  readonly chain: string
  /** 1, 2, 3... within the chain. */
  readonly seq: number
  readonly at: DateTime.Utc
  readonly environment: Environment | null
  readonly merchantId: string | null
  readonly actor: { readonly kind: "key" | "token" | "user" | "admin" | "console" | "system"; readonly id: string }
  readonly ip: string | null
  /** The API operation (`developers.createRestrictedKey`), or the engine's own step. */
  readonly operation: string
  readonly object: { readonly type: string; readonly id: string }
  /** What changed, masked: never a secret, a key or buyer data. */
  readonly changes: Readonly<Record<string, unknown>>
  readonly prevHash: string
  readonly hash: string
  /** `Sealing.sign` of `hash` (the host's key, which the database does not hold); null on an engine given no key. */
  readonly signature: string | null
}

export interface AuditFilter {
  readonly chain?: string | undefined
  readonly operation?: string | undefined
  readonly objectId?: string | undefined
}

/**
 * The audit log: append-only (no update, no delete). `append` runs in the caller's transaction and
 * serializes appends to one chain (SQL: an advisory lock of the chain, held to commit), so two
 * changes never take the same place in it.
 */
export class AuditStore extends Context.Service<AuditStore, {
  /** Appends the entry `build` makes at the chain's next place, given that place and the hash before it. */
  readonly append: (
    chain: string,
    build: (seq: number, prevHash: string) => Effect.Effect<AuditEntry>
  ) => Effect.Effect<AuditEntry>
  /** Newest first. */
  readonly list: (filter: AuditFilter, page: { readonly limit: number; readonly offset: number }) => Effect.Effect<{
    readonly rows: ReadonlyArray<AuditEntry>
    readonly total: number
  }>
  /** A chain's entries, oldest first (what verification walks). */
  readonly chainOf: (chain: string) => Effect.Effect<ReadonlyArray<AuditEntry>>
  /** Every chain's name. */
  readonly chains: Effect.Effect<ReadonlyArray<string>>
  /**
   * Retention: deletes a chain's entries older than `before` (every entry up to the newest one
   * that old), and keeps in the same transaction the checkpoint `sign` makes of the last one
   * deleted, where verification then starts. Answers how many it deleted.
   */
  readonly prune: (chain: string, before: DateTime.Utc, sign: (last: AuditEntry) => Effect.Effect<AuditCheckpoint>) => Effect.Effect<number>
  /** Where a pruned chain's verification starts; none for a chain never pruned. */
  readonly checkpoint: (chain: string) => Effect.Effect<Option.Option<AuditCheckpoint>>
}>()("core/ports/AuditStore") {}

/** The last entry retention deleted from a chain: its place and hash, signed with the host's key. */
export interface AuditCheckpoint {
  readonly chain: string
  readonly seq: number
  readonly hash: string
  readonly signature: string | null
}
