import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Environment } from "../Environment.ts"

/**
 * An event the engine emitted, written in the same transaction as the change that caused it.
 * Webhook delivery fans each one out to the matching subscriptions.
 */
export interface OutboxEvent {
  readonly id: string
  readonly environment: Environment
  readonly shopId: string
  readonly type: string
  /** The resource as the API returns it, plus event-specific fields. */
  readonly data: Readonly<Record<string, unknown>>
  /** The transaction the event is about, when there is one. */
  readonly relatedTxId: string | null
  /**
   * The object the event is about, for `GET /events?relatedId=`: the payment for payment and
   * claim events, the payout or withdrawal for theirs.
   */
  readonly relatedId: string | null
  readonly createdAt: DateTime.Utc
}

export interface EventFilter {
  /** Any of these types (none: every type). */
  readonly types?: ReadonlyArray<string> | undefined
  readonly relatedId?: string | undefined
}

export class OutboxStore extends Context.Service<OutboxStore, {
  readonly append: (event: OutboxEvent) => Effect.Effect<void>
  /** Oldest first. */
  readonly list: (environment: Environment, shopId: string) => Effect.Effect<ReadonlyArray<OutboxEvent>>
  /** A page of a shop's events, newest first, and how many match in all. */
  readonly page: (
    environment: Environment,
    shopId: string,
    filter: EventFilter,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<OutboxEvent>; readonly total: number }>
  /** One event of an environment, by id. */
  readonly find: (environment: Environment, id: string) => Effect.Effect<Option.Option<OutboxEvent>>
}>()("core/ports/OutboxStore") {}
