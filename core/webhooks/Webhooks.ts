/**
 * Webhook subscriptions (managed in `Subscriptions.ts`) and at-least-once delivery (spec 2.14, 2.15, 3.6, 4.11, 6).
 *
 * Delivery: the worker leases due deliveries (any number of replicas share them), signs the stored
 * body with `X-Service-Signature: t=<unix>,v1=<hex>[,v0=<hex>]` (v0: the previous secret during
 * the 24-hour rotation window) and POSTs it with a 15-second timeout. 2xx succeeds. 410 Gone turns
 * the subscription off and dead-letters the delivery. Anything else, a timeout or a network error
 * retries after 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h, 24 h (each +-10 % jitter; `Retry-After`
 * on 429/503 is honoured when longer); after the 9th attempt (about 2.75 days) the delivery is
 * `dead_letter`. Replay queues any delivery again at once.
 *
 * Delivery statuses: `pending` (not tried yet, or queued by replay) -> `succeeded` | `failed`
 * (last try failed, another is scheduled at `nextAttemptAt`) -> ... -> `dead_letter`.
 *
 * Managed subscriptions (no URL given) deliver to an inbox on the host's own domain; the engine
 * hands those deliveries to the inbox in-process, where they are verified like any POST to it.
 *
 * Sandbox time: a sandbox delivery is attempted on its shop's clock (`ShopClocks`), so its
 * retries are scheduled, and come due, in shop time; the signature's `t=` is always real time, as
 * receivers check it against their own clock.
 */
import { makeSubscriptions, type Scope, type SubscriptionInput } from "./Subscriptions.ts"
import { ownTrace } from "../Tracing.ts"
import { Context, DateTime, Duration, Effect, Layer, Option, Random } from "effect"
import { Mac } from "effect/crypto"
import { apiError, type ApiErrorOf, catchCode, invalidRequest, notFound } from "../ApiError.ts"
import { realNow } from "../clock/RealClock.ts"
import { ShopClocks } from "../clock/ShopClocks.ts"
import { Ids } from "../Ids.ts"
import * as Metrics from "../Metrics.ts"
import { WebhookSender } from "../ports/WebhookSender.ts"
import { type DeliveryOutcome, type DeliveryResult, WebhookStore } from "../ports/WebhookStore.ts"
import { signatureHeader, verifySignature } from "../Signatures.ts"
import { type Delivery, type DeliveryEvent, deliveryTransition, type DeliveryStatus, type InboxMessage, type Subscription } from "./Webhook.ts"

export const deliveryTimeoutMs = 15_000
export { rotationGraceHours } from "./Subscriptions.ts"
export const retryDelays: ReadonlyArray<Duration.Duration> = [
  Duration.minutes(1),
  Duration.minutes(5),
  Duration.minutes(30),
  Duration.hours(2),
  Duration.hours(5),
  Duration.hours(10),
  Duration.hours(24),
  Duration.hours(24)
]
export const maxAttempts = retryDelays.length + 1
const leaseMs = 60_000
/** Deliveries leased per claim, sent at once and recorded in one write. */
export const deliveryBatchSize = 100

export type { SubscriptionInput } from "./Subscriptions.ts"

type Page = { readonly limit: number; readonly offset: number }

