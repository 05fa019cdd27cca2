/** The payout state machine: every transition and every refused one. */
import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { type PayoutAction, PayoutAction as Actions, type PayoutStatus, transitionPayout } from "../../core/payouts/Payout.ts"

const expected: Record<PayoutAction, PayoutStatus> = {
  completed: "completed",
  paid: "completed",
  failed: "failed",
  rejected: "failed",
  refunded: "failed",
  returned: "failed",
  processing: "processing"
}

describe("transitionPayout", () => {
  it("moves a processing payout by every action", () => {
    for (const action of Actions.literals) {
      const next = transitionPayout("processing", action)
      assert.isTrue(Result.isSuccess(next), action)
      if (Result.isSuccess(next)) assert.strictEqual(next.success, expected[action])
    }
  })

  it("refuses every action on a final payout", () => {
    for (const from of ["completed", "failed"] as const) {
      for (const action of Actions.literals) {
        const next = transitionPayout(from, action)
        assert.isTrue(Result.isFailure(next), `${from} + ${action}`)
        if (Result.isFailure(next)) assert.deepInclude(next.failure, { from, action })
      }
    }
  })
})
