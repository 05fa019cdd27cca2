/**
 * The routing cascade and the payment life cycle over real sockets, with the reference HTTP
 * provider talking to two upstream simulators: fail-over, no fail-over after a lost answer, signed
 * callbacks, a lost callback recovered by the reconcile poll, forged callbacks, and an exhausted
 * cascade.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { ReferenceHttpProvider } from "../../providers/reference-http/ReferenceHttpProvider.ts"
import { UpstreamSimulator } from "../../providers/reference-http/UpstreamSimulator.ts"
import { adminToken, baseUrl, call, connectorInstance, createMerchant, testHost } from "../support/Host.ts"

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

const route = (shopId: string, providerId: string, priority: number, enabled = true) =>
  call("PUT", `/admin/v1/shops/${shopId}/routes/${providerId}`, { bearer: adminToken, body: { environment: "sandbox", priority, enabled } })

const setup = Effect.gen(function*() {
  const { a, b } = yield* Upstreams
  yield* a.setMode("ok")
  yield* b.setMode("ok")
  yield* b.dropCallbacks(false)
  const merchant = yield* createMerchant()
  const shopId = merchant.shops[0]!.id
  assert.strictEqual((yield* route(shopId, "ref-a", 1)).status, 200)
  assert.strictEqual((yield* route(shopId, "ref-b", 2)).status, 200)
  // An explicit, disabled route takes the sandbox provider out of this shop's cascade.
  assert.strictEqual((yield* route(shopId, "sandbox", 3, false)).status, 200)
  // These tests are about the cascade itself: the static order, whatever the providers' health.
  const routing = yield* call("PUT", `/admin/v1/shops/${shopId}/routing`, { bearer: adminToken, body: { environment: "sandbox", strategy: "static", rules: [] } })
  assert.strictEqual(routing.status, 200, JSON.stringify(routing.body))
  const base = yield* baseUrl
  yield* b.setCallbackTarget(`${base}/api/v1/providers/ref-b/callbacks`)
  return { sk: merchant.keys.sandbox.secretKey, a, b }
})

const pay = (sk: string) =>
  call("POST", "/api/v1/payments", {
    bearer: sk,
    body: { amount: 50, paymentMethodId: "1001", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }
  })

const chargeOf = (sim: UpstreamSimulator, transactionId: string) => [...sim.charges.values()].find((c) => c.reference === transactionId)!

const statusOf = (sk: string, id: string) => Effect.map(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body)

const eventually = <A, R>(check: Effect.Effect<A, never, R>, until: (a: A) => boolean) =>
  Effect.gen(function*() {
    for (let i = 0; i < 100; i++) {
      const value = yield* check
      if (until(value)) return value
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
    }
    return yield* check
  })

describe("routing cascade over HTTP", () => {
  layer(HostWithUpstreams, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("fails over from an unavailable upstream to a working one and records every attempt", () =>
      Effect.gen(function*() {
        const { a, b, sk } = yield* setup
        yield* a.setMode("unavailable")
        const created = yield* pay(sk)
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const detail = yield* statusOf(sk, created.body.transactionId)
        assert.strictEqual(detail.routing.provider, "ref-b")
        assert.deepStrictEqual(detail.routing.attempts.map((x: { provider: string; outcome: string }) => [x.provider, x.outcome]), [
          ["ref-a", "failed"],
          ["ref-b", "accepted"]
        ])
        assert.isNumber(detail.routing.attempts[0].latencyMs)
        assert.strictEqual(chargeOf(b, created.body.transactionId).reference, created.body.transactionId)
        assert.strictEqual(created.body.paymentFormUrl.startsWith(b.baseUrl), true)

        // The upstream confirms with a signed callback over HTTP.
        yield* b.complete(chargeOf(b, created.body.transactionId).id)
        const done = yield* eventually(statusOf(sk, created.body.transactionId), (p) => p.status !== "pending")
        assert.strictEqual(done.status, "completed")
        assert.strictEqual(b.callbacksSent.at(-1)?.outcome, 200)
      }))

    it.effect("a timeout is no answer: 503 provider_outcome_unknown, the next upstream is not charged, and the retry with the key asks the same one again", () =>
      Effect.gen(function*() {
        const { a, b, sk } = yield* setup
        yield* a.setMode("slow")
        const body = { amount: 50, paymentMethodId: "1001", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }
        const headers = { "idempotency-key": `lost-answer-${Date.now()}` }
        const unknown = yield* call("POST", "/api/v1/payments", { bearer: sk, body, headers })
        assert.strictEqual(unknown.status, 503, JSON.stringify(unknown.body))
        assert.strictEqual(unknown.body.error.code, "provider_outcome_unknown")
        assert.strictEqual(unknown.body.error.type, "provider_error")
        assert.deepStrictEqual(unknown.body.error.details.provider, "ref-a")
        assert.strictEqual(unknown.body.error.details.reason, "timeout")
        const id = unknown.body.error.details.transactionId
        // ref-a holds the charge; ref-b, next in the cascade, was never asked.
        assert.isDefined(chargeOf(a, id))
        assert.isUndefined([...b.charges.values()].find((c) => c.reference === id))
        const held = yield* statusOf(sk, id)
        assert.strictEqual(held.status, "pending")
        assert.deepStrictEqual(held.routing.attempts.map((x: { provider: string; outcome: string }) => [x.provider, x.outcome]), [["ref-a", "unknown"]])

        yield* a.setMode("ok")
        const retried = yield* call("POST", "/api/v1/payments", { bearer: sk, body, headers })
        assert.strictEqual(retried.status, 201, JSON.stringify(retried.body))
        assert.strictEqual(retried.body.transactionId, id, "the retry continued the same payment")
        assert.strictEqual([...a.charges.values()].filter((c) => c.reference === id).length, 1, "one charge upstream")
        assert.isTrue(retried.body.paymentFormUrl.startsWith(a.baseUrl))
        const replayed = yield* call("POST", "/api/v1/payments", { bearer: sk, body, headers })
        assert.strictEqual(replayed.body.transactionId, id)
      }))

    it.effect("a lost callback is recovered by the reconcile poll", () =>
      Effect.gen(function*() {
        const { a, b, sk } = yield* setup
        yield* a.setMode("unavailable")
        const created = yield* pay(sk)
        yield* b.dropCallbacks(true)
        yield* b.complete(chargeOf(b, created.body.transactionId).id)
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 300)))
        assert.strictEqual((yield* statusOf(sk, created.body.transactionId)).status, "pending")
        assert.strictEqual(b.callbacksSent.at(-1)?.outcome, "dropped")
        const poll = yield* call("POST", "/admin/v1/jobs/reconcile", { bearer: adminToken })
        assert.isAtLeast(poll.body.moved, 1)
        assert.strictEqual((yield* statusOf(sk, created.body.transactionId)).status, "completed")
      }))

    it.effect("a forged callback gets 401 and changes nothing; a failure callback fails the payment", () =>
      Effect.gen(function*() {
        const { a, b, sk } = yield* setup
        yield* a.setMode("unavailable")
        const created = yield* pay(sk)
        const charge = chargeOf(b, created.body.transactionId)
        const body = JSON.stringify({ id: charge.id, reference: created.body.transactionId, status: "succeeded" })
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
        assert.strictEqual((yield* statusOf(sk, created.body.transactionId)).status, "pending")

        yield* b.fail(charge.id, "insufficient_funds")
        const failed = yield* eventually(statusOf(sk, created.body.transactionId), (p) => p.status !== "pending")
        assert.strictEqual(failed.status, "failed")
        assert.strictEqual(failed.failureReason, "insufficient_funds")
      }))

    it.effect("when every upstream fails: 422 cascade_exhausted with the attempts; a decline stops the cascade", () =>
      Effect.gen(function*() {
        const { a, b, sk } = yield* setup
        yield* a.setMode("unavailable")
        yield* b.setMode("unavailable")
        const exhausted = yield* pay(sk)
        assert.strictEqual(exhausted.status, 422)
        assert.strictEqual(exhausted.body.error.code, "cascade_exhausted")
        assert.strictEqual(exhausted.body.error.details.reason, "all_providers_failed")
        assert.strictEqual(exhausted.body.error.details.paymentMethodEnabledForShop, true)
        assert.deepStrictEqual(exhausted.body.error.details.attempts.map((x: { provider: string }) => x.provider), ["ref-a", "ref-b"])
        // The write-ahead record stays, failed, with every attempt: the error names it.
        const failed = yield* call("GET", `/api/v1/payments/${exhausted.body.error.details.transactionId}`, { bearer: sk })
        assert.strictEqual(failed.body.status, "failed")
        assert.match(failed.body.failureReason, /^cascade_exhausted/)
        assert.deepStrictEqual(failed.body.routing.attempts.map((x: { outcome: string }) => x.outcome), ["failed", "failed"])

        yield* a.setMode("decline")
        yield* b.setMode("ok")
        const declined = yield* pay(sk)
        assert.strictEqual(declined.status, 422)
        assert.strictEqual(declined.body.error.details.reason, "provider_declined")
        assert.deepStrictEqual(declined.body.error.details.attempts.map((x: { provider: string }) => x.provider), ["ref-a"])
      }))
  })
})
