/**
 * Webhook deliveries in the storage contract, on every store adapter: leases are exclusive, also
 * between concurrent claims, and a batch of outcomes is recorded at once, each with its own
 * fields, releasing the leases (the delivery worker writes a whole batch in one call).
 */
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import { WebhookStore } from "../../../core/ports/WebhookStore.ts"
import type { Delivery, Subscription } from "../../../core/webhooks/Webhook.ts"
import { storeTargets } from "../../support/Stores.ts"

const t0 = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
const at = (seconds: number) => DateTime.add(t0, { seconds })
let seq = 0
const uid = (prefix: string) => `${prefix}${++seq}_${Math.random().toString(36).slice(2, 8)}`

const delivery = (webhookId: string): Delivery => ({
  id: uid("wd_"), environment: "production", shopId: "shop_1", webhookId, eventId: uid("evt_"), event: "payment.completed",
  body: "{\"n\":1}", relatedTxId: null, status: "pending", attempts: 0, lastStatusCode: null, lastError: null, nextAttemptAt: t0,
  succeededAt: null, lockedUntil: null, createdAt: t0
})

const subscription = (shopId: string, coversMerchantId: string | null, environment: Subscription["environment"] = "production"): Subscription => ({
  id: uid("wh_"), environment, shopId, coversMerchantId, url: "https://merchant.example/hooks", managed: false, events: ["*"], active: true,
  description: null, secret: "whsec_test", previousSecret: null, previousSecretExpiresAt: null, disabledReason: null, createdAt: t0, updatedAt: t0
})

for (const target of storeTargets("webhook_store")) {
  describe(`webhook store contract on ${target.name}`, () => {
    layer(target.layer(), { timeout: 60_000 })((it) => {
      it.effect("an event reaches its shop's active subscriptions and its merchant's merchant-wide ones, in its environment only", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const [merchant, otherMerchant, shop, sibling] = [uid("mer_"), uid("mer_"), uid("shop_"), uid("shop_")]
          const own = subscription(shop, null)
          const wide = subscription(sibling, merchant)
          const siblingOnly = subscription(sibling, null)
          const otherWide = subscription(uid("shop_"), otherMerchant)
          const sandbox = subscription(shop, null, "sandbox")
          const paused = { ...subscription(shop, null), active: false }
          const removed = subscription(shop, null)
          for (const s of [own, wide, siblingOnly, otherWide, sandbox, paused, removed]) yield* store.insertSubscription(s)
          assert.isTrue(yield* store.deleteSubscription("production", shop, removed.id))
          assert.isFalse(yield* store.deleteSubscription("production", sibling, own.id), "deleted only from its own shop")
          const ids = (subs: ReadonlyArray<Subscription>) => subs.map((s) => s.id)
          assert.sameMembers(ids(yield* store.activeSubscriptions("production", merchant, shop)), [own.id, wide.id])
          assert.sameMembers(ids(yield* store.activeSubscriptions("sandbox", merchant, shop)), [sandbox.id])
          yield* store.updateSubscription({ ...own, active: false })
          yield* store.updateSubscription({ ...paused, active: true })
          assert.sameMembers(ids(yield* store.activeSubscriptions("production", merchant, shop)), [paused.id, wide.id])
          const listed = yield* store.listSubscriptions("production", shop, { limit: 10, offset: 0 })
          assert.sameMembers(ids(listed.rows), [own.id, paused.id])
          assert.strictEqual(listed.total, 2)
        }))

      it.effect("concurrent claims lease disjoint deliveries", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const webhookId = uid("wh_")
          const mine = Array.from({ length: 6 }, () => delivery(webhookId))
          yield* store.insertDeliveries(mine)
          const claims = yield* Effect.all(Array.from({ length: 3 }, () => store.claimDeliveries(t0, 60_000, 2)), { concurrency: "unbounded" })
          const claimed = claims.flat().map((d) => d.id)
          assert.strictEqual(claimed.length, 6)
          assert.strictEqual(new Set(claimed).size, 6, "no delivery leased twice")
          assert.sameMembers(claimed, mine.map((d) => d.id))
          assert.deepStrictEqual(yield* store.claimDeliveries(at(59), 60_000, 10), [], "leased until the lease lapses")
          yield* store.recordAttempts(mine.map((d) => ({
            id: d.id,
            result: { status: "succeeded", attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null, succeededAt: t0 }
          })))
        }))

      it.effect("a batch of outcomes is recorded in one call, each with its own fields, and releases the leases", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const webhookId = uid("wh_")
          const [ok, retry, gone] = [delivery(webhookId), delivery(webhookId), delivery(webhookId)]
          yield* store.insertDeliveries([ok, retry, gone])
          assert.strictEqual((yield* store.claimDeliveries(t0, 60_000, 10)).length, 3)
          yield* store.recordAttempts([])
          yield* store.recordAttempts([
            { id: ok.id, result: { status: "succeeded", attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null, succeededAt: at(1) } },
            { id: retry.id, result: { status: "failed", attempts: 1, lastStatusCode: null, lastError: "timeout after 15000 ms", nextAttemptAt: at(60), succeededAt: null } },
            { id: gone.id, result: { status: "dead_letter", attempts: 1, lastStatusCode: 410, lastError: "HTTP 410", nextAttemptAt: null, succeededAt: null } }
          ])
          const read = (id: string) => Effect.map(store.findDelivery(webhookId, id), Option.getOrThrow)
          assert.deepInclude(yield* read(ok.id), { status: "succeeded", attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null, lockedUntil: null })
          assert.isTrue(DateTime.Equivalence((yield* read(ok.id)).succeededAt!, at(1)))
          const failed = yield* read(retry.id)
          assert.deepInclude(failed, { status: "failed", lastStatusCode: null, lastError: "timeout after 15000 ms", succeededAt: null, lockedUntil: null })
          assert.isTrue(DateTime.Equivalence(failed.nextAttemptAt!, at(60)))
          assert.deepInclude(yield* read(gone.id), { status: "dead_letter", lastStatusCode: 410, lastError: "HTTP 410", lockedUntil: null })
          assert.strictEqual((yield* read(ok.id)).body, ok.body, "the body is left as it was")

          // The lease is released: the failed one comes due at its next attempt, the others never.
          assert.deepStrictEqual(yield* store.claimDeliveries(at(59), 60_000, 10), [])
          assert.deepStrictEqual((yield* store.claimDeliveries(at(60), 60_000, 10)).map((d) => d.id), [retry.id])
        }))
    })
  })
}
