import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { claimEvents, ClaimStatus, refundStatusOf, transitionClaim } from "../../core/claims/Claim.ts"

describe("claim state machine", () => {
  for (const from of ClaimStatus.literals) {
    for (const event of claimEvents) {
      it(`${from} + ${event}`, () => {
        const result = transitionClaim(from, event)
        if (from === "open") {
          assert.isTrue(Result.isSuccess(result) && result.success === (event === "approve" ? "approved" : "rejected"))
        } else {
          assert.isTrue(Result.isFailure(result))
        }
      })
    }
  }

  it("shows refunds as pending, succeeded, failed", () => {
    assert.deepStrictEqual(ClaimStatus.literals.map(refundStatusOf), ["pending", "succeeded", "failed"])
  })
})
