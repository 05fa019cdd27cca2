/**
 * A provider's health on one rail, from what its recent attempts did: a circuit breaker folded
 * over the recorded outcomes (so every replica that reads the same attempts agrees on it; nothing
 * lives only in one process's memory).
 *
 * - `closed`: tried in its place.
 * - `open`: after `failuresToOpen` consecutive bad outcomes (a retryable failure, a timeout, or an
 *   answer slower than `slowMs`), skipped for `openMs`.
 * - `half_open`: after `openMs`, the next payment may try it once (a probe): a good outcome closes
 *   the circuit, a bad one opens it again for `openMs`. While a probe is in flight (recorded as
 *   `probe` when a payment is planned onto a half-open circuit) the circuit counts as open, so
 *   concurrent payments and replicas do not stampede a provider that is coming back; a probe with
 *   no answer for `openMs` (its replica died) no longer holds the others back.
 */

export interface Outcome {
  /** Epoch milliseconds of the attempt's end (or start, for one still in flight). */
  readonly at: number
  /**
   * `ok`: the provider answered (accepted, or declined the buyer: a working provider);
   * `bad`: a retryable failure or a timeout; `probe`: a payment was sent to try a half-open
   * circuit, no answer yet.
   */
  readonly kind: "ok" | "bad" | "probe"
  readonly latencyMs: number
}

export interface BreakerPolicy {
  readonly failuresToOpen: number
  readonly openMs: number
  /** An answer slower than this counts as bad for the circuit, though it may have been accepted. */
  readonly slowMs: number
}

export const defaultBreakerPolicy: BreakerPolicy = { failuresToOpen: 3, openMs: 60_000, slowMs: 5_000 }

export type CircuitState = "closed" | "open" | "half_open"

export interface Circuit {
  readonly state: CircuitState
  readonly consecutiveBad: number
  /** When the circuit (last) opened; null when closed. */
  readonly openedAt: number | null
}

const isBad = (outcome: Outcome, policy: BreakerPolicy) =>
  outcome.kind === "bad" || (outcome.kind === "ok" && outcome.latencyMs > policy.slowMs)

/** The circuit at `now`, from a provider's outcomes on a rail, oldest first. */
export const circuitOf = (outcomes: ReadonlyArray<Outcome>, now: number, policy: BreakerPolicy = defaultBreakerPolicy): Circuit => {
  let consecutiveBad = 0
  let openedAt: number | null = null
  let probeAt: number | null = null
  for (const outcome of outcomes) {
    if (outcome.kind === "probe") {
      // A probe sent while half-open: the others wait for its answer.
      if (openedAt !== null && outcome.at >= openedAt + policy.openMs) probeAt = outcome.at
      continue
    }
    probeAt = null
    if (openedAt !== null) {
      if (outcome.at < openedAt + policy.openMs) continue // answers of calls made before it opened
      if (isBad(outcome, policy)) openedAt = outcome.at
      else {
        openedAt = null
        consecutiveBad = 0
      }
      continue
    }
    consecutiveBad = isBad(outcome, policy) ? consecutiveBad + 1 : 0
    if (consecutiveBad >= policy.failuresToOpen) openedAt = outcome.at
  }
  const state: CircuitState = openedAt === null
    ? "closed"
    : now < openedAt + policy.openMs || (probeAt !== null && now < probeAt + policy.openMs)
    ? "open"
    : "half_open"
  return { state, consecutiveBad, openedAt }
}
