/**
 * The bench as a smoke check (no thresholds): its short version runs on memory (the stores differ
 * only in the store layer the bench starts; `npm run bench` covers PGlite and PostgreSQL), the
 * project and the baseline answer every request, and the table has a row per work with positive
 * figures. The figures themselves come from `npm run bench` on a quiet machine.
 */
import { execFileSync } from "node:child_process"
import { assert, describe, it } from "vitest"
import type { BenchRow } from "../../bench/Row.ts"

describe("npm run bench -- --short", () => {
  it("measures the project and the baseline on memory", () => {
    const output = execFileSync(process.execPath, ["--import", "tsx", "bench/run.ts", "--short"], {
      env: { ...process.env, BENCH_STORES: "memory", BENCH_SECONDS: "1", BENCH_FILL: "300", BENCH_DELIVERIES: "300" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 240_000
    })
    const rows = JSON.parse(output.trim().split("\n").at(-1)!) as ReadonlyArray<BenchRow>
    for (const store of ["memory"]) {
      const works = rows.filter((r) => r.store === store).map((r) => r.work)
      assert.includeMembers(works, ["GET /api/v1/me", "POST /api/v1/payments", "POST /api/v1/payments +300 stored"])
      assert.isTrue(works.some((w) => w.startsWith("webhook fan-out")), works.join(", "))
    }
    for (const row of rows) {
      assert.isAbove(row.project.perSecond, 0, row.work)
      assert.isAbove(row.project.p99Ms, 0, row.work)
      if (row.baseline !== null) assert.isAbove(row.baseline.perSecond, 0, row.work)
    }
    assert.match(output, /start-up of the compiled host \(node dist\/host\/main\.js\) on an empty pglite store to its first answer: \d+ ms/)
  }, 300_000)
})
