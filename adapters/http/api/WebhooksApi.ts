import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { IdempotencyHeaders, IsoDateTime, MaskedWhenStored, MerchantUrl, merchantUrlRule, NoFields, Text } from "./Fields.ts"
import { Pagination } from "./PaymentsApi.ts"
import { SecretKey } from "./Security.ts"
import { idempotent, secretKey, signed, withErrors } from "./EndpointErrors.ts"

const DeliveryStatus = Schema.Literals(["pending", "succeeded", "failed", "dead_letter"])

const SubscriptionFields = {
  id: Schema.String,
  url: Schema.String,
  events: Schema.Array(Schema.String),
  active: Schema.Boolean,
  description: Schema.NullOr(Schema.String),
  managed: Schema.Boolean.annotate({ description: "True when the URL is the host's own inbox" }),
  disabledReason: Schema.NullOr(Schema.String).annotate({ description: "Set when the engine turned it off (410 Gone)" }),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime
}

export const WebhookView = Schema.Struct(SubscriptionFields).annotate({ identifier: "Webhook" })

export const WebhookWithSecret = Schema.Struct({
  ...SubscriptionFields,
  secret: Schema.String.annotate({ description: "`whsec_...`, returned here and on rotation only" }),
  previousSecretExpiresAt: Schema.NullOr(IsoDateTime).annotate({ description: "Until then deliveries are also signed (v0) with the previous secret" })
}).annotate({ identifier: "WebhookWithSecret" })

/** `WebhookWithSecret` as its idempotent replay is stored: the secret masked. */
export const StoredWebhookWithSecret = Schema.Struct({ ...WebhookWithSecret.fields, secret: MaskedWhenStored })

const secretOnce = " With `Idempotency-Key`, a retry (or a double click in the console) answers the first result with `Idempotent-Replayed: true` " +
  "and changes nothing; its `secret` is then masked (`whsec_…abcd`): it is shown once, by the first answer."

export const DeliveryView = Schema.Struct({
  id: Schema.String,
  event: Schema.String,
  status: DeliveryStatus,
  attempts: Schema.Int,
  lastStatusCode: Schema.NullOr(Schema.Int),
  lastError: Schema.NullOr(Schema.String),
  nextAttemptAt: Schema.NullOr(IsoDateTime),
  succeededAt: Schema.NullOr(IsoDateTime),
  createdAt: IsoDateTime,
  relatedTxId: Schema.NullOr(Schema.String)
}).annotate({ identifier: "WebhookDelivery" })

export const DeliveryDetailView = Schema.Struct({
  ...DeliveryView.fields,
  request: Schema.Struct({
    url: Schema.String.annotate({ description: "Where the webhook delivers now" }),
    headers: Schema.Record(Schema.String, Schema.String).annotate({
      description: "The headers every attempt carries; `X-Service-Signature` is computed per attempt and described, not stored"
    }),
    body: Schema.String.annotate({ description: "The exact bytes sent (and signed) on every attempt: the event envelope" })
  }),
  response: Schema.NullOr(Schema.Struct({
    statusCode: Schema.NullOr(Schema.Int).annotate({ description: "Null when the attempt got no answer (timeout, network error)" }),
    error: Schema.NullOr(Schema.String),
    bodyExcerpt: Schema.NullOr(Schema.String).annotate({ description: "The first 1024 characters of the answer's body" })
  })).annotate({ description: "The last attempt's outcome; null before the first attempt" })
}).annotate({ identifier: "WebhookDeliveryDetail" })

export const InboxMessageView = Schema.Struct({
  id: Schema.String,
  deliveryId: Schema.NullOr(Schema.String),
  event: Schema.NullOr(Schema.String),
  receivedAt: IsoDateTime,
  signatureValid: Schema.Boolean,
  payload: Schema.Unknown.annotate({ description: "The event envelope as delivered" })
}).annotate({ identifier: "WebhookInboxMessage" })

const Events = Schema.Array(Text(64)).annotate({ description: "Event names of spec section 6, or [\"*\"]" })
const Page = { limit: Schema.optional(Schema.FiniteFromString), offset: Schema.optional(Schema.FiniteFromString) }
const Id = { id: Schema.String }

