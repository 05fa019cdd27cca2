import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { sessionEvents, SessionStatus, transitionSession } from "../../core/checkout/CheckoutSession.ts"

const allowed: Record<string, SessionStatus | undefined> = {
  "awaiting_method/method_selected": "completed",
  "awaiting_details/details_completed": "completed"
}

describe("checkout session state machine", () => {
  for (const from of SessionStatus.literals) {
    for (const event of sessionEvents) {
      it(`${from} + ${event}`, () => {
        const result = transitionSession(from, event)
        const to = allowed[`${from}/${event}`]
        if (to === undefined) {
          assert.isTrue(Result.isFailure(result))
          if (Result.isFailure(result)) assert.deepInclude(result.failure, { from, event })
        } else {
          assert.isTrue(Result.isSuccess(result) && result.success === to)
        }
      })
    }
  }
})
