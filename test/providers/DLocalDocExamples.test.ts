/**
 * dLocal's own examples (`fixtures/dlocal/*.json`, each naming the page or artifact it is from)
 * against the simulator and the connector: the simulator accepts what dLocal's documentation and its
 * Technical Account Management Postman collection send, and the connector reads what they answer
 * and notify. A simulator written by the same hand as the connector would repeat its misreadings;
 * these bodies were written by dLocal.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted, Schema } from "effect"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { credentials, Live, optionsFor } from "../../providers/dlocal/ConformanceHarness.ts"
import { make } from "../../providers/dlocal/DLocalProvider.ts"
import { makePayouts } from "../../providers/dlocal/Payouts.ts"
import { TokenAnswer } from "../../providers/dlocal/PayoutsClient.ts"
import { credentials as payoutCredentials, optionsFor as payoutOptionsFor } from "../../providers/dlocal/PayoutsHarness.ts"
import { PayoutsSimulator } from "../../providers/dlocal/PayoutsSimulator.ts"
import { DLocalSimulator } from "../../providers/dlocal/DLocalSimulator.ts"
import { authorizationOf, notificationHeaders } from "../../providers/dlocal/SimulatorSigning.ts"
import * as Wire from "../../providers/dlocal/Wire.ts"

const fixture = (name: string): string => JSON.parse(readFileSync(new URL(`./fixtures/dlocal/${name}`, import.meta.url), "utf8")).body

/** A signed POST as dLocal's examples send it: no `X-Version` (the Postman collection sends none). */
const post = (baseUrl: string, path: string, body: string) =>
  Effect.promise(async () => {
    const date = new Date().toISOString()
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-date": date, "x-login": credentials.login, "x-trans-key": credentials.transKey, authorization: authorizationOf(credentials, date, body) },
      body
    })
    return { status: response.status, body: await response.json() as Record<string, unknown> }
  })