const envelopeDescription =
  "Every delivery POSTs the event envelope `{ id, type, created, environment, merchantId, shopId, apiVersion, data, merchantOrderId? }` (`data`: the resource as the API returns it; `merchantOrderId`: when the payment has one) " +
  "with headers `X-Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\">[,v0=...]`, `X-Service-Event`, `X-Service-Delivery`. " +
  "The body is serialised once; the signed bytes are the sent bytes. A 2xx within 15 s succeeds; 410 turns the webhook off; anything else retries after 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h, 24 h (+-10 % jitter, Retry-After honoured on 429/503), then the delivery is dead_letter."

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create", "/webhooks", {
      headers: IdempotencyHeaders,
      payload: Schema.Struct({
        url: Schema.optional(MerchantUrl).annotate({ description: `${merchantUrlRule}. Omitted: a managed inbox on the host's domain` }),
        events: Events,
        description: Schema.optional(Text(500))
      }),
      success: WebhookWithSecret.pipe(HttpApiSchema.status(201))
    }).annotate(
      OpenApi.Description,
      "Registers a webhook. Registered with a credential covering several shops, it receives the events of every one of them " +
        "(the envelope's `shopId` tells them apart). `url` must be a public http(s) URL (https in production): loopback, private, link-local " +
        "(cloud metadata), unspecified and CGNAT addresses in any spelling, and local names are refused with 400 " +
        "invalid_request naming `url` (also on PATCH); at delivery the resolved address is checked again and redirects " +
        `are not followed (a 3xx is a failed attempt). ${envelopeDescription}` + secretOnce
    ),
    HttpApiEndpoint.get("list", "/webhooks", {
      query: Page,
      success: Schema.Struct({ data: Schema.Array(WebhookView), pagination: Pagination })
    }).annotate(OpenApi.Description, "Newest first; `limit` 1 to 100 (default 50), clamped. Secrets are never listed."),
    HttpApiEndpoint.get("get", "/webhooks/:id", { params: Id, success: WebhookView }),
    HttpApiEndpoint.patch("update", "/webhooks/:id", {
      params: Id,
      payload: Schema.Struct({
        url: Schema.optional(MerchantUrl).annotate({ description: merchantUrlRule }),
        events: Schema.optional(Events),
        active: Schema.optional(Schema.Boolean),
        description: Schema.optional(Schema.NullOr(Text(500)))
      }),
      success: WebhookView
    }).annotate(OpenApi.Description, "Updates url, events, active or description; the secret stays."),
    HttpApiEndpoint.delete("remove", "/webhooks/:id", {
      params: Id,
      success: Schema.Struct({ id: Schema.String, deleted: Schema.Boolean })
    }).annotate(OpenApi.Description, "Removes the webhook; its pending deliveries are dropped (dead_letter)."),
    HttpApiEndpoint.post("rotateSecret", "/webhooks/:id/rotate-secret", {
      params: Id,
      headers: IdempotencyHeaders,
      success: WebhookWithSecret
    }).annotate(OpenApi.Description, "A new secret, returned once. For 24 hours deliveries carry both signatures: v1 with the new secret, v0 with the old." + secretOnce),
    HttpApiEndpoint.get("deliveries", "/webhooks/:id/deliveries", {
      params: Id,
      query: { ...Page, status: Schema.optional(DeliveryStatus) },
      success: Schema.Struct({ data: Schema.Array(DeliveryView), pagination: Pagination })
    }),
    HttpApiEndpoint.get("delivery", "/webhooks/:id/deliveries/:deliveryId", {
      params: { id: Schema.String, deliveryId: Schema.String },
      success: DeliveryDetailView
    }).annotate(
      OpenApi.Description,
      "One delivery with what was sent (the exact body and the headers of every attempt) and what the endpoint answered last (status, error, the first 1024 characters of its body)."
    ),
    HttpApiEndpoint.post("replay", "/webhooks/:id/deliveries/:deliveryId/replay", {
      params: { id: Schema.String, deliveryId: Schema.String },
      headers: IdempotencyHeaders,
      success: DeliveryView
    }).annotate(
      OpenApi.Description,
      "Queues the delivery again at once, whatever its status. With an `Idempotency-Key`, a repeated request (a double click) answers the first one's result and queues nothing more."
    ),
    HttpApiEndpoint.post("sendTest", "/webhooks/:id/test", {
      params: Id,
      payload: NoFields,
      headers: IdempotencyHeaders,
      success: DeliveryView.pipe(HttpApiSchema.status(202))
    }).annotate(
      OpenApi.Description,
      "Queues a test delivery to this webhook only, whatever events it subscribes to: the envelope `{ id, type: \"webhook.test\", created, environment, " +
        "merchantId, shopId, apiVersion, data: { webhookId, test: true, message } }`, signed and retried like any delivery. It is not an event of the " +
        "account (not in GET /events) and moves no money. With an `Idempotency-Key`, a repeated request queues nothing more."
    ),
    HttpApiEndpoint.get("inbox", "/webhooks/:id/inbox", {
      params: Id,
      query: Page,
      success: Schema.Struct({ data: Schema.Array(InboxMessageView), pagination: Pagination })
    }).annotate(OpenApi.Description, "Managed webhooks only: the events the host's inbox received and verified, newest first.")
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Webhooks")
  .pipe(withErrors({
    create: [...secretKey, ...idempotent],
    list: secretKey,
    get: secretKey,
    update: secretKey,
    remove: secretKey,
    rotateSecret: [...secretKey, ...idempotent],
    deliveries: secretKey,
    delivery: secretKey,
    replay: [...secretKey, ...idempotent],
    sendTest: [...secretKey, ...idempotent],
    inbox: secretKey
  }))
{}

export class WebhookInboxApi extends HttpApiGroup.make("webhookInbox")
  .add(
    HttpApiEndpoint.post("receive", "/webhooks/inbox/:id", {
      params: Id,
      success: Schema.Struct({ received: Schema.Boolean, id: Schema.String })
    }).annotate(OpenApi.Description, "The managed inbox: accepts deliveries signed with the webhook's secret (401 otherwise) and stores them.")
  )
  .annotate(OpenApi.Title, "Webhooks (managed inbox)")
  .pipe(withErrors({
    receive: signed
  }))
{}
