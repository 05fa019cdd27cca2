/**
 * The job queue in memory. What costs what the queue holds in SQL is an index here too:
 * - dedupe key -> job id (a journaled table);
 * - the pending jobs of each clock scope (journaled tables), which `countDue` walks;
 * - per clock scope, a min-heap of (time, job id) telling when each pending job may next be due,
 *   so a claim pops only what is due instead of sorting every pending job. The heaps live outside
 *   the transactional tables: an entry is a hint, checked against the job when popped (a job a
 *   rolled-back transaction added is simply not found), and every pending job keeps at least one
 *   entry at or before the time it is due.
 */
import { DateTime, Effect, Layer, Option } from "effect"
import { type Job, JobStore } from "../../../core/ports/JobStore.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { clockOffset } from "./MemorySandboxClockStore.ts"

/** A binary min-heap of [time, id]. */
class Heap {
  private readonly items: Array<readonly [number, string]> = []
  get size() {
    return this.items.length
  }
  peek(): number {
    return this.items[0]![0]
  }
  push(at: number, id: string) {
    const items = this.items
    items.push([at, id])
    let i = items.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (items[parent]![0] <= items[i]![0]) break
      ;[items[parent], items[i]] = [items[i]!, items[parent]!]
      i = parent
    }
  }
  pop(): readonly [number, string] {
    const items = this.items
    const top = items[0]!
    const last = items.pop()!
    if (items.length > 0) {
      items[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let min = i
        if (l < items.length && items[l]![0] < items[min]![0]) min = l
        if (r < items.length && items[r]![0] < items[min]![0]) min = r
        if (min === i) break
        ;[items[min], items[i]] = [items[i]!, items[min]!]
        i = min
      }
    }
    return top
  }
}

const millis = DateTime.toEpochMillis

export const MemoryJobStore = Layer.effect(
  JobStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const jobs = db.table<Job>("jobs")
    const byDedupeKey = db.table<string>("jobs_by_dedupe_key")
    const scopeKey = (clockScope: string | null) => clockScope ?? ""
    const pendingOf = (clockScope: string | null) => db.table<true>(`jobs_pending|${scopeKey(clockScope)}`)
    const heaps = new Map<string, Heap>()
    const heapOf = (clockScope: string | null) => {
      let heap = heaps.get(scopeKey(clockScope))
      if (heap === undefined) heaps.set(scopeKey(clockScope), heap = new Heap())
      return heap
    }
    /** When a pending job may next be due, on its scope's clock: its run time, or its lease's end. */
    const dueAt = (job: Job) =>
      Math.max(millis(job.runAt), job.lockedUntil === null ? -Infinity : millis(job.lockedUntil) + clockOffset(db, job.clockScope))

    const write = (job: Job) => {
      jobs.set(job.id, job)
      if (job.status === "pending") {
        pendingOf(job.clockScope).set(job.id, true)
        heapOf(job.clockScope).push(dueAt(job), job.id)
      } else {
        pendingOf(job.clockScope).delete(job.id)
      }
    }
    const add = (job: Job) => {
      if (jobs.has(job.id)) return false
      if (job.dedupeKey !== null) {
        if (byDedupeKey.has(job.dedupeKey)) return false
        byDedupeKey.set(job.dedupeKey, job.id)
      }
      write(job)
      return true
    }
    const update = (id: string, f: (job: Job) => Job) =>
      db.run(Effect.sync(() => {
        const job = jobs.get(id)
        if (job !== undefined) write(f(job))
      }))

    return JobStore.of({
      enqueue: (job) => db.run(Effect.sync(() => add(job))),
      enqueueAll: (list) => db.run(Effect.sync(() => list.forEach(add))),
      find: (id) => db.run(Effect.sync(() => Option.fromNullishOr(jobs.get(id)))),
      claim: ({ clockScope, kinds, leaseMs, limit, now }) =>
        db.run(Effect.sync(() => {
          const nowMs = millis(now)
          const due: Array<Job> = []
          const later: Array<Job> = []
          const seen = new Set<string>()
          for (const [scope, heap] of clockScope === undefined ? heaps : [[scopeKey(clockScope), heapOf(clockScope)] as const]) {
            const horizon = nowMs + clockOffset(db, scope === "" ? null : scope)
            let taken = 0
            while (heap.size > 0 && heap.peek() <= horizon && taken < limit) {
              const [, id] = heap.pop()
              const job = jobs.get(id)
              if (job === undefined || job.status !== "pending" || seen.has(id)) continue
              seen.add(id)
              const isDue = millis(job.runAt) <= horizon && (job.lockedUntil === null || millis(job.lockedUntil) < nowMs)
              if (isDue && kinds.includes(job.kind)) {
                due.push(job)
                taken++
              } else {
                later.push(job)
              }
            }
          }
          // Due on the real clock first, then due only on a test clock that runs ahead.
          const lateness = (j: Job) => millis(j.runAt) - nowMs
          due.sort((a, b) =>
            Number(lateness(a) > 0) - Number(lateness(b) > 0) || millis(a.runAt) - millis(b.runAt) || a.id.localeCompare(b.id)
          )
          for (const job of [...later, ...due.slice(limit)]) heapOf(job.clockScope).push(Math.max(dueAt(job), nowMs), job.id)
          const lockedUntil = DateTime.add(now, { milliseconds: leaseMs })
          return due.slice(0, limit).map((j) => {
            const claimed: Job = { ...j, attempts: j.attempts + 1, lockedUntil }
            write(claimed)
            return claimed
          })
        })),
      countDue: ({ clockScope, kinds, now }) =>
        db.run(Effect.sync(() => {
          const horizon = millis(now) + clockOffset(db, clockScope)
          let n = 0
          for (const id of pendingOf(clockScope).keys()) {
            const j = jobs.get(id)!
            if (kinds.includes(j.kind) && millis(j.runAt) <= horizon) n++
          }
          return n
        })),
      complete: (id) => update(id, (j) => ({ ...j, status: "done", lockedUntil: null })),
      retry: (id, runAt, error) => update(id, (j) => ({ ...j, runAt, lockedUntil: null, lastError: error })),
      kill: (id, error) => update(id, (j) => ({ ...j, status: "dead", lockedUntil: null, lastError: error })),
      backlog: (now) =>
        db.run(Effect.sync(() => {
          const byKind = new Map<string, { kind: string; due: number; oldestDueAt: DateTime.Utc | null; dead: number }>()
          const of = (kind: string) => byKind.get(kind) ?? byKind.set(kind, { kind, due: 0, oldestDueAt: null, dead: 0 }).get(kind)!
          for (const j of jobs.values()) {
            if (j.status === "dead") of(j.kind).dead++
            if (j.status !== "pending" || DateTime.isGreaterThan(j.runAt, now)) continue
            const row = of(j.kind)
            row.due++
            if (row.oldestDueAt === null || DateTime.isLessThan(j.runAt, row.oldestDueAt)) row.oldestDueAt = j.runAt
          }
          return [...byKind.values()]
        }))
    })
  })
)
