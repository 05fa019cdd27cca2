import { Context, type Effect, type Option } from "effect"
import type { Environment } from "../Environment.ts"
import type { JournalEntry } from "../ledger/Journal.ts"
import type { SettlementSchedule } from "../settlements/Schedule.ts"
import type { SettlementBatch } from "../settlements/Settlement.ts"
import type { StatementLine } from "../settlements/Statement.ts"

/** One line of a closed batch: the journal entry it comes from (bound to this batch only) and what the statement prints. */
export interface BatchLine {
  readonly entryId: string
  readonly line: StatementLine
}

/** Settlement schedules, batches and the lines that bind journal entries to batches. */
export class SettlementStore extends Context.Service<SettlementStore, {
  readonly schedule: (environment: Environment, shopId: string) => Effect.Effect<Option.Option<SettlementSchedule>>
  /** Inserts or replaces the shop's schedule. */
  readonly putSchedule: (schedule: SettlementSchedule) => Effect.Effect<void>
  readonly insert: (batch: SettlementBatch) => Effect.Effect<void>
  /** Writes `batch` if the stored version is `batch.version - 1`; false when another writer won. */
  readonly update: (batch: SettlementBatch) => Effect.Effect<boolean>
  readonly find: (environment: Environment, shopId: string, id: string) => Effect.Effect<Option.Option<SettlementBatch>>
  readonly findById: (id: string) => Effect.Effect<Option.Option<SettlementBatch>>
  /** The batch a provider's transfer belongs to. */
  readonly findByProviderRef: (provider: string, providerRef: string) => Effect.Effect<Option.Option<SettlementBatch>>
  /** The shop's open batch, if it has a schedule. */
  readonly open: (environment: Environment, shopId: string) => Effect.Effect<Option.Option<SettlementBatch>>
  /** Newest first (by period start). */
  readonly list: (
    environment: Environment,
    shopId: string,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<SettlementBatch>; readonly total: number }>
  /**
   * The shop's journal entries that post to `payin_available` in USD and belong to no batch yet,
   * oldest first, but the sweeps (`sweepKind`): each cancels the lines of its own batch. Call it with that balance locked (`LedgerStore.lockBalance`), so that no entry
   * posting to it commits in between.
   */
  readonly unbatched: (environment: Environment, shopId: string) => Effect.Effect<ReadonlyArray<JournalEntry>>
  /** Binds each line's entry to the batch; an entry already bound to a batch is a bug (dies). */
  readonly addLines: (batchId: string, lines: ReadonlyArray<BatchLine>) => Effect.Effect<void>
  /** A closed batch's lines, in the order they were added. */
  readonly lines: (batchId: string) => Effect.Effect<ReadonlyArray<StatementLine>>
}>()("core/ports/SettlementStore") {}
