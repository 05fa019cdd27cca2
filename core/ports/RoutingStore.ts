import { Context, type Effect, type Option } from "effect"
import type { Environment } from "../Environment.ts"
import type { ProviderRoute } from "./ProviderRouteStore.ts"

/**
 * What routing learns from, shared by every replica: each provider's recent outcomes on each rail.
 * - `ok` / `bad`: how an attempt ended for the circuit breaker (`bad` = a retryable failure or a
 *   timeout), with its latency; `probe`: a payment was sent to a half-open circuit;
 * - `converted` / `not_converted`: whether a payment the provider accepted was finally paid, for
 *   success-rate routing.
 * Only the latest outcomes matter: a store keeps at least the last `keep` per provider and rail
 * and may forget older ones.
 */
export interface RoutingOutcome {
  readonly environment: Environment
  readonly providerId: string
  readonly methodId: string
  readonly kind: "ok" | "bad" | "probe" | "converted" | "not_converted"
  /** Epoch milliseconds. */
  readonly at: number
  readonly latencyMs: number
  /**
   * On the `not_converted` of an attempt the provider refused: its normalized card decline
   * (`CardDeclines.ts`), for the operator's approval report; absent on any other outcome.
   */
  readonly decline?: string | undefined
}

export interface StoredRoutingConfig {
  readonly version: number
  readonly document: unknown
}

/** What routing a payment reads, in one lookup (`RoutingStore.snapshot`). */
export interface RoutingSnapshot {
  readonly config: Option.Option<StoredRoutingConfig>
  /** The shop's provider routes, as `ProviderRouteStore.list` answers them. */
  readonly routes: ReadonlyArray<ProviderRoute>
  /** For each of the providers asked about, its latest `limit` health outcomes on the rail, oldest first. */
  readonly health: ReadonlyArray<RoutingOutcome>
}

export class RoutingStore extends Context.Service<RoutingStore, {
  readonly record: (outcome: RoutingOutcome) => Effect.Effect<void>
  /** The latest `limit` outcomes of these kinds, oldest first. */
  readonly recent: (
    key: { readonly environment: Environment; readonly providerId: string; readonly methodId: string },
    kinds: "health" | "conversion",
    limit: number
  ) => Effect.Effect<ReadonlyArray<RoutingOutcome>>
  /**
   * The shop's configuration and routes with the health of the providers that may serve the rail,
   * read together (one statement on SQL): what routing one payment needs.
   */
  readonly snapshot: (
    key: { readonly environment: Environment; readonly shopId: string; readonly methodId: string },
    providerIds: ReadonlyArray<string>,
    limit: number
  ) => Effect.Effect<RoutingSnapshot>
  /**
   * Every provider's outcomes in the environment at or after `sinceMs` (epoch ms), oldest first: at
   * most the latest `limit` (the operator's health report).
   */
  readonly since: (environment: Environment, sinceMs: number, limit: number) => Effect.Effect<ReadonlyArray<RoutingOutcome>>
  /** Forgets outcomes older than `beforeMs` (epoch ms). */
  readonly prune: (beforeMs: number) => Effect.Effect<void>
  /** A shop's routing configuration in an environment (a JSON document) and its version. */
  readonly config: (environment: Environment, shopId: string) => Effect.Effect<Option.Option<StoredRoutingConfig>>
  /**
   * Writes the next version of the configuration when the stored one is `expectedVersion` (0: none
   * yet); answers false when another writer came first.
   */
  readonly putConfig: (environment: Environment, shopId: string, expectedVersion: number, document: unknown) => Effect.Effect<boolean>
}>()("core/ports/RoutingStore") {}

/** Which of `recent`'s families an outcome belongs to. */
export const familyOf = (kind: RoutingOutcome["kind"]): "health" | "conversion" =>
  kind === "converted" || kind === "not_converted" ? "conversion" : "health"

/** Keeps, of a list oldest first, the last `limit` of each provider: one pass from the newest. */
export const latestPerProvider = (outcomes: ReadonlyArray<RoutingOutcome>, limit: number): ReadonlyArray<RoutingOutcome> => {
  const counted = new Map<string, number>()
  const kept: Array<RoutingOutcome> = []
  for (let i = outcomes.length - 1; i >= 0; i--) {
    const o = outcomes[i]!
    const later = counted.get(o.providerId) ?? 0
    counted.set(o.providerId, later + 1)
    if (later < limit) kept.push(o)
  }
  return kept.reverse()
}
