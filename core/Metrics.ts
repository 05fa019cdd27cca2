/**
 * The engine's metrics, recorded where the work happens and exported by the host
 * (`GET /metrics`, OTLP). Every label is a bounded set: a provider id (configured instances), a
 * rail id (the catalog), a country, a status or outcome word, a job or journal entry kind; never
 * a transaction, merchant or shop id, an amount or a name.
 */
import { DateTime, Effect, Metric } from "effect"
import { JobStore } from "./ports/JobStore.ts"
import { WebhookStore } from "./ports/WebhookStore.ts"

export const providerAttempts = Metric.counter("provider_attempts_total", {
  description: "Charges asked of providers, by provider, rail and outcome (accepted, failed, declined)",
  incremental: true
})

/**
 * The approval rate's inputs on cards: every charge of a card asked of an acquirer, by provider,
 * brand (the vault's brand word), outcome (accepted, failed, declined, unknown) and the normalized
 * decline (`core/ports/CardDeclines.ts`, `none` when the answer named none). Bounded labels only:
 * no BIN digits, and no issuer country, which the engine does not know (no BIN table).
 */
export const cardAttempts = Metric.counter("card_attempts_total", {
  description: "Card charges asked of acquirers, by provider, brand, outcome (accepted, failed, declined, unknown) and normalized decline (none when no decline word)",
  incremental: true
})

export const providerAttemptSeconds = Metric.histogram("provider_attempt_duration_seconds", {
  description: "Time a provider took to answer a charge, by provider and rail",
  boundaries: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30]
})

export const circuitOpen = Metric.gauge("routing_circuit_open", {
  description: "1 while a provider's circuit on a rail is open or half open (as last seen by routing on this replica), 0 when closed"
})

export const paymentsCreated = Metric.counter("payments_created_total", {
  description: "Payments created, by rail and country",
  incremental: true
})

export const paymentsFinalized = Metric.counter("payments_finalized_total", {
  description: "Payments that reached a final status, by status, provider, rail and country",
  incremental: true
})

export const ledgerEntries = Metric.counter("ledger_entries_total", {
  description: "Journal entries written, by kind",
  incremental: true
})

export const jobsRun = Metric.counter("jobs_run_total", {
  description: "Background jobs run, by kind and outcome (done, retry, dead)",
  incremental: true
})

export const webhookDeliveries = Metric.counter("webhook_deliveries_total", {
  description: "Webhook delivery attempts, by outcome (delivered, failed, dead)",
  incremental: true
})

export const idempotentRequests = Metric.counter("idempotency_requests_total", {
  description: "Requests with an Idempotency-Key that were not executed again, by outcome (replay, conflict, in_progress)",
  incremental: true
})

export const rateLimitRefusals = Metric.counter("rate_limit_refusals_total", {
  description: "Requests refused by a rate limit, by bucket",
  incremental: true
})

export const jobsDue = Metric.gauge("jobs_due", { description: "Pending jobs due now (real clock), by kind" })
export const jobLagSeconds = Metric.gauge("job_lag_seconds", { description: "How long the oldest due job of a kind has waited, seconds" })
export const jobsDead = Metric.gauge("jobs_dead", { description: "Jobs given up after their last attempt, by kind" })
export const webhooksDue = Metric.gauge("webhook_deliveries_due", { description: "Webhook deliveries due now (pending or failed)" })
export const webhookOldestDueSeconds = Metric.gauge("webhook_oldest_due_age_seconds", { description: "How long the oldest due webhook delivery has waited, seconds" })
export const webhookDeadLetters = Metric.gauge("webhook_dead_letters", { description: "Webhook deliveries dead-lettered" })

/**
 * Reads the job queue and the webhook backlog into their gauges: run before each scrape (two
 * indexed queries), so the numbers are those of the store, whichever replica is scraped.
 */
export const refreshBacklog = Effect.gen(function*() {
  const now = yield* DateTime.now
  const age = (t: DateTime.Utc | null) => t === null ? 0 : Math.max(0, DateTime.toEpochMillis(now) - DateTime.toEpochMillis(t)) / 1000
  for (const row of yield* (yield* JobStore).backlog(now)) {
    yield* Metric.update(Metric.withAttributes(jobsDue, { kind: row.kind }), row.due)
    yield* Metric.update(Metric.withAttributes(jobLagSeconds, { kind: row.kind }), age(row.oldestDueAt))
    yield* Metric.update(Metric.withAttributes(jobsDead, { kind: row.kind }), row.dead)
  }
  const webhooks = yield* (yield* WebhookStore).backlog(now)
  yield* Metric.update(webhooksDue, webhooks.due)
  yield* Metric.update(webhookOldestDueSeconds, age(webhooks.oldestDueAt))
  yield* Metric.update(webhookDeadLetters, webhooks.deadLetters)
})

const labelledCache = new WeakMap<Metric.Metric<any, any>, Map<string, Metric.Metric<any, any>>>()

/**
 * `metric` with these attributes, made once per set of values: a labelled metric computes its
 * series key (sorted, JSON-encoded attributes) on first use and keeps it, so making it again for
 * every update cost more than the update. Labels are bounded sets (see above), so is this cache.
 */
export const labelled = <In, State>(metric: Metric.Metric<In, State>, attributes: Record<string, string>): Metric.Metric<In, State> => {
  let byValues = labelledCache.get(metric)
  if (byValues === undefined) labelledCache.set(metric, byValues = new Map())
  let key = ""
  for (const name in attributes) key += `${name}\u0000${attributes[name]}\u0000`
  let found = byValues.get(key)
  if (found === undefined) byValues.set(key, found = Metric.withAttributes(metric, attributes))
  return found as Metric.Metric<In, State>
}

/** `metric` with these attributes, incremented by `by`. */
export const count = (metric: Metric.Metric<number, unknown>, attributes: Record<string, string>, by = 1) =>
  Metric.update(labelled(metric, attributes), by)

/** Counts delivery attempts by outcome: delivered, dead (dead-lettered), failed (retried later). */
export const countDeliveries = (statuses: ReadonlyArray<string>) =>
  Effect.forEach(statuses, (status) =>
    count(webhookDeliveries, { outcome: status === "succeeded" ? "delivered" : status === "dead_letter" ? "dead" : "failed" }), { discard: true })
