import { assert, describe, it } from "@effect/vitest"
import { DateTime, Result } from "effect"
import type { Payment } from "../../core/payments/Payment.ts"
import { advance, isFinal, type PaymentEvent, paymentEvents, PaymentRecordStatus, transition } from "../../core/payments/PaymentState.ts"

const statuses = PaymentRecordStatus.literals

const allowed: Record<string, PaymentRecordStatus | undefined> = {
  "initiated/routed": "pending",
  "initiated/failed": "failed",
  "pending/confirmed": "completed",
  "pending/failed": "failed",
  "pending/expired": "expired",
  "pending/authorized": "authorized",
  "authorized/captured": "completed",
  "authorized/voided": "voided",
  "authorized/expired": "expired",
  "completed/refunded_in_full": "refunded",
  "completed/chargeback_opened": "chargeback"
}

const reachedBy: Record<PaymentEvent, PaymentRecordStatus> = {
  routed: "pending",
  confirmed: "completed",
  failed: "failed",
  expired: "expired",
  refunded_in_full: "refunded",
  chargeback_opened: "chargeback",
  authorized: "authorized",
  captured: "completed",
  voided: "voided"
}

describe("payment state machine", () => {
  for (const from of statuses) {
    for (const event of paymentEvents) {
      const key = `${from}/${event}`
      it(`${from} + ${event}`, () => {
        const result = transition(from, event)
        if (allowed[key] !== undefined) {
          assert.isTrue(Result.isSuccess(result))
          if (Result.isSuccess(result)) assert.deepInclude(result.success, { _tag: "Moved", from, to: allowed[key] })
        } else if (reachedBy[event] === from) {
          // A repeat of the event that led here is idempotent.
          assert.isTrue(Result.isSuccess(result) && result.success._tag === "Unchanged")
        } else {
          assert.isTrue(Result.isFailure(result))
          if (Result.isFailure(result)) {
            assert.strictEqual(result.failure._tag, "InvalidTransition")
            assert.strictEqual(result.failure.from, from)
            assert.strictEqual(result.failure.event, event)
          }
        }
      })
    }
  }

  it("only initiated, pending, authorized and completed have moves left", () => {
    assert.deepStrictEqual(statuses.filter((s) => !isFinal(s)), ["initiated", "pending", "authorized", "completed"])
  })

  it("advance: the one way to the next version, the status only through the table, the version bumped", () => {
    const at = DateTime.makeUnsafe("2026-11-27T00:00:00Z")
    const before = DateTime.makeUnsafe("2026-11-26T00:00:00Z")
    for (const from of statuses) {
      // Only the fields advance touches matter here.
      const p = { id: "TXN-1", status: from, version: 3, updatedAt: before, failureReason: null } as unknown as Payment
      const plain = advance(p, at, { failureReason: "noted" })
      assert.isTrue(Result.isSuccess(plain))
      if (Result.isSuccess(plain)) assert.deepInclude(plain.success, { id: "TXN-1", status: from, version: 4, updatedAt: at, failureReason: "noted" })
      for (const event of paymentEvents) {
        const moved = advance(p, at, {}, event)
        const step = transition(from, event)
        assert.strictEqual(Result.isSuccess(moved), Result.isSuccess(step), `${from} + ${event}`)
        if (Result.isSuccess(moved) && Result.isSuccess(step)) {
          assert.strictEqual(moved.success.status, step.success._tag === "Moved" ? step.success.to : from)
          assert.strictEqual(moved.success.version, 4)
        }
      }
    }
  })
})
