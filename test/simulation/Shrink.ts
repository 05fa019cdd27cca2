/**
 * Shrinking a failing history: cut it after the failing step, then drop chunks of steps (halves,
 * quarters, ... single steps; a simple delta-debugging loop) while the shorter history still
 * fails the same invariant. Steps pick what they act on modulo what exists, so every
 * subsequence is a valid history, and each keeps its own seed, so the rest replays the same.
 */
import type { Step } from "./Operations.ts"
import type { RunOptions, RunResult } from "./Run.ts"
import { runHistory } from "./Run.ts"

const codesOf = (result: RunResult) => new Set((result.failure?.violations ?? []).map((v) => v.split(":")[0]))

export interface Shrunk {
  readonly history: ReadonlyArray<Step>
  readonly result: RunResult
  readonly runs: number
}

export const shrink = async (
  history: ReadonlyArray<Step>,
  failed: RunResult,
  options: RunOptions = {},
  budget: { readonly runs: number; readonly millis: number } = { runs: 400, millis: 60_000 }
): Promise<Shrunk> => {
  const wanted = codesOf(failed)
  const started = Date.now()
  let runs = 0
  let best = history.slice(0, (failed.failure?.step ?? history.length - 1) + 1)
  let bestResult = failed
  const stillFails = async (candidate: ReadonlyArray<Step>) => {
    runs++
    const result = await runHistory(candidate, { ...options, verbose: false })
    const same = !result.ok && [...codesOf(result)].some((c) => wanted.has(c))
    return same ? result : undefined
  }
  let chunk = Math.max(1, Math.floor(best.length / 2))
  while (chunk >= 1) {
    let removed = false
    for (let start = 0; start < best.length; ) {
      if (runs >= budget.runs || Date.now() - started > budget.millis) return { history: best, result: bestResult, runs }
      const candidate = [...best.slice(0, start), ...best.slice(start + chunk)]
      const result = candidate.length === 0 ? undefined : await stillFails(candidate)
      if (result !== undefined) {
        best = candidate.slice(0, (result.failure?.step ?? candidate.length - 1) + 1)
        bestResult = result
        removed = true
      } else {
        start += chunk
      }
    }
    if (!removed) chunk = Math.floor(chunk / 2)
  }
  return { history: best, result: bestResult, runs }
}
