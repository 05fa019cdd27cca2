import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { claimEvents, ClaimKind, ClaimStatus, refundStatusOf, transitionClaim } from "../../core/refunds/Claim.ts"

/** The whole table: kind + status + event -> the next status, "=" for a repeat, or refused. */
const expected: Readonly<Record<string, string>> = {
  "user_dispute/open/approve": "approved",
  "user_dispute/open/reject": "rejected",
  "user_dispute/approved/approve": "=",
  "user_dispute/rejected/reject": "=",
  "chargeback/open/win": "won",
  "chargeback/open/lose": "lost",
  "chargeback/won/win": "=",
  "chargeback/lost/lose": "="
}

describe("claim state machine", () => {
  for (const kind of ClaimKind.literals) {
    for (const from of ClaimStatus.literals) {
      for (const event of claimEvents) {
        const key = `${kind}/${from}/${event}`
        it(`${key} -> ${expected[key] ?? "refused"}`, () => {
          const result = transitionClaim(kind, from, event)
          const want = expected[key]
          if (want === undefined) {
            assert.isTrue(Result.isFailure(result))
          } else if (want === "=") {
            assert.isTrue(Result.isSuccess(result) && result.success._tag === "Unchanged" && result.success.status === from)
          } else {
            assert.isTrue(Result.isSuccess(result) && result.success._tag === "Moved" && result.success.to === want)
          }
        })
      }
    }
  }

  it("shows refunds as pending, succeeded, failed", () => {
    assert.deepStrictEqual((["open", "approved", "rejected"] as const).map(refundStatusOf), ["pending", "succeeded", "failed"])
  })
})
