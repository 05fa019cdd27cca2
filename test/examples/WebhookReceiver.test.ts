/**
 * examples/webhook-receiver as a merchant runs it: a correctly signed body that is not a JSON
 * object gets 400 (it crashed the server before), a bad signature gets 400, and the same server
 * then accepts a genuine event (204) and hands it over.
 */
import { createHmac } from "node:crypto"
import type { AddressInfo } from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { type ReceivedEvent, startReceiver } from "../../examples/webhook-receiver/main.ts"

const secret = "whsec_receiver_test"
/** The header the engine sends, computed the way a receiver in another language would check it. */
const signed = (body: string, key = secret) => {
  const t = Math.floor(Date.now() / 1000)
  return `t=${t},v1=${createHmac("sha256", key).update(`${t}.${body}`).digest("hex")}`
}

describe("examples/webhook-receiver", () => {
  it("answers 400 to a signed body that is not a JSON object, and keeps serving", async () => {
    const received: Array<ReceivedEvent> = []
    const server = await startReceiver({ port: 0, secret, onEvent: (e) => received.push(e) })
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    const post = (body: string, signature: string) =>
      fetch(url, { method: "POST", headers: { "x-service-signature": signature, "x-service-delivery": "whd_1" }, body })
    try {
      for (const body of ["not json", "[1,2]", "\"text\"", "null"]) {
        const answer = await post(body, signed(body))
        assert.strictEqual(answer.status, 400, body)
        assert.strictEqual(await answer.text(), "the body is not a JSON object")
      }
      const forged = await post("{}", signed("{}", "whsec_other"))
      assert.strictEqual(forged.status, 400)
      const event = JSON.stringify({ id: "evt_1", type: "payment.completed", data: { transactionId: "TXN-1" } })
      const accepted = await post(event, signed(event))
      assert.strictEqual(accepted.status, 204)
      assert.deepStrictEqual(received.map((e) => [e.id, e.type, e.deliveryId]), [["evt_1", "payment.completed", "whd_1"]])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
