/**
 * The routing cascade and the payment life cycle over real sockets, with the reference HTTP
 * provider talking to two upstream simulators: fail-over, no fail-over after a lost answer, signed
 * callbacks, a lost callback recovered by the reconcile poll, forged callbacks, and an exhausted
 * cascade.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { ReferenceHttpProvider } from "../../providers/reference-http/ReferenceHttpProvider.ts"
import { UpstreamSimulator } from "../../providers/reference-http/UpstreamSimulator.ts"
import { adminToken, baseUrl, call, connectorInstance, createMerchant, eventually, testHost } from "../support/Host.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

class Upstreams extends Context.Service<Upstreams, { readonly a: UpstreamSimulator; readonly b: UpstreamSimulator }>()("test/Upstreams") {}

const credentials = { apiKey: "upstream-api-key", callbackSecret: "upstream-callback-secret" }

const HostWithUpstreams = Layer.unwrap(Effect.gen(function*() {
  // `slow` answers after the connector's 2 s timeout: the charge is made, its answer lost.
  const a = yield* UpstreamSimulator.start({ ...credentials, slowMs: 2_500 })
  const b = yield* UpstreamSimulator.start(credentials)
  const provider = (id: string, sim: UpstreamSimulator) =>
    connectorInstance(ReferenceHttpProvider.connector, { id, environment: "sandbox", baseUrl: sim.baseUrl }, {
      API_KEY: credentials.apiKey,
      CALLBACK_SECRET: credentials.callbackSecret
    })
  return Layer.merge(
    testHost(MemoryStore.layer, { connectors: [provider("ref-a", a), provider("ref-b", b)] }),
    Layer.succeed(Upstreams, { a, b })
  )
}))

const admin = apiAs(adminToken)

const route = (shopId: string, providerId: string, priority: number, enabled = true) =>
  Effect.flatMap(admin, (api) =>
    api.admin.putRoute({ params: { shopId, providerId }, payload: { environment: "sandbox", priority, enabled }, responseMode: "decoded-and-response" }))

const setup = Effect.gen(function*() {
  const { a, b } = yield* Upstreams
  yield* a.setMode("ok")
  yield* b.setMode("ok")
  yield* b.dropCallbacks(false)
  const merchant = yield* createMerchant()
  const shopId = merchant.shops[0]!.id
  assert.strictEqual((yield* route(shopId, "ref-a", 1))[1].status, 200)
  assert.strictEqual((yield* route(shopId, "ref-b", 2))[1].status, 200)
  // An explicit, disabled route takes the sandbox provider out of this shop's cascade.
  assert.strictEqual((yield* route(shopId, "sandbox", 3, false))[1].status, 200)
  // These tests are about the cascade itself: the static order, whatever the providers' health.
  const [, routing] = yield* (yield* admin).routingAdmin.putRouting({
    params: { shopId },
    payload: { environment: "sandbox", strategy: "static", rules: [] },
    responseMode: "decoded-and-response"
  })
  assert.strictEqual(routing.status, 200)
  const base = yield* baseUrl
  yield* b.setCallbackTarget(`${base}/api/v1/providers/ref-b/callbacks`)
  return { sk: merchant.keys.sandbox.secretKey, a, b }
})

const payment = { amount: Money.decimal("50"), paymentMethodId: "1001", userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com"), documentId: Redacted.make("52998224725") }

/** Creates the payment; answers it with the raw response (its status asserted). */
const pay = (sk: string, idempotencyKey?: string) =>
  Effect.flatMap(apiAs(sk), (api) =>
    api.payments.create({
      payload: payment,
      headers: idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey },
      responseMode: "decoded-and-response"
    }))

const chargeOf = (sim: UpstreamSimulator, transactionId: string) => [...sim.charges.values()].find((c) => c.reference === transactionId)!

const statusOf = (sk: string, id: string) => Effect.flatMap(apiAs(sk), (api) => api.payments.get({ params: { id } }))

