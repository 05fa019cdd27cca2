/**
 * A webhook's delivery log, one delivery at a time, and test deliveries.
 *
 * - `detail`: what was sent (the exact body, and the headers every attempt carries; the signature
 *   is computed per attempt from the real time and is not stored) and what the endpoint answered
 *   last (status code, error, the first 1024 characters of the body).
 * - `sendTest`: queues one delivery of a `webhook.test` envelope to that endpoint only, whatever
 *   events it subscribes to. It is not an event of the account (not in `GET /events`), changes no
 *   payment, balance or ledger, and is delivered, retried and replayed like any other delivery.
 */
import { traceParentOf } from "../Tracing.ts"
import { DateTime, Effect, Option } from "effect"
import { notFound } from "../ApiError.ts"
import type { Environment } from "../Environment.ts"
import { Ids } from "../Ids.ts"
import { WebhookStore } from "../ports/WebhookStore.ts"
import { eventApiVersion } from "./Events.ts"
import { type Delivery, pendingDelivery, type Subscription, testEventType } from "./Webhook.ts"

type Scope = { readonly environment: Environment; readonly merchantId: string; readonly shopId: string }

/** The headers of every attempt but the signature (see `Webhooks.ts`, which sends them). */
export const deliveryHeaders = (d: Pick<Delivery, "id" | "event">): Readonly<Record<string, string>> => ({
  "content-type": "application/json",
  "user-agent": "payment-orchestration-webhooks/1",
  "x-service-event": d.event,
  "x-service-delivery": d.id,
  "x-service-signature": "t=<unix time of the attempt>,v1=<HMAC-SHA256 of \"<t>.<body>\" with the webhook's secret> (computed per attempt)"
})

export const makeDeliveryLog = Effect.gen(function*() {
  const store = yield* WebhookStore
  const ids = yield* Ids

  const subscription = (scope: Scope, id: string) =>
    Effect.flatMap(store.findSubscription(scope.environment, scope.shopId, id), (found) =>
      Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(notFound("webhook", id)))

  const detail = Effect.fn("DeliveryLog.detail")(function*(scope: Scope, id: string, deliveryId: string) {
    const webhook: Subscription = yield* subscription(scope, id)
    const found = yield* store.findDelivery(id, deliveryId)
    if (Option.isNone(found)) return yield* notFound("delivery", deliveryId)
    return { webhook, delivery: found.value }
  })

  const sendTest = Effect.fn("DeliveryLog.sendTest")(function*(scope: Scope, id: string) {
    const webhook = yield* subscription(scope, id)
    const eventId = yield* ids.next("event")
    const created = yield* DateTime.now
    const envelope = {
      id: eventId,
      type: testEventType,
      created: DateTime.formatIso(created),
      environment: scope.environment,
      merchantId: scope.merchantId,
      shopId: scope.shopId,
      apiVersion: eventApiVersion,
      data: { webhookId: webhook.id, test: true, message: "A test delivery requested from the API or the console; no money moved." }
    }
    const delivery = pendingDelivery({
      id: yield* ids.next("delivery"),
      environment: scope.environment,
      shopId: scope.shopId,
      webhookId: webhook.id,
      eventId,
      event: testEventType,
      body: JSON.stringify(envelope),
      relatedTxId: null,
      traceParent: traceParentOf(yield* Effect.option(Effect.currentSpan)),
      createdAt: created
    })
    yield* store.insertDeliveries([delivery])
    return delivery
  })

  return { detail, sendTest }
})
