/** Everything a host writes to the console while the scope is open, as text lines (for scans of what a run logged). */
import { Effect } from "effect"
import { inspect } from "node:util"
import { vi } from "vitest"

export const captureConsole = Effect.acquireRelease(
  Effect.sync(() => {
    const lines: Array<string> = []
    for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: Array<unknown>) => {
        lines.push(args.map((a) => (typeof a === "string" ? a : inspect(a, { depth: 20 }))).join(" "))
      })
    }
    return lines
  }),
  () => Effect.sync(() => vi.restoreAllMocks())
)