export class Webhooks extends Context.Service<Webhooks, {
  readonly create: (scope: Scope, input: SubscriptionInput) => Effect.Effect<Subscription, ApiErrorOf<"invalid_request">>
  readonly get: (scope: Scope, id: string) => Effect.Effect<Subscription, ApiErrorOf<"not_found">>
  readonly list: (scope: Scope, page: Page) => Effect.Effect<{ readonly rows: ReadonlyArray<Subscription>; readonly total: number }>
  readonly update: (scope: Scope, id: string, input: SubscriptionInput) => Effect.Effect<Subscription, ApiErrorOf<"invalid_request" | "not_found">>
  readonly remove: (scope: Scope, id: string) => Effect.Effect<void, ApiErrorOf<"not_found">>
  readonly rotateSecret: (scope: Scope, id: string) => Effect.Effect<Subscription, ApiErrorOf<"not_found">>
  readonly deliveries: (
    scope: Scope,
    id: string,
    filter: { readonly status?: DeliveryStatus | undefined },
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Delivery>; readonly total: number }, ApiErrorOf<"not_found">>
  readonly replay: (scope: Scope, id: string, deliveryId: string) => Effect.Effect<Delivery, ApiErrorOf<"not_found">>
  readonly inbox: (scope: Scope, id: string, page: { readonly limit: number; readonly offset: number }) => Effect.Effect<{
    readonly rows: ReadonlyArray<InboxMessage>
    readonly total: number
  }, ApiErrorOf<"invalid_request" | "not_found">>
  /** A POST to a managed inbox: verified against the subscription's secrets, stored when valid. */
  readonly receive: (
    webhookId: string,
    headers: Readonly<Record<string, string | undefined>>,
    rawBody: string
  ) => Effect.Effect<InboxMessage, ApiErrorOf<"not_found" | "authentication_failed">>
  /** One pass of the delivery worker; answers how many deliveries it attempted. */
  readonly deliverDue: Effect.Effect<number>
  /** One pass over the due deliveries of one sandbox shop (after its test clock moved). */
  readonly deliverDueFor: (sandboxShopId: string) => Effect.Effect<number>
  /** How many deliveries of one sandbox shop are due, including those another worker is sending. */
  readonly countDueFor: (sandboxShopId: string) => Effect.Effect<number>
}>()("core/webhooks/Webhooks") {
  static readonly layer = Layer.effect(
    Webhooks,
    Effect.gen(function*() {
      const store = yield* WebhookStore
      const sender = yield* WebhookSender
      const ids = yield* Ids
      const clocks = yield* ShopClocks
      const mac = yield* Mac.Mac
      const withMac = Effect.provideService(Mac.Mac, mac)
      const { get, create, update, remove, rotateSecret } = yield* makeSubscriptions
      const deliveries = Effect.fn("Webhooks.deliveries")(function*(
        scope: Scope,
        id: string,
        filter: { readonly status?: DeliveryStatus | undefined },
        page: { readonly limit: number; readonly offset: number }
      ) {
        yield* get(scope, id)
        return yield* store.listDeliveries(id, filter, page)
      })

      const replay = Effect.fn("Webhooks.replay")(function*(scope: Scope, id: string, deliveryId: string) {
        yield* get(scope, id)
        const found = yield* store.findDelivery(id, deliveryId)
        if (Option.isNone(found)) return yield* notFound("delivery", deliveryId)
        const now = yield* DateTime.now
        yield* store.requeue(deliveryId, now)
        return { ...found.value, status: deliveryTransition(found.value.status, "replayed")!, nextAttemptAt: now, lockedUntil: null }
      })

      const inbox = Effect.fn("Webhooks.inbox")(function*(scope: Scope, id: string, page: { readonly limit: number; readonly offset: number }) {
        const subscription = yield* get(scope, id)
        if (!subscription.managed) {
          return yield* invalidRequest("This webhook delivers to its own URL; only managed webhooks have an inbox", [{
            path: "id",
            message: "Expected a managed webhook"
          }])
        }
        return yield* store.listInbox(id, page)
      })

      /** The secrets that sign now: the current one, and the previous one during the grace window. */
      const signingSecrets = (s: Subscription, now: DateTime.Utc): readonly [string, ...Array<string>] =>
        s.previousSecret !== null && s.previousSecretExpiresAt !== null && DateTime.isLessThan(now, s.previousSecretExpiresAt)
          ? [s.secret, s.previousSecret]
          : [s.secret]

      const receive = Effect.fn("Webhooks.receive")(function*(
        webhookId: string,
        headers: Readonly<Record<string, string | undefined>>,
        rawBody: string
      ) {
        const found = yield* store.findSubscriptionById(webhookId)
        if (Option.isNone(found) || !found.value.managed) return yield* notFound("webhook inbox", webhookId)
        const verdict = yield* verifySignature(rawBody, headers["x-service-signature"], signingSecrets(found.value, yield* DateTime.now))
          .pipe(withMac)
        if (verdict !== "valid") return yield* apiError("authentication_failed", `The delivery's signature is ${verdict}`)
        const message: InboxMessage = {
          id: yield* ids.next("event"),
          webhookId,
          deliveryId: headers["x-service-delivery"] ?? null,
          event: headers["x-service-event"] ?? null,
          body: rawBody,
          signatureValid: true,
          receivedAt: yield* DateTime.now
        }
        yield* store.insertInboxMessage(message)
        return message
      })

      /** One attempt: sends and judges the answer; the batch records every outcome at once. */
      const attempt = Effect.fnUntraced(function*(delivery: Delivery, subscription: Option.Option<Subscription>) {
        const now = yield* DateTime.now
        const attempts = delivery.attempts + 1
        let excerpt: string | null = null
        /** The attempt's result; its status is where `event` moves the delivery (a due one: always somewhere). */
        const outcome = (event: DeliveryEvent, result: Omit<DeliveryResult, "attempts" | "status">): DeliveryOutcome => ({
          id: delivery.id,
          result: { ...result, status: deliveryTransition(delivery.status, event) ?? delivery.status, attempts, lastResponseExcerpt: excerpt }
        })
        if (Option.isNone(subscription) || !subscription.value.active) {
          return outcome("given_up", {
            lastStatusCode: null,
            lastError: Option.isNone(subscription) ? "the subscription was deleted" : "the subscription is inactive",
            nextAttemptAt: null,
            succeededAt: null
          })
        }
        const s = subscription.value
        const headers = {
          "content-type": "application/json",
          "user-agent": "payment-orchestration-webhooks/1",
          "x-service-signature": yield* signatureHeader(delivery.body, signingSecrets(s, now)).pipe(withMac),
          "x-service-event": delivery.event,
          "x-service-delivery": delivery.id
        }
        const answer = s.managed
          ? yield* receive(s.id, headers, delivery.body).pipe(
            Effect.as({ status: 200, retryAfterSeconds: null }),
            // What a receiving endpoint would answer: 401 for a bad signature, 404 for an inbox that is gone.
            catchCode("authentication_failed", () => Effect.succeed({ status: 401, retryAfterSeconds: null })),
            catchCode("not_found", () => Effect.succeed({ status: 404, retryAfterSeconds: null }))
          )
          : yield* sender.send(s.url, headers, delivery.body, deliveryTimeoutMs).pipe(Effect.result)
        const result = "_tag" in answer
          ? (answer._tag === "Success" ? { ...answer.success, error: null } : { status: null, retryAfterSeconds: null, error: answer.failure })
          : { status: answer.status, retryAfterSeconds: answer.retryAfterSeconds, error: null }
        excerpt = "bodyExcerpt" in result ? result.bodyExcerpt ?? null : null
        if (result.status !== null && result.status >= 200 && result.status < 300) {
          return outcome("delivered", { lastStatusCode: result.status, lastError: null, nextAttemptAt: null, succeededAt: now })
        }
        const lastError = result.error ?? `HTTP ${result.status}`
        if (result.status === 410) {
          yield* store.updateSubscription({ ...s, active: false, disabledReason: "the endpoint answered 410 Gone", updatedAt: now })
          return outcome("given_up", { lastStatusCode: 410, lastError, nextAttemptAt: null, succeededAt: null })
        }
        if (attempts >= maxAttempts) {
          return outcome("given_up", { lastStatusCode: result.status, lastError, nextAttemptAt: null, succeededAt: null })
        }
        const jitter = yield* Random.nextBetween(0.9, 1.1)
        let delayMs = Math.round(Duration.toMillis(retryDelays[attempts - 1]!) * jitter)
        if ((result.status === 429 || result.status === 503) && result.retryAfterSeconds !== null) {
          delayMs = Math.max(delayMs, result.retryAfterSeconds * 1000)
        }
        return outcome("refused", {
          lastStatusCode: result.status,
          lastError,
          nextAttemptAt: DateTime.add(now, { milliseconds: delayMs }),
          succeededAt: null
        })
      })

      /**
       * One lease: claims a batch, reads each subscription and each shop's clock once, sends the
       * batch concurrently (each attempt on its shop's clock) and records every outcome in one
       * write. A worker that dies before that write loses nothing: the lease lapses.
       */
      const deliverBatch = Effect.fnUntraced(function*(sandboxShopId: string | undefined) {
        const due = yield* store.claimDeliveries(yield* realNow, leaseMs, deliveryBatchSize, sandboxShopId)
        if (due.length === 0) return 0
        const subscriptions = new Map<string, Option.Option<Subscription>>()
        for (const d of due) {
          if (!subscriptions.has(d.webhookId)) subscriptions.set(d.webhookId, yield* store.findSubscriptionById(d.webhookId))
        }
        const byShop = new Map<string, Array<Delivery>>()
        for (const d of due) {
          const key = `${d.environment}/${d.shopId}`
          byShop.set(key, [...(byShop.get(key) ?? []), d])
        }
        const outcomes = yield* Effect.forEach(byShop.values(), (group) =>
          clocks.within(
            group[0]!.environment,
            group[0]!.shopId,
            Effect.forEach(group, (d) =>
              attempt(d, subscriptions.get(d.webhookId)!).pipe(
                ownTrace("Webhook delivery", d.traceParent, { "webhook.event": d.event, "webhook.attempt": d.attempts + 1 })
              ), { concurrency: "unbounded" })
          ), { concurrency: "unbounded" })
        yield* store.recordAttempts(outcomes.flat())
        yield* Metrics.countDeliveries(outcomes.flat().map((o) => o.result.status))
        return due.length
      })
      const deliverDue = deliverBatch(undefined).pipe(Effect.withSpan("Webhooks.deliverDue"))

      return Webhooks.of({
        create,
        get,
        list: (scope, page) => store.listSubscriptions(scope.environment, scope.shopId, page),
        update,
        remove,
        rotateSecret,
        deliveries,
        replay,
        inbox,
        receive,
        deliverDue,
        deliverDueFor: (sandboxShopId) => deliverBatch(sandboxShopId).pipe(Effect.withSpan("Webhooks.deliverDueFor")),
        countDueFor: (sandboxShopId) => Effect.flatMap(realNow, (now) => store.countDue(now, sandboxShopId))
      })
    })
  )

  /**
   * A host's delivery loop, until the scope closes: leases batch after batch while they come
   * full, otherwise waits `every` before looking again. Each replica runs one; the leases share
   * the work between them.
   */
  static readonly worker = (every: Duration.Input) =>
    Layer.effectDiscard(Effect.gen(function*() {
      const webhooks = yield* Webhooks
      const idle = Duration.fromInputUnsafe(every)
      yield* webhooks.deliverDue.pipe(
        Effect.catchCause((cause) => Effect.as(Effect.logError("webhook delivery failed", cause), 0)),
        Effect.flatMap((attempted) => attempted < deliveryBatchSize ? Effect.sleep(idle) : Effect.void),
        Effect.forever,
        Effect.forkScoped
      )
    }))
}
