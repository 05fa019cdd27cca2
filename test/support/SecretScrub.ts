/**
 * The harness of the "secrets never leak" tests of provider connectors: every log line (at every
 * level) and every rendering of every recorded failure (`Cause.pretty`, `String`, `inspect`,
 * `JSON.stringify`) is kept, and none may contain any of the secrets.
 */
import { assert } from "@effect/vitest"
import { Cause, Effect, Exit, Logger, References } from "effect"
import { inspect } from "node:util"

export interface Scrub {
  /** Records a call that must have failed, and logs it as an application would. */
  readonly failed: (exit: Exit.Exit<unknown, unknown>) => Effect.Effect<void>
  /** Records any other text that must stay clean (an object rendered, a thrown message...). */
  readonly text: (...texts: ReadonlyArray<string>) => void
}

export const withSecretScrub = <E, R>(
  secrets: ReadonlyArray<string>,
  body: (scrub: Scrub) => Effect.Effect<void, E, R>
): Effect.Effect<void, E, R> => {
  const lines: Array<string> = []
  const texts: Array<string> = []
  const scrub: Scrub = {
    failed: (exit) =>
      Effect.gen(function*() {
        assert.isTrue(Exit.isFailure(exit), "expected the call to fail")
        if (Exit.isFailure(exit)) {
          const error = Cause.squash(exit.cause)
          texts.push(Cause.pretty(exit.cause), String(error), inspect(error, { depth: 10 }), JSON.stringify(error))
        }
        yield* Effect.logError("call failed", exit)
      }),
    text: (...more) => void texts.push(...more)
  }
  return body(scrub).pipe(
    Effect.andThen(Effect.sync(() => {
      const all = [...texts, ...lines].join("\n")
      assert.isAbove(lines.length, 0, "something was logged")
      for (const secret of secrets) {
        const at = all.indexOf(secret)
        assert.strictEqual(at, -1, `a secret leaked here: ...${all.slice(Math.max(0, at - 160), at + secret.length + 40)}...`)
      }
    })),
    Effect.provide(Logger.layer([Logger.map(Logger.formatLogFmt, (line) => void lines.push(line))])),
    Effect.provideService(References.MinimumLogLevel, "All")
  )
}
