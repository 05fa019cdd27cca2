/** The audit log in memory: one journaled table per chain, in order. */
import { Effect, Layer, Option } from "effect"
import { type AuditCheckpoint, type AuditEntry, AuditStore } from "../../../core/ports/AuditStore.ts"
import { genesisHash } from "../../../core/audit/Audit.ts"
import { MemoryDb } from "./MemoryDb.ts"

export const MemoryAuditStore = Layer.effect(
  AuditStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const entries = db.table<AuditEntry>("audit_log")
    const chainNames = db.table<true>("audit_chains")
    const checkpoints = db.table<AuditCheckpoint>("audit_checkpoints")
    const chain = (name: string) => db.table<true>(`audit_chain|${name}`)
    const rowsOf = (name: string) => Array.from(chain(name).keys(), (id) => entries.get(id)!)
    return AuditStore.of({
      append: (name, build) =>
        db.run(Effect.gen(function*() {
          const rows = rowsOf(name)
          const last = rows[rows.length - 1]
          const entry = yield* build((last?.seq ?? 0) + 1, last?.hash ?? genesisHash)
          entries.set(entry.id, entry)
          chain(name).set(entry.id, true)
          chainNames.set(name, true)
          return entry
        })),
      list: (filter, page) =>
        db.run(Effect.sync(() => {
          const all = (filter.chain === undefined ? Array.from(entries.values()) : rowsOf(filter.chain))
            .filter((e) => (filter.operation === undefined || e.operation === filter.operation) && (filter.objectId === undefined || e.object.id === filter.objectId))
            .sort((a, b) => b.at.epochMilliseconds - a.at.epochMilliseconds || b.id.localeCompare(a.id))
          return { rows: all.slice(page.offset, page.offset + page.limit), total: all.length }
        })),
      chainOf: (name) => db.run(Effect.sync(() => rowsOf(name))),
      chains: db.run(Effect.sync(() => Array.from(chainNames.keys()).sort())),
      prune: (name, before, sign) =>
        db.run(Effect.gen(function*() {
          const old = rowsOf(name).filter((e) => e.at.epochMilliseconds < before.epochMilliseconds)
          const last = old.at(-1)
          if (last === undefined) return 0
          const gone = rowsOf(name).filter((e) => e.seq <= last.seq)
          for (const e of gone) {
            entries.delete(e.id)
            chain(name).delete(e.id)
          }
          checkpoints.set(name, yield* sign(last))
          return gone.length
        })),
      checkpoint: (name) => db.run(Effect.sync(() => Option.fromNullishOr(checkpoints.get(name))))
    })
  })
)
