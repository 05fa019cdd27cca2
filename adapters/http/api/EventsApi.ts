/** The account's event list: every event, as its webhook deliveries carry it, without a webhook endpoint. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { eventTypes } from "../../../core/webhooks/Webhook.ts"
import { Environment, IsoDateTime, Text } from "./Fields.ts"
import { PageQuery, Pagination } from "./PaymentsApi.ts"
import { SecretKey } from "./Security.ts"
import { DeliveryView } from "./WebhooksApi.ts"
import { secretKey, withErrors } from "./EndpointErrors.ts"

/** An event: exactly the envelope a webhook delivery of it carries. */
export const EventView = Schema.Struct({
  id: Schema.String,
  type: Schema.Literals(eventTypes),
  created: IsoDateTime,
  environment: Environment,
  merchantId: Schema.String,
  shopId: Schema.String,
  apiVersion: Schema.String,
  data: Schema.Record(Schema.String, Schema.Unknown).annotate({ description: "The resource as the API returns it, plus event-specific fields" }),
  merchantOrderId: Schema.optional(Schema.String)
}).annotate({ identifier: "Event" })

export class EventsApi extends HttpApiGroup.make("events")
  .add(
    HttpApiEndpoint.get("list", "/events", {
      query: {
        ...PageQuery,
        type: Schema.optional(Text(400)).annotate({
          description: `One event type, or several separated by commas: ${eventTypes.join(", ")}`
        }),
        relatedId: Schema.optional(Text(64)).annotate({
          description: "Only the events about this object: a payment's transaction id (its payment and claim events), a payout's or a withdrawal's id"
        }),
        shopId: Schema.optional(Text(64)).annotate({
          description: "For a credential covering several shops: this shop's events (default: the credential's first shop); a shop it does not cover is 404"
        })
      },
      success: Schema.Struct({ data: Schema.Array(EventView), pagination: Pagination })
    }).annotate(OpenApi.Summary, "List events")
      .annotate(
        OpenApi.Description,
        "Every event of the shop in this key's environment, newest first: what happened, without a webhook endpoint. Each item is exactly the " +
          "envelope its webhook deliveries carry. `limit` 1 to 100 (default 50) and `offset` (0 to 1,000,000,000, default 0) are clamped silently. Errors: " +
          "invalid_request naming `type` for an unknown event type."
      ),
    HttpApiEndpoint.get("get", "/events/:id", {
      params: { id: Schema.String },
      success: EventView
    }).annotate(OpenApi.Summary, "Get an event")
      .annotate(OpenApi.Description, "One event; an id of another shop or environment answers 404 like an unknown id."),
    HttpApiEndpoint.get("deliveries", "/events/:id/deliveries", {
      params: { id: Schema.String },
      success: Schema.Struct({
        data: Schema.Array(Schema.Struct({ ...DeliveryView.fields, webhookId: Schema.String }).annotate({ identifier: "EventDelivery" }))
      })
    }).annotate(OpenApi.Summary, "List an event's webhook deliveries")
      .annotate(
        OpenApi.Description,
        "Every webhook delivery of one event, one per webhook it went to, oldest first (not paginated), with its status and last answer. " +
          "An id of another shop or environment answers 404 like an unknown id."
      )
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Events")
  .pipe(withErrors({
    list: secretKey,
    get: secretKey,
    deliveries: secretKey
  }))
{}
