/**
 * What routing learns from payments, recorded through `Routing.record` (the `RoutingStore`, and
 * at once in this engine's routing snapshots) on the real clock: how each attempt ended (for the
 * circuit breaker) and whether an accepted payment was paid (for success rates).
 */
import { Effect } from "effect"
import { realMillis } from "../clock/RealClock.ts"
import type { Attempt, Payment } from "./Payment.ts"
import { Routing } from "../routing/Routing.ts"
import type { RoutingOutcome } from "../ports/RoutingStore.ts"

/** The recorders, on the `Routing` in context. */
export const makeLearning = Effect.map(Routing, (routing) => {
  const record = (p: Payment, providerId: string, kind: RoutingOutcome["kind"], latencyMs: number, decline?: string | null) =>
    Effect.flatMap(realMillis, (at) =>
      routing.record({
        environment: p.environment,
        providerId,
        methodId: p.paymentMethodId,
        kind,
        at,
        latencyMs,
        ...(typeof decline === "string" ? { decline } : {})
      }))
  return {
    /**
     * A working provider (it accepted or declined) or a bad one (a retryable failure, no answer).
     * A card's soft decline is an answer too: the acquirer works, and the card did not convert
     * there, so a run of issuers' "do not honour" never opens the acquirer's circuit.
     */
    attempt: (p: Payment, attempt: Attempt) => {
      const refused = attempt.outcome === "declined" || (attempt.outcome === "failed" && typeof attempt.decline === "string")
      return Effect.andThen(
        record(p, attempt.provider, !refused && (attempt.outcome === "failed" || attempt.outcome === "unknown") ? "bad" : "ok", attempt.latencyMs),
        // A buyer the provider refused at once did not convert there either.
        refused ? record(p, attempt.provider, "not_converted", 0, attempt.decline) : Effect.void
      )
    },
    /** Whether the payment its provider accepted was finally paid. */
    conversion: (p: Payment, converted: boolean) => record(p, p.provider, converted ? "converted" : "not_converted", 0)
  }
})
