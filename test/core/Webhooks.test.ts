/**
 * Webhook delivery as the engine runs it, with time on TestClock and a scripted receiver:
 * signatures checked by Stripe's verifier (an independent implementation of this scheme) and by
 * our own receiver helper, the retry schedule to dead letter, 410, Retry-After, replay, secret
 * rotation, and a worker dying mid-delivery.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect } from "effect"
import { TestClock } from "effect/testing"
import Stripe from "stripe"
import { Jobs } from "../../core/jobs/Jobs.ts"
import * as Money from "../../core/Money.ts"
import { WebhookStore } from "../../core/ports/WebhookStore.ts"
import { Payments } from "../../core/payments/Payments.ts"
import { verifyWebhook } from "../../core/webhooks/verifyWebhook.ts"
import { maxAttempts, retryDelays, Webhooks } from "../../core/webhooks/Webhooks.ts"
import { EngineTest, newScope, ScriptedSender } from "../support/Engine.ts"

const stripe = new Stripe("sk_test_unused")

const setup = (events: ReadonlyArray<string> = ["*"]) =>
  Effect.gen(function*() {
    const scope = yield* newScope()
    const webhooks = yield* Webhooks
    const subscription = yield* webhooks.create({ environment: "sandbox", shopId: scope.shop.id }, { url: "https://merchant.example/hooks", events })
    return { scope, webhooks, subscription, sender: yield* ScriptedSender }
  })

const paid = (scope: Effect.Success<ReturnType<typeof newScope>>) =>
  Effect.gen(function*() {
    const payment = yield* (yield* Payments).create(scope, { amount: Money.decimal("10"), paymentMethodId: "sbx_pix", simulate: "paid", merchantOrderId: "o-9" })
    yield* (yield* Jobs).runDue // the sandbox outcome: completed, events emitted
    return payment
  })

const tick = Effect.flatMap(Webhooks, (w) => w.deliverDue)

describe("webhook delivery", () => {
  it.effect("delivers each event once, signed so that Stripe's verifier and verifyWebhook accept it", () =>
    Effect.gen(function*() {
      const { scope, sender, subscription } = yield* setup(["payment.completed"])
      const payment = yield* paid(scope)
      yield* tick
      yield* tick
      assert.strictEqual(sender.sent.length, 1, "payment.captured is not subscribed; payment.completed once")
      const { body, headers, url } = sender.sent[0]!
      assert.strictEqual(url, "https://merchant.example/hooks")
      assert.strictEqual(headers["x-service-event"], "payment.completed")
      assert.match(headers["x-service-delivery"]!, /^wd_/)
      const nowSeconds = Math.floor((yield* DateTime.now).epochMilliseconds / 1000)
      const event = stripe.webhooks.constructEvent(body, headers["x-service-signature"]!, subscription.secret, 300, undefined, nowSeconds)
      assert.strictEqual(event.type, "payment.completed")
      const envelope = JSON.parse(body)
      assert.match(envelope.id, /^evt_/)
      assert.strictEqual(envelope.environment, "sandbox")
      assert.strictEqual(envelope.merchantOrderId, "o-9")
      assert.strictEqual(envelope.data.id, payment.id)
      assert.strictEqual(envelope.data.status, "completed")
      assert.deepStrictEqual(Object.keys(envelope).sort(), ["apiVersion", "created", "data", "environment", "id", "merchantId", "merchantOrderId", "shopId", "type"])

      const ours = yield* Effect.promise(() => verifyWebhook(body, headers["x-service-signature"], subscription.secret, 1e10))
      assert.isTrue(ours.valid)
      const tampered = yield* Effect.promise(() => verifyWebhook(body.replace("completed", "failed"), headers["x-service-signature"], subscription.secret, 1e10))
      assert.deepStrictEqual(tampered, { valid: false, reason: "mismatch" })
      const stale = yield* Effect.promise(() => verifyWebhook(body, headers["x-service-signature"], subscription.secret))
      assert.deepStrictEqual(stale, { valid: false, reason: "stale" }, "TestClock time is 1970, far from the real now")
      for (const bad of [undefined, "", "t=abc,v1=00", "v1=abcd", "t=1", "garbage"]) {
        assert.isFalse((yield* Effect.promise(() => verifyWebhook(body, bad, subscription.secret))).valid)
      }

      const deliveries = yield* (yield* Webhooks).deliveries({ environment: "sandbox", shopId: scope.shop.id }, subscription.id, {}, { limit: 10, offset: 0 })
      assert.strictEqual(deliveries.total, 1)
      assert.strictEqual(deliveries.rows[0]!.status, "succeeded")
      assert.strictEqual(deliveries.rows[0]!.attempts, 1)
      assert.strictEqual(deliveries.rows[0]!.lastStatusCode, 200)
      assert.strictEqual(deliveries.rows[0]!.relatedTxId, payment.id)
    }).pipe(Effect.provide(EngineTest)))

  it.effect("retries on the documented schedule with jitter, then dead-letters after the last attempt", () =>
    Effect.gen(function*() {
      const { scope, sender, subscription } = yield* setup(["payment.completed"])
      sender.script.push(...Array.from({ length: maxAttempts }, () => ({ status: 500, retryAfterSeconds: null })))
      yield* paid(scope)
      const store = yield* WebhookStore
      const only = Effect.map(store.listDeliveries(subscription.id, {}, { limit: 1, offset: 0 }), (r) => r.rows[0]!)
      yield* tick
      for (let attempt = 1; attempt < maxAttempts; attempt++) {
        const d = yield* only
        assert.strictEqual(d.status, "failed")
        assert.strictEqual(d.attempts, attempt)
        assert.strictEqual(d.lastStatusCode, 500)
        const waitMs = DateTime.toEpochMillis(d.nextAttemptAt!) - (yield* DateTime.now).epochMilliseconds
        const planned = Duration.toMillis(retryDelays[attempt - 1]!)
        assert.isTrue(waitMs >= planned * 0.9 && waitMs <= planned * 1.1, `attempt ${attempt}: ${waitMs} vs ${planned}`)
        yield* TestClock.adjust(Duration.millis(waitMs - 1))
        yield* tick
        assert.strictEqual((yield* only).attempts, attempt, "not before its time")
        yield* TestClock.adjust(Duration.millis(1))
        yield* tick
      }
      const last = yield* only
      assert.strictEqual(last.status, "dead_letter")
      assert.strictEqual(last.attempts, maxAttempts)
      assert.strictEqual(sender.sent.length, maxAttempts)
      const totalHours = retryDelays.reduce((h, d) => h + Duration.toHours(d), 0)
      assert.isTrue(totalHours > 60 && totalHours < 80, "about three days")

      // Replay queues it again whatever its status.
      yield* (yield* Webhooks).replay({ environment: "sandbox", shopId: scope.shop.id }, subscription.id, last.id)
      yield* tick
      const replayed = yield* only
      assert.strictEqual(replayed.status, "succeeded")
      assert.strictEqual(sender.sent.length, maxAttempts + 1)
    }).pipe(Effect.provide(EngineTest)))

  it.effect("410 turns the subscription off; Retry-After on 429 is honoured; network errors retry", () =>
    Effect.gen(function*() {
      const { scope, sender, subscription, webhooks } = yield* setup(["payment.completed"])
      const ref = { environment: "sandbox" as const, shopId: scope.shop.id }
      sender.script.push({ status: 429, retryAfterSeconds: 7200 }, "timeout after 15000 ms", { status: 410, retryAfterSeconds: null })
      yield* paid(scope)
      const store = yield* WebhookStore
      const only = Effect.map(store.listDeliveries(subscription.id, {}, { limit: 1, offset: 0 }), (r) => r.rows[0]!)
      yield* tick
      const limited = yield* only
      assert.strictEqual(limited.lastStatusCode, 429)
      assert.isAtLeast(DateTime.toEpochMillis(limited.nextAttemptAt!) - (yield* DateTime.now).epochMilliseconds, 7_200_000)
      yield* TestClock.adjust("2 hours")
      yield* tick
      const timedOut = yield* only
      assert.strictEqual(timedOut.status, "failed")
      assert.strictEqual(timedOut.lastError, "timeout after 15000 ms")
      assert.strictEqual(timedOut.lastStatusCode, null)
      yield* TestClock.adjust("1 hour")
      yield* tick
      assert.strictEqual((yield* only).status, "dead_letter")
      const off = yield* webhooks.get(ref, subscription.id)
      assert.isFalse(off.active)
      assert.include(off.disabledReason ?? "", "410")
      // An inactive subscription gets no new deliveries.
      yield* paid(scope)
      assert.strictEqual((yield* store.listDeliveries(subscription.id, {}, { limit: 10, offset: 0 })).total, 1)
    }).pipe(Effect.provide(EngineTest)))

  it.effect("after a rotation deliveries carry v1 (new secret) and v0 (old) for 24 hours, then v1 only", () =>
    Effect.gen(function*() {
      const { scope, sender, subscription, webhooks } = yield* setup(["payment.completed"])
      const rotated = yield* webhooks.rotateSecret({ environment: "sandbox", shopId: scope.shop.id }, subscription.id)
      assert.notStrictEqual(rotated.secret, subscription.secret)
      assert.match(rotated.secret, /^whsec_[0-9A-Za-z]{40,}$/)
      yield* paid(scope)
      yield* tick
      const header = sender.sent[0]!.headers["x-service-signature"]!
      assert.match(header, /^t=\d+,v1=[0-9a-f]{64},v0=[0-9a-f]{64}$/)
      const now = Math.floor((yield* DateTime.now).epochMilliseconds / 1000)
      stripe.webhooks.constructEvent(sender.sent[0]!.body, header, rotated.secret, 300, undefined, now)
      const withOld = yield* Effect.promise(() => verifyWebhook(sender.sent[0]!.body, header, subscription.secret, 1e10))
      assert.isTrue(withOld.valid, "a receiver still on the old secret accepts v0")

      yield* TestClock.adjust("24 hours")
      yield* paid(scope)
      yield* tick
      const later = sender.sent[1]!.headers["x-service-signature"]!
      assert.match(later, /^t=\d+,v1=[0-9a-f]{64}$/)
      assert.isFalse((yield* Effect.promise(() => verifyWebhook(sender.sent[1]!.body, later, subscription.secret, 1e10))).valid)
    }).pipe(Effect.provide(EngineTest)))

  it.effect("a worker that dies mid-delivery loses nothing: the lease lapses and another worker delivers", () =>
    Effect.gen(function*() {
      const { scope, sender } = yield* setup(["payment.completed"])
      yield* paid(scope)
      const store = yield* WebhookStore
      const claimedByDeadWorker = yield* store.claimDeliveries(yield* DateTime.now, 60_000, 10)
      assert.strictEqual(claimedByDeadWorker.length, 1)
      yield* tick
      assert.strictEqual(sender.sent.length, 0, "leased: nobody else takes it")
      yield* TestClock.adjust("61 seconds")
      yield* tick
      assert.strictEqual(sender.sent.length, 1)
    }).pipe(Effect.provide(EngineTest)))
})

