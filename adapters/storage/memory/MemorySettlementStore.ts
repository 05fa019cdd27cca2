/** The settlement store in memory: schedules, batches, and the lines binding journal entries to batches. */
import { DateTime, Effect, Layer, Option } from "effect"
import type { JournalEntry } from "../../../core/ledger/Journal.ts"
import { SettlementStore } from "../../../core/ports/SettlementStore.ts"
import type { SettlementSchedule } from "../../../core/settlements/Schedule.ts"
import { type SettlementBatch, sweepKind } from "../../../core/settlements/Settlement.ts"
import type { StatementLine } from "../../../core/settlements/Statement.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { rowsOf, versionedRows } from "./MemoryRows.ts"

/** Newest period first, then id descending (the SQL store's order). */
const byPeriod = (a: SettlementBatch, b: SettlementBatch) =>
  DateTime.toEpochMillis(b.periodStart) - DateTime.toEpochMillis(a.periodStart) || b.id.localeCompare(a.id)

export const MemorySettlementStore = Layer.effect(
  SettlementStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const schedules = db.table<SettlementSchedule>("settlement_schedules")
    const batches = versionedRows<SettlementBatch>(db, "settlement_batches", (b) => `${b.environment}|${b.shopId}`)
    /** entry id → batch id: an entry is in one batch at most. */
    const boundTo = db.table<string>("settlement_lines_by_entry")
    const linesOf = (batchId: string) => db.table<StatementLine>(`settlement_lines|${batchId}`)
    // The ledger store's own tables (MemoryLedgerStore): a shop's entries in the order appended.
    const entries = db.table<JournalEntry>("journal_entries")
    const entriesOf = (environment: string, shopId: string) => db.table<true>(`journal_entries_of|${environment}|${shopId}`)
    return SettlementStore.of({
      schedule: (environment, shopId) => db.run(Effect.sync(() => Option.fromNullishOr(schedules.get(`${environment}|${shopId}`)))),
      putSchedule: (schedule) => db.run(Effect.sync(() => void schedules.set(`${schedule.environment}|${schedule.shopId}`, schedule))),
      insert: batches.insert,
      update: batches.update,
      find: batches.find,
      findById: batches.findById,
      findByProviderRef: (provider, providerRef) =>
        db.run(Effect.sync(() =>
          Option.fromNullishOr(
            [...db.table<SettlementBatch>("settlement_batches").values()].find((b) => b.provider === provider && b.providerRef === providerRef)
          )
        )),
      open: (environment, shopId) =>
        db.run(Effect.sync(() => Option.fromNullishOr(batches.owned(`${environment}|${shopId}`).find((b) => b.status === "open")))),
      list: (environment, shopId, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = batches.owned(`${environment}|${shopId}`).sort(byPeriod)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        })),
      unbatched: (environment, shopId) =>
        db.run(Effect.sync(() =>
          rowsOf(entries, entriesOf(environment, shopId)).filter((e) =>
            !boundTo.has(e.id) && e.kind !== sweepKind && e.postings.some((p) => p.book === "payin_available" && p.currency === "USD")
          )
        )),
      addLines: (batchId, lines) =>
        db.run(Effect.suspend(() => {
          const taken = lines.find((l) => boundTo.has(l.entryId))
          if (taken !== undefined) return Effect.die(new Error(`journal entry ${taken.entryId} is already in settlement ${boundTo.get(taken.entryId)}`))
          const table = linesOf(batchId)
          lines.forEach((l, i) => {
            boundTo.set(l.entryId, batchId)
            table.set(String(i).padStart(9, "0"), l.line)
          })
          return Effect.void
        })),
      lines: (batchId) => db.run(Effect.sync(() => [...linesOf(batchId).values()]))
    })
  })
)
