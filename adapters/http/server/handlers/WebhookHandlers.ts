/** Handlers of the webhook endpoints and of the managed inbox. */
import { DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { type ApiError, invalidRequest } from "../../../../core/ApiError.ts"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import type { Delivery, InboxMessage, Subscription } from "../../../../core/webhooks/Webhook.ts"
import { Webhooks } from "../../../../core/webhooks/Webhooks.ts"
import { deliveryHeaders, makeDeliveryLog } from "../../../../core/webhooks/DeliveryLog.ts"
import { Api } from "../../api/Api.ts"
import { DeliveryView, StoredWebhookWithSecret } from "../../api/WebhooksApi.ts"
import { documented } from "../../api/OperationErrors.ts"
import { makeIdempotent } from "../support/Idempotent.ts"
import { clampPage, pagination } from "../support/Paging.ts"

const iso = (t: DateTime.Utc | null) => t === null ? null : DateTime.formatIso(t)

const view = (s: Subscription) => ({
  id: s.id,
  url: s.url,
  events: s.events,
  active: s.active,
  description: s.description,
  managed: s.managed,
  disabledReason: s.disabledReason,
  createdAt: DateTime.formatIso(s.createdAt),
  updatedAt: DateTime.formatIso(s.updatedAt)
})

const withSecret = (s: Subscription) => ({ ...view(s), secret: s.secret, previousSecretExpiresAt: iso(s.previousSecretExpiresAt) })

const deliveryView = (d: Delivery) => ({
  id: d.id,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  lastStatusCode: d.lastStatusCode,
  lastError: d.lastError,
  nextAttemptAt: d.status === "succeeded" || d.status === "dead_letter" ? null : iso(d.nextAttemptAt),
  succeededAt: iso(d.succeededAt),
  createdAt: DateTime.formatIso(d.createdAt),
  relatedTxId: d.relatedTxId
})

const inboxView = (m: InboxMessage) => {
  let payload: unknown = m.body
  try {
    payload = JSON.parse(m.body)
  } catch {
    // kept as text
  }
  return { id: m.id, deliveryId: m.deliveryId, event: m.event, receivedAt: DateTime.formatIso(m.receivedAt), signatureValid: m.signatureValid, payload }
}

export const WebhookHandlers = HttpApiBuilder.group(Api, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const webhooks = yield* Webhooks
    const scopes = yield* Scopes
    const log = yield* makeDeliveryLog
    const idempotent = (yield* makeIdempotent).value
    const scope = Effect.gen(function*() {
      const principal = yield* CurrentPrincipal
      const { environment, merchant, shop } = yield* scopes.resolve(principal)
      // A credential covering every shop of its merchant registers for all of them.
      return { environment, shopId: shop.id, merchantId: merchant.id, merchant, coversMerchantId: principal.credential.shopId === null ? merchant.id : null }
    })
    /** Runs once per Idempotency-Key (a double click queues one delivery). */
    const once = <E extends ApiError>(operation: string, key: string | undefined, execute: (s: Effect.Success<typeof scope>) => Effect.Effect<Delivery, E>) =>
      Effect.flatMap(scope, (s) =>
        idempotent({ operation, scope: s, key, request: {}, codec: DeliveryView, execute: () => Effect.map(execute(s), deliveryView) }))
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers.handleAll({
      create: ({ headers, payload }) =>
        documented("webhooks.create", Effect.flatMap(scope, (s) =>
          idempotent({
            operation: "POST /webhooks",
            scope: s,
            key: headers["idempotency-key"],
            request: payload,
            codec: StoredWebhookWithSecret,
            // One transaction: the endpoint and the key's stored answer (a retry never makes a second).
            atomic: true,
            execute: () => Effect.map(webhooks.create(s, payload), withSecret)
          }))),
      list: ({ query }) =>
        documented("webhooks.list", Effect.gen(function*() {
          const page = clampPage(query)
          const { rows, total } = yield* webhooks.list(yield* scope, page)
          return { data: rows.map(view), pagination: pagination(total, page) }
        })),
      get: ({ params }) => documented("webhooks.get", Effect.map(Effect.flatMap(scope, (s) => webhooks.get(s, params.id)), view)),
      update: ({ params, payload }) => documented("webhooks.update", Effect.map(Effect.flatMap(scope, (s) => webhooks.update(s, params.id, payload)), view)),
      remove: ({ params }) => documented("webhooks.remove", Effect.as(Effect.flatMap(scope, (s) => webhooks.remove(s, params.id)), { id: params.id, deleted: true })),
      rotateSecret: ({ headers, params }) =>
        documented("webhooks.rotateSecret", Effect.flatMap(scope, (s) =>
          idempotent({
            operation: `POST /webhooks/${params.id}/rotate-secret`,
            scope: s,
            key: headers["idempotency-key"],
            request: {},
            codec: StoredWebhookWithSecret,
            atomic: true,
            execute: () => Effect.map(webhooks.rotateSecret(s, params.id), withSecret)
          }))),
      deliveries: ({ params, query }) =>
        documented("webhooks.deliveries", Effect.gen(function*() {
          const page = clampPage(query)
          const { rows, total } = yield* webhooks.deliveries(yield* scope, params.id, { status: query.status }, page)
          return { data: rows.map(deliveryView), pagination: pagination(total, page) }
        })),
      delivery: ({ params }) =>
        documented("webhooks.delivery", Effect.gen(function*() {
          const { delivery, webhook } = yield* log.detail(yield* scope, params.id, params.deliveryId)
          return {
            ...deliveryView(delivery),
            request: { url: webhook.url, headers: deliveryHeaders(delivery), body: delivery.body },
            response: delivery.attempts === 0
              ? null
              : { statusCode: delivery.lastStatusCode, error: delivery.lastError, bodyExcerpt: delivery.lastResponseExcerpt ?? null }
          }
        })),
      replay: ({ headers, params }) =>
        documented("webhooks.replay", once(
          `POST /webhooks/${params.id}/deliveries/${params.deliveryId}/replay`,
          headers["idempotency-key"],
          (s) => webhooks.replay(s, params.id, params.deliveryId)
        )),
      sendTest: ({ headers, params }) =>
        documented("webhooks.sendTest", once(`POST /webhooks/${params.id}/test`, headers["idempotency-key"], (s) => log.sendTest(s, params.id))),
      inbox: ({ params, query }) =>
        documented("webhooks.inbox", Effect.gen(function*() {
          const page = clampPage(query)
          const { rows, total } = yield* webhooks.inbox(yield* scope, params.id, page)
          return { data: rows.map(inboxView), pagination: pagination(total, page) }
        }))
    })
  }))

export const WebhookInboxHandlers = HttpApiBuilder.group(Api, "webhookInbox", (handlers) =>
  Effect.gen(function*() {
    const webhooks = yield* Webhooks
    return handlers.handleRaw("receive", ({ params, request }) =>
      documented("webhookInbox.receive", Effect.gen(function*() {
        const rawBody = yield* request.text.pipe(Effect.mapError(() => invalidRequest("The body could not be read", [])))
        const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]))
        const message = yield* webhooks.receive(params.id, headers, rawBody)
        return { received: true, id: message.id }
      })))
  }))
