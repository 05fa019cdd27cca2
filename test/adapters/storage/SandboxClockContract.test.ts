/**
 * Sandbox test clocks in the storage contract, on every store adapter: offsets that only add up
 * (also under concurrent advances), and what is due on a shop's clock for the job queue, webhook
 * deliveries and the reconcile poll, while production and other shops stay on the real clock.
 */
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect, Redacted } from "effect"
import { type Job, JobStore } from "../../../core/ports/JobStore.ts"
import { PaymentStore } from "../../../core/ports/PaymentStore.ts"
import { SandboxClockStore } from "../../../core/ports/SandboxClockStore.ts"
import { WebhookStore } from "../../../core/ports/WebhookStore.ts"
import type { Environment } from "../../../core/Environment.ts"
import type { Delivery } from "../../../core/webhooks/Webhook.ts"
import type { Payment } from "../../../core/payments/Payment.ts"
import * as Money from "../../../core/Money.ts"
import { storeTargets } from "../../support/Stores.ts"

const t0 = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
const at = (seconds: number) => DateTime.add(t0, { seconds })
const day = 86_400
let seq = 0
const uid = (prefix: string) => `${prefix}${++seq}_${Math.random().toString(36).slice(2, 8)}`

const job = (kind: string, runAt: DateTime.Utc, clockScope: string | null): Job => ({
  id: uid("job_"), kind, payload: {}, runAt, attempts: 0, status: "pending", lockedUntil: null, lastError: null,
  dedupeKey: null, clockScope, createdAt: t0
})

const delivery = (environment: Environment, shopId: string, nextAttemptAt: DateTime.Utc): Delivery => ({
  id: uid("dlv_"), environment, shopId, webhookId: uid("wh_"), eventId: uid("evt_"), event: "payment.completed", body: "{}",
  relatedTxId: null, status: "failed", attempts: 1, lastStatusCode: 500, lastError: "HTTP 500", nextAttemptAt,
  succeededAt: null, lockedUntil: null, createdAt: t0
})

const d = Money.decimal
const payment = (shopId: string, overrides: Partial<Payment>): Payment => ({
  id: uid("TXN-"), environment: "sandbox", merchantId: "mer_1", shopId, status: "pending",
  amount: d("100"), inputCurrency: null, inputAmount: null, amountLocal: d("550.80"), currencyLocal: "BRL",
  paymentMethodId: "1001", method: "pix", methodName: "PIX", channel: "ONLINE", country: "BRA",
  provider: "sandbox", providerRef: "sbx_1", paymentFormUrl: "https://pay.example/1", paymentData: { method: "pix", qr: "000201" },
  fees: { platform: d("3.20"), platformFlat: d("0.30"), provider: d("1"), network: d("0"), total: d("4.20") },
  settlement: { type: "delayed", delay: "T+1", delayDays: 1, reserve: d("10"), status: "pending", settledAt: null, reserveReleaseDays: 90, reserveReleasedAt: null, pendingTaken: d("0"), reserveTaken: d("0") },
  fx: { presentment: null, local: { currency: "BRL", midPerUsd: d("5.4"), rate: d("5.508") }, markupPct: d("2") },
  attempts: [], merchantOrderId: null, tag1: null, tag2: null, tag3: null, userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@x.test"), userPhone: null,
  userIp: null, hostedCheckout: false, linkToken: null, returnUrl: null, nextAction: null, simulate: null, failureReason: null,
  expiresAt: at(1800), createdAt: t0, updatedAt: t0, completedAt: null, version: 1,
  ...overrides
})

const ids = (rows: ReadonlyArray<{ readonly id: string }>) => rows.map((r) => r.id)

