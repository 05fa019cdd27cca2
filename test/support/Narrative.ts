/**
 * A long test told in steps: `narrative((step) => Effect.gen(function*() { yield* step("..."); ... }))`.
 * An assertion that fails inside it, or an error it ends with, says which step it happened in, so a
 * failure in a story of twenty checks points at its chapter; what each check asserts is unchanged.
 */
import { Cause, Effect } from "effect"

const prefix = "step \""

/** The error with the step's name in front of its message (and of its stack's first line). */
const name = (step: string, value: unknown) => {
  if (!(value instanceof Error) || value.message.startsWith(prefix)) return
  const before = value.message
  value.message = `${prefix}${step}": ${before}`
  if (typeof value.stack === "string") value.stack = value.stack.replace(before, value.message)
}

export const narrative = <A, E, R>(story: (step: (name: string) => Effect.Effect<void>) => Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  let current = "(before the first step)"
  const step = (next: string) =>
    Effect.sync(() => {
      current = next
    })
  return story(step).pipe(Effect.tapCause((cause) =>
    Effect.sync(() => {
      for (const reason of cause.reasons) {
        if (Cause.isFailReason(reason)) name(current, reason.error)
        else if (Cause.isDieReason(reason)) name(current, reason.defect)
      }
    })
  ))
}
