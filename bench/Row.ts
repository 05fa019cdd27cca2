/** One measured line of the bench: the project and the bare baseline doing the same work. */
export interface Measure {
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** CPU time of the server process (user + system) per request or delivery. */
  readonly cpuMsPerOp: number
  /** Of `cpuMsPerOp`, the time in the kernel (Linux; none for the fan-out). */
  readonly kernelCpuMsPerOp?: number | undefined
  /** Write calls of the server process per request: its socket writes (Linux; none for the fan-out). */
  readonly writeCallsPerOp?: number | undefined
  /** CPU time of the load generator's process per request (none for the fan-out). */
  readonly generatorCpuMsPerOp?: number | undefined
  /** The load generator's CPU over the run, in % of one core: near 100 (one thread), it is the bottleneck. */
  readonly generatorCpuPct?: number | undefined
}

export interface BenchRow {
  readonly work: string
  readonly store: string
  /** HTTP connections of the load (none for the fan-out). */
  readonly connections?: number | null | undefined
  readonly project: Measure
  readonly baseline: Measure | null
}

/** The `p` quantile (0..1) of ascending `sorted` values (0 when empty). */
export const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/** The median of each figure over several rounds. */
export const medianOf = (rounds: ReadonlyArray<Measure>): Measure => ({
  perSecond: median(rounds.map((r) => r.perSecond)),
  p50Ms: median(rounds.map((r) => r.p50Ms)),
  p99Ms: median(rounds.map((r) => r.p99Ms)),
  cpuMsPerOp: median(rounds.map((r) => r.cpuMsPerOp)),
  ...(rounds.some((r) => r.kernelCpuMsPerOp === undefined) ? {} : {
    kernelCpuMsPerOp: median(rounds.map((r) => r.kernelCpuMsPerOp ?? 0)),
    writeCallsPerOp: median(rounds.map((r) => r.writeCallsPerOp ?? 0))
  }),
  ...(rounds.some((r) => r.generatorCpuPct === undefined) ? {} : {
    generatorCpuMsPerOp: median(rounds.map((r) => r.generatorCpuMsPerOp ?? 0)),
    generatorCpuPct: median(rounds.map((r) => r.generatorCpuPct ?? 0))
  })
})

const cell = (value: number | string, width: number) => String(value).padStart(width)

const gen = (m: Measure) => cell(m.generatorCpuPct === undefined ? "-" : Math.round(m.generatorCpuPct), 4)

/** The table, one line per row; ratio is project / baseline throughput; gen% is the load generator's CPU (% of a core). */
export const table = (rows: ReadonlyArray<BenchRow>): string => {
  const head = [
    "work".padEnd(46), "store".padEnd(8), cell("conn", 4),
    cell("req/s", 7), cell("p50", 6), cell("p99", 6), cell("cpu/op", 7), cell("gen%", 4),
    cell("base/s", 7), cell("p50", 6), cell("p99", 6), cell("cpu/op", 7), cell("gen%", 4), cell("ratio", 6)
  ].join(" ")
  const lines = rows.map((r) =>
    [
      r.work.padEnd(46), r.store.padEnd(8), cell(r.connections ?? "-", 4),
      cell(Math.round(r.project.perSecond), 7), cell(r.project.p50Ms.toFixed(1), 6), cell(r.project.p99Ms.toFixed(1), 6), cell(r.project.cpuMsPerOp.toFixed(2), 7), gen(r.project),
      ...(r.baseline === null
        ? [cell("-", 7), cell("-", 6), cell("-", 6), cell("-", 7), cell("-", 4), cell("-", 6)]
        : [
          cell(Math.round(r.baseline.perSecond), 7), cell(r.baseline.p50Ms.toFixed(1), 6), cell(r.baseline.p99Ms.toFixed(1), 6),
          cell(r.baseline.cpuMsPerOp.toFixed(2), 7), gen(r.baseline), cell((r.project.perSecond / r.baseline.perSecond).toFixed(2), 6)
        ])
    ].join(" ")
  )
  return [head, ...lines].join("\n")
}