describe("routing cascade over HTTP", () => {
  layer(HostWithUpstreams, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("fails over from an unavailable upstream to a working one and records every attempt", () =>
      Effect.gen(function*() {
        const { a, b, sk } = yield* setup
        yield* a.setMode("unavailable")
        const [created, response] = yield* pay(sk)
        assert.strictEqual(response.status, 201)
        const detail = yield* statusOf(sk, created.transactionId)
        assert.strictEqual(detail.routing.provider, "ref-b")
        assert.deepStrictEqual(detail.routing.attempts.map((x) => [x.provider, x.outcome]), [
          ["ref-a", "failed"],
          ["ref-b", "accepted"]
        ])
        assert.isNumber(detail.routing.attempts[0]!.latencyMs)
        assert.strictEqual(chargeOf(b, created.transactionId).reference, created.transactionId)
        assert.strictEqual(created.paymentFormUrl?.startsWith(b.baseUrl), true)

        // The upstream confirms with a signed callback over HTTP.
        yield* b.complete(chargeOf(b, created.transactionId).id)
        const done = yield* eventually(statusOf(sk, created.transactionId), (p) => p.status !== "pending")
        assert.strictEqual(done.status, "completed")
        assert.strictEqual(b.callbacksSent.at(-1)?.outcome, 200)
      }))

    it.effect("a timeout is no answer: 503 provider_outcome_unknown, the next upstream is not charged, and the retry with the key asks the same one again", () =>
      Effect.gen(function*() {
        const { a, b, sk } = yield* setup
        yield* a.setMode("slow")
        const key = `lost-answer-${Date.now()}`
        const unknown = yield* refused(pay(sk, key))
        assert.strictEqual(unknown.code, "provider_outcome_unknown")
        assert.strictEqual(httpStatus[unknown.code], 503)
        assert.strictEqual(unknown.type, "provider_error")
        assert.deepStrictEqual(unknown.details["provider"], "ref-a")
        assert.strictEqual(unknown.details["reason"], "timeout")
        const id = unknown.details["transactionId"] as string
        // ref-a holds the charge; ref-b, next in the cascade, was never asked.
        assert.isDefined(chargeOf(a, id))
        assert.isUndefined([...b.charges.values()].find((c) => c.reference === id))
        const held = yield* statusOf(sk, id)
        assert.strictEqual(held.status, "pending")
        assert.deepStrictEqual(held.routing.attempts.map((x) => [x.provider, x.outcome]), [["ref-a", "unknown"]])

        yield* a.setMode("ok")
        const [retried, response] = yield* pay(sk, key)
        assert.strictEqual(response.status, 201)
        assert.strictEqual(retried.transactionId, id, "the retry continued the same payment")
        assert.strictEqual([...a.charges.values()].filter((c) => c.reference === id).length, 1, "one charge upstream")
        assert.isTrue(retried.paymentFormUrl?.startsWith(a.baseUrl))
        const [replayed] = yield* pay(sk, key)
        assert.strictEqual(replayed.transactionId, id)
      }))

    it.effect("a lost callback is recovered by the reconcile poll", () =>
      Effect.gen(function*() {
        const { a, b, sk } = yield* setup
        yield* a.setMode("unavailable")
        const [created] = yield* pay(sk)
        yield* b.dropCallbacks(true)
        // `complete` answers once the simulator has made its callback attempt (dropped here): nothing
        // is in flight to wait for.
        yield* b.complete(chargeOf(b, created.transactionId).id)
        assert.strictEqual((yield* statusOf(sk, created.transactionId)).status, "pending")
        assert.strictEqual(b.callbacksSent.at(-1)?.outcome, "dropped")
        const poll = yield* (yield* admin).admin.reconcileNow()
        assert.isAtLeast(poll.moved, 1)
        assert.strictEqual((yield* statusOf(sk, created.transactionId)).status, "completed")
      }))

    // Callbacks stay raw requests: their signature covers the exact bytes sent.
    it.effect("a forged callback gets 401 and changes nothing; a failure callback fails the payment", () =>
      Effect.gen(function*() {
        const { a, b, sk } = yield* setup
        yield* a.setMode("unavailable")
        const [created] = yield* pay(sk)
        const charge = chargeOf(b, created.transactionId)
        const body = JSON.stringify({ id: charge.id, reference: created.transactionId, status: "succeeded" })
        const forged = yield* call("POST", "/api/v1/providers/ref-b/callbacks", {
          rawBody: body,
          headers: { "x-upstream-signature": UpstreamSimulator.signatureOf("not-the-secret", body, Math.floor(Date.now() / 1000)) }
        })
        assert.strictEqual(forged.status, 401)
        const unsigned = yield* call("POST", "/api/v1/providers/ref-b/callbacks", { rawBody: body })
        assert.strictEqual(unsigned.status, 401)
        // Signed by the other provider's upstream for this provider's charge: not ref-a's to say.
        const misdirected = yield* call("POST", "/api/v1/providers/ref-a/callbacks", {
          rawBody: body,
          headers: { "x-upstream-signature": UpstreamSimulator.signatureOf(credentials.callbackSecret, body, Math.floor(Date.now() / 1000)) }
        })
        assert.strictEqual(misdirected.status, 200)
        assert.strictEqual(misdirected.body.applied, 0)
        assert.strictEqual((yield* statusOf(sk, created.transactionId)).status, "pending")

        yield* b.fail(charge.id, "insufficient_funds")
        const failed = yield* eventually(statusOf(sk, created.transactionId), (p) => p.status !== "pending")
        assert.strictEqual(failed.status, "failed")
        assert.strictEqual(failed.failureReason, "insufficient_funds")
      }))

    it.effect("when every upstream fails: 422 cascade_exhausted with the attempts; a decline stops the cascade", () =>
      Effect.gen(function*() {
        const { a, b, sk } = yield* setup
        yield* a.setMode("unavailable")
        yield* b.setMode("unavailable")
        const exhausted = yield* refused(pay(sk))
        assert.strictEqual(httpStatus[exhausted.code], 422)
        assert.strictEqual(exhausted.code, "cascade_exhausted")
        assert.strictEqual(exhausted.details["reason"], "all_providers_failed")
        assert.strictEqual(exhausted.details["paymentMethodEnabledForShop"], true)
        const providersOf = (details: Record<string, unknown>) => (details["attempts"] as ReadonlyArray<{ provider: string }>).map((x) => x.provider)
        assert.deepStrictEqual(providersOf(exhausted.details), ["ref-a", "ref-b"])
        // The route passed over is said, with why, in the error and on the record.
        assert.deepStrictEqual(exhausted.details["skipped"], [{ provider: "sandbox", reason: "route_disabled" }])
        // The write-ahead record stays, failed, with every attempt: the error names it.
        const failed = yield* statusOf(sk, exhausted.details["transactionId"] as string)
        assert.strictEqual(failed.status, "failed")
        assert.match(failed.failureReason ?? "", /^cascade_exhausted/)
        assert.deepStrictEqual(failed.routing.attempts.map((x) => x.outcome), ["failed", "failed"])
        assert.deepStrictEqual(failed.routing.skipped, [{ provider: "sandbox", reason: "route_disabled" }])

        yield* a.setMode("decline")
        yield* b.setMode("ok")
        const declined = yield* refused(pay(sk))
        assert.strictEqual(httpStatus[declined.code], 422)
        assert.strictEqual(declined.details["reason"], "provider_declined")
        assert.deepStrictEqual(providersOf(declined.details), ["ref-a"])
      }))
  })
})
