/**
 * The operator's view of routing health: per provider and rail, its circuit now and, per hour of a
 * window, how many attempts it had, how many failed for the breaker, its conversion (paid of
 * accepted) and its answer latency (p50, p95), and, on card rails, how often each normalized
 * decline refused a charge in the window. Pure: from the stored outcomes and the circuit.
 */
import type { RoutingOutcome } from "../ports/RoutingStore.ts"
import type { Circuit } from "./Health.ts"

export interface HourHealth {
  /** The hour's start, epoch ms. */
  readonly hour: number
  readonly attempts: number
  readonly bad: number
  readonly converted: number
  readonly notConverted: number
  /** converted / (converted + notConverted); null without any. */
  readonly conversion: number | null
  readonly p50LatencyMs: number | null
  readonly p95LatencyMs: number | null
}

export interface RailHealth {
  readonly providerId: string
  readonly methodId: string
  readonly circuit: Circuit
  readonly attempts: number
  readonly bad: number
  readonly conversion: number | null
  /** The window's refusals by normalized card decline, most frequent first (then by word). */
  readonly declines: ReadonlyArray<{ readonly decline: string; readonly count: number }>
  readonly hours: ReadonlyArray<HourHealth>
}

const hourMs = 3_600_000

/** The nearest-rank percentile of sorted values. */
const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!

const rate = (converted: number, not: number) => converted + not === 0 ? null : Math.round((converted / (converted + not)) * 10_000) / 10_000

/** Groups `outcomes` (oldest first) by provider and rail into `hours` hourly buckets ending at `now`'s hour. */
export const healthReport = (
  outcomes: ReadonlyArray<RoutingOutcome>,
  circuits: (providerId: string, methodId: string) => Circuit,
  now: number,
  hours: number
): ReadonlyArray<RailHealth> => {
  const last = Math.floor(now / hourMs) * hourMs
  const first = last - (hours - 1) * hourMs
  const rails = new Map<string, Array<RoutingOutcome>>()
  for (const o of outcomes) {
    const key = `${o.providerId}\u0000${o.methodId}`
    const list = rails.get(key) ?? []
    list.push(o)
    rails.set(key, list)
  }
  return Array.from(rails.entries()).sort(([a], [b]) => a.localeCompare(b)).map(([key, list]) => {
    const [providerId, methodId] = key.split("\u0000") as [string, string]
    const buckets = Array.from({ length: hours }, (_, i) => ({ hour: first + i * hourMs, items: [] as Array<RoutingOutcome> }))
    for (const o of list) {
      const i = Math.floor((o.at - first) / hourMs)
      if (i >= 0 && i < hours) buckets[i]!.items.push(o)
    }
    const hourly = buckets.map(({ hour, items }) => {
      const answered = items.filter((o) => o.kind === "ok" || o.kind === "bad")
      const latencies = answered.map((o) => o.latencyMs).sort((a, b) => a - b)
      const converted = items.filter((o) => o.kind === "converted").length
      const notConverted = items.filter((o) => o.kind === "not_converted").length
      return {
        hour,
        attempts: answered.length,
        bad: answered.filter((o) => o.kind === "bad").length,
        converted,
        notConverted,
        conversion: rate(converted, notConverted),
        p50LatencyMs: percentile(latencies, 0.5),
        p95LatencyMs: percentile(latencies, 0.95)
      }
    })
    const sum = (f: (h: HourHealth) => number) => hourly.reduce((n, h) => n + f(h), 0)
    const declines = new Map<string, number>()
    for (const { items } of buckets) for (const o of items) if (o.decline !== undefined) declines.set(o.decline, (declines.get(o.decline) ?? 0) + 1)
    return {
      providerId,
      methodId,
      circuit: circuits(providerId, methodId),
      attempts: sum((h) => h.attempts),
      bad: sum((h) => h.bad),
      conversion: rate(sum((h) => h.converted), sum((h) => h.notConverted)),
      declines: Array.from(declines, ([decline, count]) => ({ decline, count })).sort((a, b) => b.count - a.count || a.decline.localeCompare(b.decline)),
      hours: hourly
    }
  })
}
