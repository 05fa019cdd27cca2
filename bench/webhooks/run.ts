/**
 * `npx tsx bench/webhooks/run.ts`: the webhook fan-out (`FanOut.ts`) on memory and PGlite (one
 * replica in process) and, when `DATABASE_URL` is set, on PostgreSQL with 1 and 2 replicas
 * against the bare baseline. `BENCH_DELIVERIES` (default 10 000) per run; `BENCH_STORES=postgres`
 * runs those only. Prints a table, then one JSON line per row.
 */
import type { BenchRow, Measure } from "../Row.ts"
import { fanOut } from "./FanOut.ts"

const deliveries = Number(process.env["BENCH_DELIVERIES"] ?? 10_000)
const databaseUrl = process.env["DATABASE_URL"]
const only = process.env["BENCH_STORES"]?.split(",")
const runs = [
  { store: "memory" as const, replicas: 1 },
  { store: "pglite" as const, replicas: 1 },
  ...(databaseUrl === undefined ? [] : [{ store: "postgres" as const, replicas: 1 }, { store: "postgres" as const, replicas: 2 }])
].filter((r) => only === undefined || only.includes(r.store))

const cell = (m: Measure | null) =>
  m === null ? "-" : `${Math.round(m.perSecond)}/s p50 ${m.p50Ms.toFixed(0)} ms p99 ${m.p99Ms.toFixed(0)} ms cpu ${m.cpuMsPerOp.toFixed(3)} ms`

const rows: Array<BenchRow> = []
for (const run of runs) {
  console.error(`${run.store}, ${run.replicas} replica(s), ${deliveries} deliveries`)
  const row = await fanOut({ ...run, databaseUrl, deliveries })
  rows.push(row)
  console.error(`  project  ${cell(row.project)}`)
  console.error(`  baseline ${cell(row.baseline)}`)
  if (row.baseline !== null) console.error(`  ratio project/baseline ${(row.project.perSecond / row.baseline.perSecond).toFixed(2)}`)
}
for (const row of rows) console.log(JSON.stringify(row))
