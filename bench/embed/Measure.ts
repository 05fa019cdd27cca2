/**
 * The memory store through the embedding: one embedded server (`Server.ts`) per fill of
 * `BENCH_EMBED_FILLS` (2 000 and 30 000), each filled with that many POST /payments (32
 * connections; the requests in flight when the count is reached, at most one per connection,
 * come on top), then measured interleaved, round by round, with `BENCH_EMBED_REQUESTS` (2 000)
 * POST /payments each at 16 connections: a count rather than a duration, so each store grows by a
 * known amount while it is measured. Rows: req/s, latency and server CPU per request after each
 * fill; no baseline.
 */
import type { BenchRow } from "../Row.ts"
import { interleaved, load, settings, type Target } from "../support/Measure.ts"
import { type Child, start } from "../support/Processes.ts"
import { ensureBuilt } from "../support/Startup.ts"

export const embedded = async (): Promise<{ readonly rows: ReadonlyArray<BenchRow> }> => {
  ensureBuilt()
  const children: Array<Child> = []
  try {
    for (const _ of settings.embedFills) children.push(await start("bench/embed/Server.ts", {}))
    const targets: Array<Target> = children.map((child) => ({ child, token: String(child.ready["token"]) }))
    // The fill is also the warm-up.
    for (const [i, target] of targets.entries()) await load(target, "payment", 32, settings.embedFills[i]!)
    const measured = await interleaved(targets, "payment", 16, settings.embedRequests)
    return {
      rows: settings.embedFills.map((fill, i) => ({
        work: `POST /api/v1/payments, embedded, +${fill} stored`,
        store: "memory",
        connections: 16,
        project: measured[i]!,
        baseline: null
      }))
    }
  } finally {
    await Promise.all(children.map((c) => c.stop()))
  }
}
