import { assert, describe, it } from "@effect/vitest"
import { type DeliveryEvent, deliveryTransition, type DeliveryStatus } from "../../core/webhooks/Webhook.ts"

const statuses: ReadonlyArray<DeliveryStatus> = ["pending", "failed", "succeeded", "dead_letter"]
const events: ReadonlyArray<DeliveryEvent> = ["delivered", "refused", "given_up", "replayed"]

const allowed: Record<string, DeliveryStatus> = {
  "pending/delivered": "succeeded",
  "pending/refused": "failed",
  "pending/given_up": "dead_letter",
  "pending/replayed": "pending",
  "failed/delivered": "succeeded",
  "failed/refused": "failed",
  "failed/given_up": "dead_letter",
  "failed/replayed": "pending",
  "succeeded/replayed": "pending",
  "dead_letter/replayed": "pending"
}

describe("webhook delivery state machine", () => {
  for (const from of statuses) {
    for (const event of events) {
      it(`${from} + ${event}`, () => {
        assert.strictEqual(deliveryTransition(from, event), allowed[`${from}/${event}`])
      })
    }
  }
})
