/** Memory implementation of the webhook port. */
import { DateTime, Effect, Layer, Option } from "effect"
import { WebhookStore } from "../../../core/ports/WebhookStore.ts"
import type { Delivery, InboxMessage, Subscription } from "../../../core/webhooks/Webhook.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { newestFirst, rowsOf } from "./MemoryRows.ts"
import { clockOffset } from "./MemorySandboxClockStore.ts"

const page = <A>(rows: ReadonlyArray<A>, p: { readonly limit: number; readonly offset: number }) => ({
  rows: rows.slice(p.offset, p.offset + p.limit),
  total: rows.length
})

export const MemoryWebhookStore = Layer.effect(
  WebhookStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const subscriptions = db.table<Subscription>("webhooks")
    const deliveries = db.table<Delivery>("webhook_deliveries")
    // Indexes, so no call costs what the table holds: one delivery per webhook and event, the
    // deliveries still to attempt, and a webhook's deliveries and inbox.
    const byWebhookEvent = db.table<string>("webhook_deliveries_by_event")
    const toAttempt = db.table<true>("webhook_deliveries_to_attempt")
    const deliveriesOf = (webhookId: string) => db.table<true>(`webhook_deliveries_of|${webhookId}`)
    const inboxOf = (webhookId: string) => db.table<true>(`webhook_inbox_of|${webhookId}`)
    const deliveriesOfEventIndex = (eventId: string) => db.table<true>(`webhook_deliveries_of_event|${eventId}`)
    const write = (d: Delivery) => {
      if (!deliveries.has(d.id)) {
        deliveriesOf(d.webhookId).set(d.id, true)
        deliveriesOfEventIndex(d.eventId).set(d.id, true)
      }
      deliveries.set(d.id, d)
      if (d.status === "pending" || d.status === "failed") toAttempt.set(d.id, true)
      else toAttempt.delete(d.id)
    }
    const inbox = db.table<InboxMessage>("webhook_inbox")
    // Subscriptions by shop and by the merchant a merchant-wide one covers (event fan-out, lists).
    const subscriptionsOf = (environment: string, shopId: string) => db.table<true>(`webhooks_of|${environment}|${shopId}`)
    const covering = (environment: string, merchantId: string) => db.table<true>(`webhooks_covering|${environment}|${merchantId}`)
    const unindex = (s: Subscription) => {
      subscriptionsOf(s.environment, s.shopId).delete(s.id)
      if (s.coversMerchantId !== null) covering(s.environment, s.coversMerchantId).delete(s.id)
    }
    const writeSubscription = (s: Subscription) => {
      const before = subscriptions.get(s.id)
      if (before !== undefined) unindex(before)
      subscriptions.set(s.id, s)
      subscriptionsOf(s.environment, s.shopId).set(s.id, true)
      if (s.coversMerchantId !== null) covering(s.environment, s.coversMerchantId).set(s.id, true)
    }
    const scoped = (s: Subscription | undefined, environment: string, shopId: string) =>
      Option.filter(Option.fromNullishOr(s), (x) => x.environment === environment && x.shopId === shopId)
    return WebhookStore.of({
      insertSubscription: (s) => db.run(Effect.sync(() => writeSubscription(s))),
      updateSubscription: (s) => db.run(Effect.sync(() => writeSubscription(s))),
      deleteSubscription: (environment, shopId, id) =>
        db.run(Effect.sync(() => {
          const found = scoped(subscriptions.get(id), environment, shopId)
          if (Option.isNone(found)) return false
          unindex(found.value)
          return subscriptions.delete(id)
        })),
      findSubscription: (environment, shopId, id) => db.run(Effect.sync(() => scoped(subscriptions.get(id), environment, shopId))),
      findSubscriptionById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(subscriptions.get(id)))),
      listSubscriptions: (environment, shopId, p) =>
        db.run(Effect.sync(() =>
          page(rowsOf(subscriptions, subscriptionsOf(environment, shopId)).sort(newestFirst), p)
        )),
      activeSubscriptions: (environment, merchantId, shopId) =>
        db.run(Effect.sync(() => {
          const ids = new Set([...subscriptionsOf(environment, shopId).keys(), ...covering(environment, merchantId).keys()])
          return Array.from(ids, (id) => subscriptions.get(id)!).filter((s) => s.active)
        })),
      insertDeliveries: (ds) =>
        db.run(Effect.sync(() => {
          for (const d of ds) {
            const key = `${d.webhookId}|${d.eventId}`
            if (byWebhookEvent.has(key)) continue
            byWebhookEvent.set(key, d.id)
            write(d)
          }
        })),
      findDelivery: (webhookId, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(deliveries.get(id)), (d) => d.webhookId === webhookId))),
      deliveriesOfEvent: (environment, shopId, eventId) =>
        db.run(Effect.sync(() =>
          rowsOf(deliveries, deliveriesOfEventIndex(eventId))
            .filter((d) => d.environment === environment && d.shopId === shopId)
            .sort((a, b) => -newestFirst(a, b))
        )),
      listDeliveries: (webhookId, filter, p) =>
        db.run(Effect.sync(() =>
          page(
            rowsOf(deliveries, deliveriesOf(webhookId))
              .filter((d) => filter.status === undefined || d.status === filter.status)
              .sort(newestFirst),
            p
          )
        )),
      claimDeliveries: (now, leaseMs, limit, sandboxShopId) =>
        db.run(Effect.sync(() => {
          const lateness = (d: Delivery) => DateTime.toEpochMillis(d.nextAttemptAt!) - DateTime.toEpochMillis(now)
          const offset = (d: Delivery) => d.environment === "sandbox" ? clockOffset(db, d.shopId) : 0
          const due = [...toAttempt.keys()].map((id) => deliveries.get(id)!)
            .filter((d) =>
              (d.status === "pending" || d.status === "failed") && d.nextAttemptAt !== null &&
              (sandboxShopId === undefined || (d.environment === "sandbox" && d.shopId === sandboxShopId)) &&
              lateness(d) <= offset(d) && (d.lockedUntil === null || DateTime.isLessThan(d.lockedUntil, now))
            )
            .sort((a, b) =>
              Number(lateness(a) > 0) - Number(lateness(b) > 0) ||
              DateTime.toEpochMillis(a.nextAttemptAt!) - DateTime.toEpochMillis(b.nextAttemptAt!) || a.id.localeCompare(b.id)
            )
            .slice(0, limit)
          const lockedUntil = DateTime.add(now, { milliseconds: leaseMs })
          return due.map((d) => {
            const claimed = { ...d, lockedUntil }
            write(claimed)
            return claimed
          })
        })),
      countDue: (now, sandboxShopId) =>
        db.run(Effect.sync(() =>
          rowsOf(deliveries, toAttempt).filter((d) =>
            d.nextAttemptAt !== null &&
            d.environment === "sandbox" && d.shopId === sandboxShopId &&
            DateTime.toEpochMillis(d.nextAttemptAt) - DateTime.toEpochMillis(now) <= clockOffset(db, sandboxShopId)
          ).length
        )),
      backlog: (now) =>
        db.run(Effect.sync(() => {
          let due = 0
          let oldestDueAt: DateTime.Utc | null = null
          let deadLetters = 0
          for (const d of deliveries.values()) {
            if (d.status === "dead_letter") deadLetters++
            if ((d.status !== "pending" && d.status !== "failed") || d.nextAttemptAt === null || DateTime.isGreaterThan(d.nextAttemptAt, now)) continue
            due++
            if (oldestDueAt === null || DateTime.isLessThan(d.nextAttemptAt, oldestDueAt)) oldestDueAt = d.nextAttemptAt
          }
          return { due, oldestDueAt, deadLetters }
        })),
      recordAttempts: (outcomes) =>
        db.run(Effect.sync(() => {
          for (const { id, result } of outcomes) {
            const d = deliveries.get(id)
            if (d !== undefined) write({ ...d, ...result, lockedUntil: null })
          }
        })),
      requeue: (id, now) =>
        db.run(Effect.sync(() => {
          const d = deliveries.get(id)
          if (d !== undefined) write({ ...d, status: "pending", nextAttemptAt: now, lockedUntil: null })
        })),
      insertInboxMessage: (m) =>
        db.run(Effect.sync(() => {
          inbox.set(m.id, m)
          inboxOf(m.webhookId).set(m.id, true)
        })),
      listInbox: (webhookId, p) =>
        db.run(Effect.sync(() =>
          page(
            rowsOf(inbox, inboxOf(webhookId))
              .sort((a, b) => DateTime.toEpochMillis(b.receivedAt) - DateTime.toEpochMillis(a.receivedAt) || b.id.localeCompare(a.id)),
            p
          )
        ))
    })
  })
)
