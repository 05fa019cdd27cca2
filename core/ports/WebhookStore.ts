import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Environment } from "../Environment.ts"
import type { Delivery, DeliveryStatus, InboxMessage, Subscription } from "../webhooks/Webhook.ts"

export interface DeliveryResult {
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly lastStatusCode: number | null
  readonly lastError: string | null
  /** The first 1024 characters of the answer's body, when there was an answer. */
  readonly lastResponseExcerpt?: string | null | undefined
  readonly nextAttemptAt: DateTime.Utc | null
  readonly succeededAt: DateTime.Utc | null
}

/** The outcome of one attempt at a delivery. */
export interface DeliveryOutcome {
  readonly id: string
  readonly result: DeliveryResult
}

export class WebhookStore extends Context.Service<WebhookStore, {
  readonly insertSubscription: (subscription: Subscription) => Effect.Effect<void>
  readonly updateSubscription: (subscription: Subscription) => Effect.Effect<void>
  readonly deleteSubscription: (environment: Environment, shopId: string, id: string) => Effect.Effect<boolean>
  readonly findSubscription: (environment: Environment, shopId: string, id: string) => Effect.Effect<Option.Option<Subscription>>
  readonly findSubscriptionById: (id: string) => Effect.Effect<Option.Option<Subscription>>
  /** Newest first. */
  readonly listSubscriptions: (
    environment: Environment,
    shopId: string,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Subscription>; readonly total: number }>
  /** The active subscriptions an event of that shop goes to: the shop's own and its merchant's all-shop ones. */
  readonly activeSubscriptions: (environment: Environment, merchantId: string, shopId: string) => Effect.Effect<ReadonlyArray<Subscription>>

  readonly insertDeliveries: (deliveries: ReadonlyArray<Delivery>) => Effect.Effect<void>
  readonly findDelivery: (webhookId: string, id: string) => Effect.Effect<Option.Option<Delivery>>
  /** The deliveries of one event of that shop, to every webhook it went to, oldest first. */
  readonly deliveriesOfEvent: (environment: Environment, shopId: string, eventId: string) => Effect.Effect<ReadonlyArray<Delivery>>
  readonly listDeliveries: (
    webhookId: string,
    filter: { readonly status?: DeliveryStatus | undefined },
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Delivery>; readonly total: number }>
  /**
   * Leases up to `limit` deliveries due at `now` (real time; pending or failed, lease lapsed)
   * until `now + leaseMs`. Due means `nextAttemptAt <= now`, or for a sandbox delivery
   * `nextAttemptAt <= now + its shop's clock offset` (`SandboxClockStore`); those due on the real
   * clock come first. With `sandboxShopId`, only that sandbox shop's deliveries. Concurrent claims
   * never return the same delivery.
   */
  readonly claimDeliveries: (
    now: DateTime.Utc,
    leaseMs: number,
    limit: number,
    sandboxShopId?: string
  ) => Effect.Effect<ReadonlyArray<Delivery>>
  /**
   * How many deliveries of a sandbox shop are due at `now` on its clock, leased or not (work a
   * test clock's advance waits for).
   */
  readonly countDue: (now: DateTime.Utc, sandboxShopId: string) => Effect.Effect<number>
  /**
   * The delivery backlog as an operator watches it: deliveries due at `now` on the real clock
   * (pending or failed), the oldest one's `nextAttemptAt`, and the dead letters (for the metrics).
   */
  readonly backlog: (now: DateTime.Utc) => Effect.Effect<{
    readonly due: number
    readonly oldestDueAt: DateTime.Utc | null
    readonly deadLetters: number
  }>
  /**
   * Records the outcomes of a batch of attempts and releases their leases, all at once (one
   * statement on SQL).
   */
  readonly recordAttempts: (outcomes: ReadonlyArray<DeliveryOutcome>) => Effect.Effect<void>
  /** Queues a delivery again now, whatever its status. */
  readonly requeue: (id: string, now: DateTime.Utc) => Effect.Effect<void>

  readonly insertInboxMessage: (message: InboxMessage) => Effect.Effect<void>
  /** Newest first. */
  readonly listInbox: (
    webhookId: string,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<InboxMessage>; readonly total: number }>
}>()("core/ports/WebhookStore") {}