describe("dLocal's documented examples", () => {
  it.live("the simulator accepts the documented payment requests (checkout redirect without a method, PIX redirect; the collection's SPEI redirect)", () =>
    Effect.gen(function*() {
      const sim = yield* DLocalSimulator.start(credentials)
      yield* sim.dropCallbacks(true)
      for (const name of ["payment-request-checkout.json", "payment-request-pix.json", "payment-request-redirect.json"]) {
        const answer = yield* post(sim.baseUrl, "/payments", fixture(name))
        assert.strictEqual(answer.status, 200, `${name}: ${JSON.stringify(answer.body)}`)
        assert.deepInclude(answer.body, { status: "PENDING", order_id: JSON.parse(fixture(name)).order_id })
        // What the simulator answered, the connector reads.
        const read = Schema.decodeUnknownSync(Wire.PaymentObject)(answer.body)
        assert.strictEqual(Wire.toChargeStatus(read.status), "pending")
      }
    }).pipe(Effect.provide(Live)))

  it.live("the simulator accepts the documented refund request (USD, no order_refund_id) and the collection's (no notification_url)", () =>
    Effect.gen(function*() {
      const sim = yield* DLocalSimulator.start(credentials)
      yield* sim.dropCallbacks(true)
      yield* sim.seedPayment({ id: "PAY4334346343", orderId: "ORD-DOC-1", amount: "1000", currency: "USD", country: "BR" })
      yield* sim.seedPayment({ id: "D-4-0241a93e-36d0-4f59-a713-0522308aafea", orderId: "ORD-DOC-2", amount: "500", currency: "MXN", country: "MX" })
      const documented = yield* post(sim.baseUrl, "/refunds", fixture("refund-request.json"))
      assert.strictEqual(documented.status, 200, JSON.stringify(documented.body))
      assert.deepInclude(documented.body, { payment_id: "PAY4334346343", status: "SUCCESS", notification_url: "http://some.url" })
      const collection = yield* post(sim.baseUrl, "/refunds", fixture("refund-request-apm.json"))
      assert.strictEqual(collection.status, 200, JSON.stringify(collection.body))
      assert.deepInclude(collection.body, { currency: "MXN", amount: 100 })
    }).pipe(Effect.provide(Live)))

  it("the connector reads the documented refund answer and payment answer", () => {
    const refund = Schema.decodeUnknownSync(Schema.fromJsonString(Wire.RefundObject))(fixture("refund-response.json"))
    assert.deepInclude(refund, { id: "REF42342", payment_id: "PAY4334346343", status: "SUCCESS" })
    assert.strictEqual(Wire.toRefundStatus(refund.status), "succeeded")
    const payment = Schema.decodeUnknownSync(Schema.fromJsonString(Wire.PaymentObject))(fixture("payment-response.json"))
    assert.deepInclude(payment, { id: "PAY2323243343543", order_id: "657434343", notification_url: "http://merchant.com/notifications" })
    assert.strictEqual(Wire.toUpdateStatus(payment.status), "completed")
  })

  it.live("the connector verifies and reads the documented payment notification and refund notification, signed", () =>
    Effect.gen(function*() {
      const provider = yield* make(optionsFor("http://127.0.0.1:9"))
      const payment = fixture("payment-notification.json")
      const updates = yield* provider.verifyCallback(notificationHeaders(credentials, payment), payment)
      assert.deepStrictEqual(updates.map((u) => [u.providerRef, u.transactionId, u.status]), [["D-4-be8eda8c-5fe7-49dd-8058-4ddaac00611b", "4m1OdghPUQtg", "completed"]])
    }).pipe(Effect.provide(Live)))

  it.live("the documented refund notification, signed, is read with its payment (the documented payment answer) and carries the refund as notified", () =>
    Effect.gen(function*() {
      const refund = fixture("refund-notification.json")
      // The notification names the payment by payment_id only; the connector reads that payment.
      const answer = JSON.stringify({ ...JSON.parse(fixture("payment-response.json")), id: "PAY245235" })
      const upstream = createServer((req, res) => {
        req.resume()
        if (req.method === "GET" && req.url === "/payments/PAY245235") res.writeHead(200, { "content-type": "application/json" }).end(answer)
        else res.writeHead(404).end()
      })
      yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve()))),
        () => Effect.sync(() => upstream.close())
      )
      const provider = yield* make(optionsFor(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`))
      const updates = yield* provider.verifyCallback(notificationHeaders(credentials, refund), refund)
      assert.deepStrictEqual(updates.map((u) => [u.providerRef, u.refunds?.map((r) => [r.providerRef, r.status])]), [["PAY245235", [["REF42342", "succeeded"]]]])
    }).pipe(Effect.scoped, Effect.provide(Live)))

  it.live("Payouts v3: the simulator issues a token for the documented token request; the connector reads the documented token answer and payout notification", () =>
    Effect.gen(function*() {
      const sim = yield* PayoutsSimulator.start({ ...payoutCredentials, clientId: "{CLIENT_ID}", clientSecret: "{CLIENT_SECRET}" })
      const issued = yield* Effect.promise(() =>
        fetch(`${sim.baseUrl}/oauth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: fixture("payouts-token-request.json") }).then(async (r) => ({ status: r.status, body: await r.json() }))
      )
      assert.strictEqual(issued.status, 200)
      assert.deepInclude(issued.body, { token_type: "Bearer", scope: "payouts", expires_in: 180 })
      const token = Schema.decodeUnknownSync(Schema.fromJsonString(TokenAnswer))(fixture("payouts-token-response.json"))
      assert.deepInclude(token, { expires_in: 180, token_type: "Bearer" })

      const options = payoutOptionsFor("http://127.0.0.1:9")
      const provider = yield* makePayouts(options)
      const body = fixture("payout-notification.json")
      const signer = { login: Redacted.value(options.login), secretKey: Redacted.value(options.secretKey) }
      const updates = yield* provider.verifyCallback(notificationHeaders(signer, body), body)
      assert.deepStrictEqual(updates.map((u) => [u.providerRef, u.payoutId, u.status]), [["PO-4-39b09aad-7e25-4d56-92aa-cf30a19e5b99", "ex_id8910", "processing"]])
    }).pipe(Effect.provide(Live)))
})
