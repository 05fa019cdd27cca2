/**
 * Managing a shop's webhook endpoints (`Webhooks.ts`' create, read, update, delete and secret
 * rotation): the URL checked where it enters (shape, and the sender's SSRF judgment of the host),
 * the events checked by name, and each change on the audit log in the transaction of the change
 * (never the signing secret; the URL without its query or credentials).
 */
import { DateTime, Effect, Option } from "effect"
import { invalidRequest, type Issue, notFound } from "../ApiError.ts"
import { Audit } from "../audit/Audit.ts"
import { baseUrlOf, EngineConfig } from "../EngineConfig.ts"
import type { Environment } from "../Environment.ts"
import { Ids } from "../Ids.ts"
import { merchantUrlProblem } from "../MerchantUrl.ts"
import { Transactions } from "../ports/Transactions.ts"
import { WebhookSender } from "../ports/WebhookSender.ts"
import { WebhookStore } from "../ports/WebhookStore.ts"
import { eventTypes, type Subscription } from "./Webhook.ts"

/** How long a rotated-out signing secret still signs (beside the new one). */
export const rotationGraceHours = 24

export interface SubscriptionInput {
  readonly url?: string | undefined
  readonly events?: ReadonlyArray<string> | undefined
  readonly description?: string | null | undefined
  readonly active?: boolean | undefined
}

/** Where a subscription is managed; `coversMerchantId` when the credential covers every shop of its merchant. */
export type Scope = {
  readonly environment: Environment
  readonly shopId: string
  readonly coversMerchantId?: string | null | undefined
  /** The merchant whose audit log records the change (the API's calls name it). */
  readonly merchantId?: string | undefined
}

/** A target URL as the audit log keeps it: no credentials, no query (either may carry a token). */
const auditedUrl = (url: string) => {
  if (!URL.canParse(url)) return "(unreadable)"
  const u = new URL(url)
  return `${u.protocol}//${u.host}${u.pathname}`
}
const validEvents = (events: ReadonlyArray<string>): ReadonlyArray<Issue> => {
  if (events.length === 0) return [{ path: "events", message: "Expected at least one event name, or \"*\"" }]
  return events.flatMap((e, i) =>
    e === "*" || (eventTypes as ReadonlyArray<string>).includes(e)
      ? []
      : [{ path: `events.${i}`, message: `Unknown event '${e}'; expected one of ${eventTypes.join(", ")} or *` }]
  )
}

export const makeSubscriptions = Effect.gen(function*() {
  const store = yield* WebhookStore
  const sender = yield* WebhookSender
  const ids = yield* Ids
  const config = yield* EngineConfig
  const audit = yield* Audit
  const tx = yield* Transactions
  /** A change to an endpoint, with its record (never its signing secret) in the same transaction. */
  const audited = <A, E>(scope: Scope, id: string, changes: Record<string, unknown>, write: Effect.Effect<A, E>) =>
    scope.merchantId === undefined ? write : tx.run(Effect.tap(write, () =>
      audit.record({ environment: scope.environment, merchantId: scope.merchantId!, object: { type: "webhook_endpoint", id }, changes: { shopId: scope.shopId, ...changes } })))

  const inboxUrl = (id: string) => `${baseUrlOf(config)}/webhooks/inbox/${id}`

  const get = Effect.fn("Webhooks.get")(function*(scope: Scope, id: string) {
    const found = yield* store.findSubscription(scope.environment, scope.shopId, id)
    if (Option.isNone(found)) return yield* notFound("webhook", id)
    return found.value
  })

  const check = Effect.fnUntraced(function*(environment: Environment, input: SubscriptionInput) {
    const problem = input.url === undefined ? undefined : merchantUrlProblem(input.url, environment)
    const shape: Issue | undefined = problem === undefined ? undefined : { path: "url", message: problem }
    // Webhooks may not reach internal networks (SSRF): the sender judges the host.
    const refused = input.url === undefined || shape !== undefined ? undefined : yield* sender.checkTarget(input.url)
    const issues = [
      ...(shape === undefined ? [] : [shape]),
      ...(refused === undefined ? [] : [{ path: "url", message: `Not a permitted webhook target: ${refused}` }]),
      ...(input.events === undefined ? [] : validEvents(input.events))
    ]
    if (issues.length > 0) return yield* invalidRequest(issues.map((i) => `${i.path}: ${i.message}`).join("; "), issues)
  })

  const create = Effect.fn("Webhooks.create")(function*(scope: Scope, input: SubscriptionInput) {
    if (input.events === undefined) {
      return yield* invalidRequest("events is required", [{ path: "events", message: "Missing key" }], ["events"])
    }
    yield* check(scope.environment, input)
    const id = yield* ids.next("webhook")
    const now = yield* DateTime.now
    const subscription: Subscription = {
      id,
      environment: scope.environment,
      shopId: scope.shopId,
      coversMerchantId: scope.coversMerchantId ?? null,
      url: input.url ?? inboxUrl(id),
      managed: input.url === undefined,
      events: [...new Set(input.events)],
      active: input.active ?? true,
      description: input.description ?? null,
      secret: yield* ids.secret("whsec_", 32),
      previousSecret: null,
      previousSecretExpiresAt: null,
      disabledReason: null,
      createdAt: now,
      updatedAt: now
    }
    yield* audited(scope, id, { created: { url: auditedUrl(subscription.url), events: subscription.events, active: subscription.active } }, store.insertSubscription(subscription))
    return subscription
  })

  const update = Effect.fn("Webhooks.update")(function*(scope: Scope, id: string, input: SubscriptionInput) {
    const current = yield* get(scope, id)
    yield* check(scope.environment, input)
    const next: Subscription = {
      ...current,
      ...(input.url === undefined ? {} : { url: input.url, managed: false }),
      ...(input.events === undefined ? {} : { events: [...new Set(input.events)] }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.active === undefined ? {} : { active: input.active, disabledReason: input.active ? null : current.disabledReason }),
      updatedAt: yield* DateTime.now
    }
    const changed = {
      ...(input.url === undefined ? {} : { url: { from: auditedUrl(current.url), to: auditedUrl(next.url) } }),
      ...(input.events === undefined ? {} : { events: { from: current.events, to: next.events } }),
      ...(input.description === undefined ? {} : { description: { from: current.description, to: next.description } }),
      ...(input.active === undefined ? {} : { active: { from: current.active, to: next.active } })
    }
    yield* audited(scope, id, { updated: changed }, store.updateSubscription(next))
    return next
  })

  const remove = Effect.fn("Webhooks.remove")(function*(scope: Scope, id: string) {
    // Not found fails inside the transaction: nothing is recorded for a webhook that was not there.
    yield* audited(scope, id, { deleted: true }, Effect.flatMap(store.deleteSubscription(scope.environment, scope.shopId, id), (gone) =>
      gone ? Effect.void : Effect.fail(notFound("webhook", id))))
  })

  const rotateSecret = Effect.fn("Webhooks.rotateSecret")(function*(scope: Scope, id: string) {
    const current = yield* get(scope, id)
    const now = yield* DateTime.now
    const next: Subscription = {
      ...current,
      secret: yield* ids.secret("whsec_", 32),
      previousSecret: current.secret,
      previousSecretExpiresAt: DateTime.add(now, { hours: rotationGraceHours }),
      updatedAt: now
    }
    yield* audited(scope, id, { secretRotated: { previousValidUntil: DateTime.formatIso(next.previousSecretExpiresAt!) } }, store.updateSubscription(next))
    return next
  })

  return { get, create, update, remove, rotateSecret }
})
