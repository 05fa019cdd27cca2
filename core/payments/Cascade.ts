/**
 * One try of the routing cascade on one provider, timed and recorded as an attempt; and the
 * `cascade_exhausted` error a cascade ends with when no provider accepted. The cascade moves on
 * only after a failure that left nothing behind (an outage that refused the call); a decline stops
 * it, since another provider would refuse the same charge; and so does an unknown outcome (a
 * timeout): the provider may hold the charge, and another one could charge the buyer twice. The
 * loop itself, with its write-ahead of every attempt, is in `CreateRoute.ts`.
 *
 * Cards: a connector fails a SOFT card decline `ProviderError.failed` (nothing was charged), so
 * the cascade presents the same card token to the next acquirer; a HARD one `declined`, which
 * stops it (`core/ports/CardDeclines.ts`). A card payment's attempt keeps the normalized word
 * (`decline`), and `card_attempts_total` counts it by provider, brand, outcome and decline.
 */
import { absurd, Clock, DateTime, Duration, Effect, Metric, Result } from "effect"
import * as Metrics from "../Metrics.ts"
import { apiError, type ApiErrorOf } from "../ApiError.ts"
import { type ChargeAccepted, type PaymentProvider, ProviderError } from "../ports/PaymentProvider.ts"
import type { CardBrand } from "../ports/CardVault.ts"
import { cardDeclineOf } from "../ports/CardDeclines.ts"
import type { Attempt } from "./Payment.ts"
import type { Skipped } from "../routing/Skips.ts"

/** A provider the cascade tries, with why routing put it there (none for a resumed record). */
export interface Route {
  readonly provider: PaymentProvider
  readonly routing?: Attempt["routing"]
  /**
   * Asked again about a charge it may hold (an attempt left in flight or unknown): any answer but
   * accepted or declined leaves the question open, since it says nothing of the first call.
   */
  readonly again?: boolean
}

/** Whether an attempt left the question "does this provider hold the charge?" open. */
export const open = (a: Attempt | undefined) => a?.outcome === "in_flight" || a?.outcome === "unknown"

/** How long one provider may take to answer a charge; past it the outcome is unknown. */
export const chargeTimeout = Duration.seconds(30)

/** The attempt written ahead, before the provider is called, with why routing chose it. */
export const inFlight = (provider: string, at: DateTime.Utc, routing?: Attempt["routing"]): Attempt => ({
  provider,
  outcome: "in_flight",
  latencyMs: 0,
  reason: null,
  at,
  ...(routing === undefined ? {} : { routing })
})

/**
 * Calls the provider (bounded by `chargeTimeout`) and records how it went: the attempt, its
 * metrics, and a span `Provider.charge` with the provider, the rail, the outcome and the latency
 * (nothing of the buyer).
 */
export const tryProvider = Effect.fn("Provider.charge")(function*(
  provider: PaymentProvider,
  /** The rail's id, a label of the attempt metrics. */
  rail: string,
  charge: Effect.Effect<ChargeAccepted, ProviderError>,
  /** On a card payment: the card's brand (a label of the card metrics), and the attempt keeps its normalized decline. */
  card?: { readonly brand: CardBrand }
) {
  const started = yield* Clock.currentTimeMillis
  const result = yield* charge.pipe(
    Effect.timeoutOrElse({
      duration: chargeTimeout,
      orElse: () =>
        Effect.fail(ProviderError.outcomeUnknown({ providerId: provider.id, code: "timeout", message: "no answer in 30 s" }))
    }),
    Effect.result
  )
  const latencyMs = (yield* Clock.currentTimeMillis) - started
  const at = yield* DateTime.now
  const outcomeOf = Result.isSuccess(result) ? "accepted" : failedOutcome(result.failure)
  yield* Metrics.count(Metrics.providerAttempts, { provider: provider.id, rail, outcome: outcomeOf })
  yield* Effect.annotateCurrentSpan({ "provider.id": provider.id, "payment.rail": rail, "provider.outcome": outcomeOf, "provider.latency_ms": latencyMs })
  yield* Metric.update(Metrics.labelled(Metrics.providerAttemptSeconds, { provider: provider.id, rail }), latencyMs / 1000)
  // Only a refusal names a decline: an unknown outcome is no answer, whatever its code says.
  const decline = Result.isSuccess(result) || outcomeOf === "unknown" ? null : cardDeclineOf(result.failure.code) ?? null
  if (card !== undefined) {
    yield* Metrics.count(Metrics.cardAttempts, { provider: provider.id, brand: card.brand, outcome: outcomeOf, decline: decline ?? "none" })
  }
  const onCard = card === undefined ? {} : { decline }
  if (Result.isSuccess(result)) {
    return { attempt: { provider: provider.id, outcome: "accepted", latencyMs, reason: null, at, ...onCard } satisfies Attempt, result }
  }
  const error = result.failure
  yield* Effect.logWarning(`provider ${provider.id} ${outcomeOf === "unknown" ? "gave no answer about the charge" : outcomeOf}: ${error.code}`)
  return { attempt: { provider: provider.id, outcome: outcomeOf, latencyMs, reason: error.code, at, ...onCard } satisfies Attempt, result }
})

/**
 * The attempt's outcome for a provider's error: `declined` stops the cascade, `unknown` keeps it
 * on this provider, `failed` moves on (a refused configuration left nothing behind either).
 */
const failedOutcome = (error: ProviderError): "declined" | "failed" | "unknown" => {
  switch (error.reason._tag) {
    case "Declined":
      return "declined"
    case "OutcomeUnknown":
      return "unknown"
    case "Failed":
    case "Misconfigured":
      return "failed"
    default:
      return absurd<never>(error.reason)
  }
}

/**
 * The answer to a request whose charge stays unknown: the record is kept (its key too), and a retry
 * with the same `Idempotency-Key`, or the recovery job, asks the same provider again.
 */
export const outcomeUnknownError = (p: { readonly id: string; readonly provider: string; readonly attempts: ReadonlyArray<Attempt> }) =>
  apiError(
    "provider_outcome_unknown",
    `${p.provider} gave no answer about the charge; retry with the same Idempotency-Key to ask it again (no other provider is tried meanwhile)`,
    { transactionId: p.id, provider: p.provider, reason: p.attempts.at(-1)?.reason ?? null }
  )

/**
 * Why no provider took the payment, from its attempts: the last one declined, or every one
 * failed; `skipped`, the providers routing passed over. `transactionId` names the failed payment
 * record, which keeps both.
 */
export const cascadeError = (
  transactionId: string,
  attempts: ReadonlyArray<Attempt>,
  skipped: ReadonlyArray<Skipped> = []
): ApiErrorOf<"cascade_exhausted"> => {
  const last = attempts.at(-1)
  const details = attempts.map((a) => ({
    provider: a.provider,
    outcome: a.outcome,
    latencyMs: a.latencyMs,
    reason: a.reason,
    ...(a.decline === undefined ? {} : { decline: a.decline })
  }))
  return last?.outcome === "declined"
    ? apiError("cascade_exhausted", `The provider declined the payment (${last.reason ?? "no reason given"})`, {
      reason: "provider_declined",
      providerReason: last.reason,
      paymentMethodEnabledForShop: true,
      transactionId,
      attempts: details,
      skipped
    })
    : apiError("cascade_exhausted", "Every provider for this method failed; retry later", {
      reason: "all_providers_failed",
      paymentMethodEnabledForShop: true,
      transactionId,
      attempts: details,
      skipped
    })
}
