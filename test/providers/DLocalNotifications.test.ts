/**
 * dLocal's notifications as dLocal retries them: "every 1 hour for 6 hours, then every 12 hours
 * for 4 days" (https://docs.dlocal.com/docs/receive-notifications; older pages: "once an hour for 7
 * days"). A retried notification keeps the `X-Date` it was signed with, so a correctly signed one
 * is accepted however late it arrives within that horizon; the engine applies a status
 * idempotently. Time is the Effect clock (TestClock).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Redacted } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { FetchHttpClient } from "effect/http"
import { TestClock } from "effect/testing"
import { credentials, optionsFor } from "../../providers/dlocal/ConformanceHarness.ts"
import { make } from "../../providers/dlocal/DLocalProvider.ts"
import { makePayouts } from "../../providers/dlocal/Payouts.ts"
import { optionsFor as payoutOptionsFor } from "../../providers/dlocal/PayoutsHarness.ts"
import { notificationHeaders } from "../../providers/dlocal/SimulatorSigning.ts"

const Live = Layer.mergeAll(FetchHttpClient.layer, Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto)))

const now = Date.parse("2026-03-02T12:00:00.000Z")
const at = (offsetMs: number) => new Date(now + offsetMs).toISOString()
const hour = 3_600_000

const payment = JSON.stringify({ id: "D-4-be8eda8c", order_id: "TXN-LATE-1", status: "PAID", status_detail: "The payment was paid." })

describe("dLocal notifications arrive as dLocal retries them", () => {
  it.effect("a payment notification signed 2 hours ago (dLocal's second retry) is accepted once its signature checks", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const provider = yield* make(optionsFor("http://127.0.0.1:9"))
      const updates = yield* provider.verifyCallback(notificationHeaders(credentials, payment, at(-2 * hour)), payment)
      assert.deepStrictEqual(updates.map((u) => [u.providerRef, u.transactionId, u.status]), [["D-4-be8eda8c", "TXN-LATE-1", "completed"]])
      // Four days and a half late (the last of the 12-hourly retries) still reads.
      const last = yield* provider.verifyCallback(notificationHeaders(credentials, payment, at(-4.5 * 24 * hour)), payment)
      assert.strictEqual(last.length, 1)
    }).pipe(Effect.provide(Live)))

  it.effect("the signature still decides: a late notification with a wrong signature, or dated past the retry horizon or in the future, is refused", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const provider = yield* make(optionsFor("http://127.0.0.1:9"))
      const wrong = notificationHeaders({ ...credentials, secretKey: "someone_else" }, payment, at(-2 * hour))
      assert.isTrue(Exit.isFailure(yield* Effect.exit(provider.verifyCallback(wrong, payment))))
      const beyond = notificationHeaders(credentials, payment, at(-9 * 24 * hour))
      assert.isTrue(Exit.isFailure(yield* Effect.exit(provider.verifyCallback(beyond, payment))))
      const ahead = notificationHeaders(credentials, payment, at(10 * 60_000))
      assert.isTrue(Exit.isFailure(yield* Effect.exit(provider.verifyCallback(ahead, payment))))
    }).pipe(Effect.provide(Live)))

  it.effect("a payout notification signed 2 hours ago is accepted too", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const provider = yield* makePayouts(payoutOptionsFor("http://127.0.0.1:9"))
      const body = JSON.stringify({ id: "PO-4-39b09aad", external_id: "po-late-1", status: "PAID", status_code: "200", status_detail: "The payout was paid" })
      const options = payoutOptionsFor("http://127.0.0.1:9")
      const signer = { login: Redacted.value(options.login), secretKey: Redacted.value(options.secretKey) }
      const updates = yield* provider.verifyCallback(notificationHeaders(signer, body, at(-2 * hour)), body)
      assert.deepStrictEqual(updates.map((u) => [u.providerRef, u.payoutId, u.status]), [["PO-4-39b09aad", "po-late-1", "completed"]])
    }).pipe(Effect.provide(Live)))
})
