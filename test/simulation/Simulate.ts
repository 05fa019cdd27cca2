/**
 * A seeded simulation run: draw the history of a seed, run it, and on a failure print the
 * history, shrink it and print the shortest failing history with its seed. The same seed (and
 * step count and store) replays the same history.
 */
import { generate, describeStep, type Step } from "./Operations.ts"
import { runHistory, type RunOptions, type RunResult } from "./Run.ts"
import { shrink } from "./Shrink.ts"

export interface SimulationReport {
  readonly seed: number
  readonly result: RunResult
  readonly shortest?: ReadonlyArray<Step>
  readonly stepsPerSecond: number
}

const print = (lines: ReadonlyArray<string>, out: (line: string) => void) => lines.forEach((l) => out(l))

export const simulate = async (
  seed: number,
  steps: number,
  options: RunOptions & {
    readonly shrink?: boolean
    /** At most this many replays and milliseconds of shrinking. */
    readonly shrinkBudget?: { readonly runs: number; readonly millis: number }
    readonly out?: (line: string) => void
  } = {}
): Promise<SimulationReport> => {
  const out = options.out ?? ((line: string) => console.log(line))
  const history = generate(seed, steps)
  const result = await runHistory(history, options)
  const stepsPerSecond = result.steps / Math.max(result.millis / 1000, 1e-9)
  if (result.ok) return { seed, result, stepsPerSecond }
  out(`seed ${seed}: invariant failed after step ${result.failure!.step}`)
  for (const v of result.failure!.violations) out(`  ${v}`)
  out(`history (${result.log.length} steps):`)
  print(result.log, out)
  if (options.shrink === false) return { seed, result, stepsPerSecond }
  const shrunk = await shrink(history, result, options, options.shrinkBudget)
  out(`shortest failing history found (${shrunk.history.length} of ${result.steps} steps, ${shrunk.runs} runs); seed ${seed}, --steps ${steps}${options.store === undefined ? "" : ` --store ${options.store}`}:`)
  print(shrunk.history.map((s, i) => `${String(i).padStart(4)}  ${describeStep(s)}`), out)
  out("its run:")
  print(shrunk.result.log, out)
  for (const v of shrunk.result.failure?.violations ?? []) out(`  ${v}`)
  return { seed, result, shortest: shrunk.history, stepsPerSecond }
}
