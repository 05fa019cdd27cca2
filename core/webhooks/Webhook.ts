/** Webhook subscriptions, deliveries and managed-inbox messages (spec 2.14, 2.15, 3.6, 6). */
import type { DateTime } from "effect"
import type { Environment } from "../Environment.ts"

/** Every event the engine can emit (spec 6); `*` subscribes to all. */
export const eventTypes = [
  "payment.completed",
  "payment.failed",
  "payment.refunded",
  "payment.captured",
  "payment.authorized",
  "payment.voided",
  "chargeback.created",
  "claim.opened",
  "claim.resolved",
  "settlement.closed",
  "settlement.pdf_ready",
  "withdrawal.completed",
  "withdrawal.failed",
  "payout.completed",
  "payout.failed",
  "deposit.credited"
] as const
export type EventType = typeof eventTypes[number]

/**
 * The type of a test delivery (`POST /webhooks/{id}/test`): sent to one endpoint on request, never
 * emitted by a change, never in the event list, whatever the endpoint subscribes to.
 */
export const testEventType = "webhook.test"

export interface Subscription {
  readonly id: string
  readonly environment: Environment
  /** The shop it is managed from. */
  readonly shopId: string
  /**
   * Registered with a credential covering every shop of its merchant: that merchant's id, and it
   * receives the events of all its shops; null: the events of `shopId` only.
   */
  readonly coversMerchantId: string | null
  readonly url: string
  readonly managed: boolean
  /** Event names, or `["*"]`. */
  readonly events: ReadonlyArray<string>
  readonly active: boolean
  readonly description: string | null
  /** `whsec_...`: signs `v1`. Kept to sign with; returned on creation and rotation only. */
  readonly secret: string
  /** The secret before the last rotation: also signs (`v0`) until `previousSecretExpiresAt`. */
  readonly previousSecret: string | null
  readonly previousSecretExpiresAt: DateTime.Utc | null
  /** Why the engine turned the subscription off (the endpoint answered 410), if it did. */
  readonly disabledReason: string | null
  readonly createdAt: DateTime.Utc
  readonly updatedAt: DateTime.Utc
}

export type DeliveryStatus = "pending" | "succeeded" | "failed" | "dead_letter"

/**
 * What happens to a delivery: an attempt answered 2xx (`delivered`), answered otherwise or not at
 * all with attempts left (`refused`: retried later), ended it (`given_up`: the last attempt, a
 * 410, a deleted or inactive subscription), or the merchant asked for it again (`replayed`).
 */
export type DeliveryEvent = "delivered" | "refused" | "given_up" | "replayed"

/**
 * The delivery state machine, pure (docs/architecture.md, "State machines"):
 *
 * | from                 | delivered | refused | given_up    | replayed |
 * |----------------------|-----------|---------|-------------|----------|
 * | pending, failed      | succeeded | failed  | dead_letter | pending  |
 * | succeeded            | -         | -       | -           | pending  |
 * | dead_letter          | -         | -       | -           | pending  |
 *
 * Only a delivery due (pending or failed) is attempted; any delivery may be replayed.
 */
const deliveryTable: Readonly<Record<DeliveryStatus, Partial<Record<DeliveryEvent, DeliveryStatus>>>> = {
  pending: { delivered: "succeeded", refused: "failed", given_up: "dead_letter", replayed: "pending" },
  failed: { delivered: "succeeded", refused: "failed", given_up: "dead_letter", replayed: "pending" },
  succeeded: { replayed: "pending" },
  dead_letter: { replayed: "pending" }
}

/** The status `event` moves a delivery in `from` to, or undefined when it cannot happen there. */
export const deliveryTransition = (from: DeliveryStatus, event: DeliveryEvent): DeliveryStatus | undefined => deliveryTable[from][event]

export interface Delivery {
  readonly id: string
  readonly environment: Environment
  readonly shopId: string
  readonly webhookId: string
  readonly eventId: string
  readonly event: string
  /** The envelope, serialised once: these exact bytes are signed and sent on every attempt. */
  readonly body: string
  readonly relatedTxId: string | null
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly lastStatusCode: number | null
  readonly lastError: string | null
  /** The first 1024 characters of the last answer's body (null: none, or no answer). */
  readonly lastResponseExcerpt?: string | null | undefined
  readonly nextAttemptAt: DateTime.Utc | null
  readonly succeededAt: DateTime.Utc | null
  readonly lockedUntil: DateTime.Utc | null
  /** The W3C `traceparent` of the span that emitted the event, so that the delivery's trace links back to it. */
  readonly traceParent?: string | null | undefined
  readonly createdAt: DateTime.Utc
}

/** A delivery not yet attempted, due at `createdAt`. */
export const pendingDelivery = (
  fields: Pick<Delivery, "id" | "environment" | "shopId" | "webhookId" | "eventId" | "event" | "body" | "relatedTxId" | "traceParent" | "createdAt">
): Delivery => ({
  ...fields,
  status: "pending",
  attempts: 0,
  lastStatusCode: null,
  lastError: null,
  nextAttemptAt: fields.createdAt,
  succeededAt: null,
  lockedUntil: null
})

/** An event received by a managed inbox. */
export interface InboxMessage {
  readonly id: string
  readonly webhookId: string
  readonly deliveryId: string | null
  readonly event: string | null
  readonly body: string
  readonly signatureValid: boolean
  readonly receivedAt: DateTime.Utc
}

export const subscribes = (subscription: Pick<Subscription, "events">, event: string) =>
  subscription.events.includes("*") || subscription.events.includes(event)
