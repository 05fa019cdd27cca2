import { Context, type DateTime, type Effect } from "effect"
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
  readonly createdAt: DateTime.Utc
}

export class OutboxStore extends Context.Service<OutboxStore, {
  readonly append: (event: OutboxEvent) => Effect.Effect<void>
  /** Oldest first. */
  readonly list: (environment: Environment, shopId: string) => Effect.Effect<ReadonlyArray<OutboxEvent>>
}>()("core/ports/OutboxStore") {}