for (const target of storeTargets("clock")) {
  describe(`sandbox clock store contract on ${target.name}`, () => {
    layer(target.layer(), { timeout: 60_000 })((it) => {
      it.effect("offsets start at 0, add up, also when advanced concurrently, and are per shop", () =>
        Effect.gen(function*() {
          const clocks = yield* SandboxClockStore
          const [a, b] = [uid("shop_"), uid("shop_")]
          assert.strictEqual(yield* clocks.offset(a), 0)
          assert.strictEqual(yield* clocks.advance(a, 1_000, t0), 1_000)
          yield* Effect.all(Array.from({ length: 10 }, () => clocks.advance(a, 400 * day * 1000, t0)), { concurrency: "unbounded" })
          assert.strictEqual(yield* clocks.offset(a), 1_000 + 10 * 400 * day * 1000)
          assert.strictEqual(yield* clocks.offset(b), 0)
        }))

      it.effect("jobs: due on the real clock first, then on a shop's clock that runs ahead; a scope filter", () =>
        Effect.gen(function*() {
          const jobs = yield* JobStore
          const clocks = yield* SandboxClockStore
          const kind = uid("kind_")
          const [a, b] = [uid("shop_"), uid("shop_")]
          const aLater = job(kind, at(3 * day), a)
          const aNow = job(kind, at(2 * day), a)
          const bLater = job(kind, at(3 * day), b)
          const realLater = job(kind, at(3 * day), null)
          const bDue = job(kind, at(-1), b)
          for (const j of [aLater, aNow, bLater, realLater, bDue]) yield* jobs.enqueue(j)
          const claim = (clockScope?: string) => jobs.claim({ kinds: [kind], now: t0, leaseMs: 1_000, limit: 10, clockScope })

          assert.deepStrictEqual(ids(yield* claim(a)), [])
          assert.strictEqual(yield* jobs.countDue({ kinds: [kind], now: t0, clockScope: a }), 0)
          yield* clocks.advance(a, 2 * day * 1000, t0)
          assert.strictEqual(yield* jobs.countDue({ kinds: [kind], now: t0, clockScope: a }), 1)
          assert.deepStrictEqual(ids(yield* claim(b)), [bDue.id])
          assert.deepStrictEqual(ids(yield* claim(a)), [aNow.id])
          // Leased by a worker, it is still due work until done.
          assert.strictEqual(yield* jobs.countDue({ kinds: [kind], now: t0, clockScope: a }), 1)
          assert.strictEqual(yield* jobs.countDue({ kinds: [uid("other_")], now: t0, clockScope: a }), 0)
          assert.strictEqual((yield* jobs.claim({ kinds: [kind], now: at(1), leaseMs: 1_000, limit: 10 })).length, 0)

          // Leases are on the real clock; the real clock's due jobs come first, then the shops' in order.
          yield* clocks.advance(a, day * 1000, t0)
          yield* clocks.advance(b, 3 * day * 1000, t0)
          const all = ids(yield* jobs.claim({ kinds: [kind], now: at(2), leaseMs: 1_000, limit: 10 }))
          assert.deepStrictEqual(all.slice(0, 2), [bDue.id, aNow.id])
          assert.sameMembers(all.slice(2), [aLater.id, bLater.id])
          for (const id of all) yield* jobs.complete(id)
          assert.deepStrictEqual(ids(yield* jobs.claim({ kinds: [kind], now: at(3 * day), leaseMs: 1_000, limit: 10 })), [realLater.id])
        }))

      it.effect("webhook deliveries: a sandbox delivery follows its shop's clock, production never does", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const clocks = yield* SandboxClockStore
          const [a, b] = [uid("shop_"), uid("shop_")]
          const sandboxA = delivery("sandbox", a, at(3_600))
          const productionA = delivery("production", a, at(3_600))
          const sandboxB = delivery("sandbox", b, at(3_600))
          yield* store.insertDeliveries([sandboxA, productionA, sandboxB])
          const mine = [sandboxA.id, productionA.id, sandboxB.id]
          const claim = (sandboxShopId?: string) =>
            Effect.map(store.claimDeliveries(t0, 1_000, 100, sandboxShopId), (rows) => ids(rows).filter((id) => mine.includes(id)))

          assert.deepStrictEqual(yield* claim(), [])
          assert.strictEqual(yield* store.countDue(t0, a), 0)
          yield* clocks.advance(a, 3_600_000, t0)
          assert.strictEqual(yield* store.countDue(t0, a), 1)
          assert.deepStrictEqual(yield* claim(b), [])
          assert.deepStrictEqual(yield* claim(a), [sandboxA.id])
          // Leased by a worker, it is still due work until its attempt is recorded.
          assert.strictEqual(yield* store.countDue(t0, a), 1)
          yield* store.recordAttempts([{
            id: sandboxA.id,
            result: { status: "succeeded", attempts: 2, lastStatusCode: 200, lastError: null, nextAttemptAt: null, succeededAt: t0 }
          }])
          assert.strictEqual(yield* store.countDue(t0, a), 0)
          yield* clocks.advance(b, 3_600_000, t0)
          assert.deepStrictEqual(yield* claim(), [sandboxB.id])
        }))

      it.effect("the reconcile poll: a sandbox payment's age is on its shop's clock", () =>
        Effect.gen(function*() {
          const store = yield* PaymentStore
          const clocks = yield* SandboxClockStore
          const shopId = uid("shop_")
          const sandbox = payment(shopId, { createdAt: at(day) })
          const production = payment(shopId, { environment: "production", createdAt: at(day) })
          yield* store.insert(sandbox)
          yield* store.insert(production)
          const pending = (sandboxShopId?: string) =>
            Effect.map(store.pendingCreatedBefore(t0, 1_000, sandboxShopId), (rows) => ids(rows).filter((id) => id === sandbox.id || id === production.id))

          assert.deepStrictEqual(yield* pending(), [])
          yield* clocks.advance(shopId, 2 * day * 1000, t0)
          assert.deepStrictEqual(yield* pending(), [sandbox.id])
          assert.deepStrictEqual(yield* pending(shopId), [sandbox.id])
          assert.deepStrictEqual(yield* pending(uid("shop_")), [])
        }))
    })
  })
}
