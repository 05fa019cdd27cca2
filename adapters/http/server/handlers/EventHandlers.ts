/** Handlers of the account's event list (`GET /events`, `GET /events/{id}`). */
import { DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { invalidRequest } from "../../../../core/ApiError.ts"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import { Events } from "../../../../core/webhooks/Events.ts"
import { eventTypes } from "../../../../core/webhooks/Webhook.ts"
import { Api } from "../../api/Api.ts"
import type { EventView } from "../../api/EventsApi.ts"
import { documented } from "../../api/OperationErrors.ts"
import { clampPage, pagination } from "../support/Paging.ts"

type Event = typeof EventView.Type

const knownTypes: ReadonlySet<string> = new Set(eventTypes)

/** `type=a,b` as a list of known event types; an unknown one is a 400 naming it. */
const typesOf = (text: string | undefined) =>
  Effect.gen(function*() {
    if (text === undefined) return undefined
    const types = [...new Set(text.split(",").map((t) => t.trim()).filter((t) => t !== ""))]
    const unknown = types.filter((t) => !knownTypes.has(t))
    if (types.length === 0 || unknown.length > 0) {
      return yield* invalidRequest(
        types.length === 0 ? "type names no event type" : `Unknown event type${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`,
        [{ path: "type", message: `Expected event types separated by commas, among: ${eventTypes.join(", ")}` }]
      )
    }
    return types
  })

export const EventHandlers = HttpApiBuilder.group(Api, "events", (handlers) =>
  Effect.gen(function*() {
    const events = yield* Events
    const scopes = yield* Scopes
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers
      .handle("list", ({ query }) =>
        documented("events.list", Effect.gen(function*() {
          // A named shop the credential does not cover is a 404, never another shop's events.
          const page = clampPage(query)
          const { rows, total } = yield* scopes.within(yield* CurrentPrincipal, { shopId: query.shopId }, (scope) =>
            Effect.flatMap(typesOf(query.type), (types) => events.list(scope, { types, relatedId: query.relatedId }, page)))
          // The outbox keeps each event as the envelope it was delivered as (`Events.emit`).
          return { data: rows as ReadonlyArray<Event>, pagination: pagination(total, page) }
        })))
      .handle("deliveries", ({ params }) =>
        documented("events.deliveries", Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const rows = yield* scopes.withinOwning(principal, yield* events.shopOf(principal.environment, params.id), (scope) =>
            events.deliveries(scope, params.id))
          return {
            data: rows.map((d) => ({
              id: d.id,
              webhookId: d.webhookId,
              event: d.event,
              status: d.status,
              attempts: d.attempts,
              lastStatusCode: d.lastStatusCode,
              lastError: d.lastError,
              nextAttemptAt: d.status === "succeeded" || d.status === "dead_letter" || d.nextAttemptAt === null ? null : DateTime.formatIso(d.nextAttemptAt),
              succeededAt: d.succeededAt === null ? null : DateTime.formatIso(d.succeededAt),
              createdAt: DateTime.formatIso(d.createdAt),
              relatedTxId: d.relatedTxId
            }))
          }
        })))
      .handle("get", ({ params }) =>
        documented("events.get", Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return (yield* scopes.withinOwning(principal, yield* events.shopOf(principal.environment, params.id), (scope) =>
            events.get(scope, params.id))) as Event
        })))
  }))
