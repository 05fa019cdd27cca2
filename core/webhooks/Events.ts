/**
 * Emitting an event: the envelope is built and serialised once, written to the outbox and fanned
 * out as one delivery per active matching subscription, all inside the caller's transaction, so
 * an event exists exactly when the change that caused it was committed.
 *
 * Envelope (every event): `{ id, type, created, environment, merchantId, shopId, apiVersion, data,
 * merchantOrderId? }` (a credential covering several shops tells them apart by `shopId`)
 * where `data` is the resource as the API returns it and `merchantOrderId` is set when the
 * payment has one.
 */
import { traceParentOf } from "../Tracing.ts"
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { type ApiErrorOf, notFound } from "../ApiError.ts"
import type { Environment } from "../Environment.ts"
import { Ids } from "../Ids.ts"
import { type EventFilter, OutboxStore } from "../ports/OutboxStore.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { WebhookStore } from "../ports/WebhookStore.ts"
import { type Delivery, pendingDelivery, subscribes } from "./Webhook.ts"

export const eventApiVersion = "2026-11-01"

export interface NewEvent {
  readonly environment: Environment
  readonly merchantId: string
  readonly shopId: string
  readonly type: string
  readonly data: Readonly<Record<string, unknown>>
  readonly relatedTxId: string | null
  /** The object the event is about when it is not a payment (a payout, a withdrawal); default `relatedTxId`. */
  readonly relatedId?: string | undefined
  readonly merchantOrderId?: string | null | undefined
}

/** An event as `GET /events` answers it: exactly the envelope its webhook deliveries carry. */
export type EventEnvelope = Readonly<Record<string, unknown>>

/** An event about a payment (or a claim on it): related to the payment, with its merchant order id. */
export const paymentEvent = (
  payment: {
    readonly id: string
    readonly environment: Environment
    readonly merchantId: string
    readonly shopId: string
    readonly merchantOrderId: string | null
  },
  type: string,
  data: Readonly<Record<string, unknown>>
): NewEvent => ({
  environment: payment.environment,
  merchantId: payment.merchantId,
  shopId: payment.shopId,
  type,
  data,
  relatedTxId: payment.id,
  merchantOrderId: payment.merchantOrderId
})

export class Events extends Context.Service<Events, {
  /** Emits within the current transaction; answers the event id. */
  readonly emit: (event: NewEvent) => Effect.Effect<string>
  /** A page of the scope's shop's events, newest first, as their envelopes. */
  readonly list: (
    scope: Pick<ShopScope, "environment" | "shop">,
    filter: EventFilter,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<EventEnvelope>; readonly total: number }>
  /** The shop an event of this environment belongs to (undefined: no such event). */
  readonly shopOf: (environment: Environment, id: string) => Effect.Effect<string | undefined>
  /** One event of the scope's shop; another shop's or an unknown id is 404 `not_found`. */
  readonly get: (scope: Pick<ShopScope, "environment" | "shop">, id: string) => Effect.Effect<EventEnvelope, ApiErrorOf<"not_found">>
  /** The webhook deliveries of one event of the scope's shop, oldest first; 404 like `get`. */
  readonly deliveries: (scope: Pick<ShopScope, "environment" | "shop">, id: string) => Effect.Effect<ReadonlyArray<Delivery>, ApiErrorOf<"not_found">>
}>()("core/webhooks/Events") {
  static readonly layer = Layer.effect(
    Events,
    Effect.gen(function*() {
      const ids = yield* Ids
      const outbox = yield* OutboxStore
      const webhooks = yield* WebhookStore
      const emit = Effect.fn("Events.emit")(function*(event: NewEvent) {
        const id = yield* ids.next("event")
        const created = yield* DateTime.now
        const envelope = {
          id,
          type: event.type,
          created: DateTime.formatIso(created),
          environment: event.environment,
          merchantId: event.merchantId,
          shopId: event.shopId,
          apiVersion: eventApiVersion,
          data: event.data,
          ...(event.merchantOrderId === undefined || event.merchantOrderId === null ? {} : { merchantOrderId: event.merchantOrderId })
        }
        yield* outbox.append({
          id,
          environment: event.environment,
          shopId: event.shopId,
          type: event.type,
          data: envelope,
          relatedTxId: event.relatedTxId,
          relatedId: event.relatedId ?? event.relatedTxId,
          createdAt: created
        })
        const body = JSON.stringify(envelope)
        const targets = (yield* webhooks.activeSubscriptions(event.environment, event.merchantId, event.shopId)).filter((s) => subscribes(s, event.type))
        const deliveries: Array<Delivery> = []
        const traceParent = targets.length === 0 ? null : traceParentOf(yield* Effect.option(Effect.currentSpan))
        for (const subscription of targets) {
          deliveries.push(pendingDelivery({
            id: yield* ids.next("delivery"),
            environment: event.environment,
            shopId: event.shopId,
            webhookId: subscription.id,
            eventId: id,
            event: event.type,
            body,
            relatedTxId: event.relatedTxId,
            traceParent,
            createdAt: created
          }))
        }
        yield* webhooks.insertDeliveries(deliveries)
        return id
      })
      const list = Effect.fn("Events.list")(function*(
        scope: Pick<ShopScope, "environment" | "shop">,
        filter: EventFilter,
        page: { readonly limit: number; readonly offset: number }
      ) {
        const { rows, total } = yield* outbox.page(scope.environment, scope.shop.id, filter, page)
        return { rows: rows.map((e) => e.data), total }
      })
      const shopOf = (environment: Environment, id: string) =>
        Effect.map(outbox.find(environment, id), (found) => Option.isSome(found) ? found.value.shopId : undefined)
      const get = Effect.fn("Events.get")(function*(scope: Pick<ShopScope, "environment" | "shop">, id: string) {
        const found = yield* outbox.find(scope.environment, id)
        if (Option.isNone(found) || found.value.shopId !== scope.shop.id) return yield* notFound("event", id)
        return found.value.data
      })

      const deliveries = Effect.fn("Events.deliveries")(function*(scope: Pick<ShopScope, "environment" | "shop">, id: string) {
        yield* get(scope, id)
        return yield* webhooks.deliveriesOfEvent(scope.environment, scope.shop.id, id)
      })

      return Events.of({ emit, list, shopOf, get, deliveries })
    })
  )
}
