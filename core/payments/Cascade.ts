/**
 * The routing cascade: tries the providers in order and moves on after a retryable failure only
 * (timeouts, outages); a decline stops it, since another provider would refuse the same charge.
 * Every try is recorded as an attempt with its outcome and latency.
 */
import { Clock, DateTime, Duration, Effect, Result } from "effect"
import { apiError } from "../ApiError.ts"
import { type ChargeAccepted, type PaymentProvider, ProviderError } from "../ports/PaymentProvider.ts"
import type { Attempt } from "./Payment.ts"

/** How long one provider may take to answer a charge before the cascade moves on. */
export const chargeTimeout = Duration.seconds(30)

const attemptDetails = (attempts: ReadonlyArray<Attempt>) =>
  attempts.map((a) => ({ provider: a.provider, outcome: a.outcome, latencyMs: a.latencyMs, reason: a.reason }))

export const cascade = Effect.fnUntraced(function*(
  providers: ReadonlyArray<PaymentProvider>,
  charge: (provider: PaymentProvider) => Effect.Effect<ChargeAccepted, ProviderError>
) {
  const attempts: Array<Attempt> = []
  for (const provider of providers) {
    const started = yield* Clock.currentTimeMillis
    const result = yield* charge(provider).pipe(
      Effect.timeoutOrElse({
        duration: chargeTimeout,
        orElse: () =>
          Effect.fail(new ProviderError({ providerId: provider.id, retryable: true, reason: "timeout", message: "no answer in 30 s" }))
      }),
      Effect.result
    )
    const latencyMs = (yield* Clock.currentTimeMillis) - started
    const at = yield* DateTime.now
    if (Result.isSuccess(result)) {
      attempts.push({ provider: provider.id, outcome: "accepted", latencyMs, reason: null, at })
      return { provider, accepted: result.success, attempts }
    }
    const error = result.failure
    attempts.push({ provider: provider.id, outcome: error.retryable ? "failed" : "declined", latencyMs, reason: error.reason, at })
    yield* Effect.logWarning(`provider ${provider.id} ${error.retryable ? "failed" : "declined"}: ${error.reason}`)
    if (!error.retryable) {
      return yield* apiError("cascade_exhausted", `The provider declined the payment: ${error.message}`, {
        reason: "provider_declined",
        providerReason: error.reason,
        paymentMethodEnabledForShop: true,
        attempts: attemptDetails(attempts)
      })
    }
  }
  return yield* apiError("cascade_exhausted", "Every provider for this method failed; retry later", {
    reason: "all_providers_failed",
    paymentMethodEnabledForShop: true,
    attempts: attemptDetails(attempts)
  })
})
