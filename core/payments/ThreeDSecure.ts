/**
 * 3-D Secure, as the engine drives it on card rails:
 *
 * - every card charge carries a `returnUrl`, the engine's return page for that charge
 *   (`/3ds/return/{transactionId}`), where the provider sends the buyer after a challenge;
 * - a charge the provider accepts with a `nextAction` (the challenge page) leaves the payment
 *   pending with it, and the challenge has `challengeWindow` to end: past it the expiry job asks
 *   the provider once more and, unless the charge completed, expires the payment (abandoned);
 * - an `authentication_required` decline (soft: nothing was charged) is retried ONCE on the same
 *   provider with `threeDSecure: "required"`, written ahead as an attempt of its own with its own
 *   upstream key `<transactionId>:<providerId>:3ds` (the first call's key already names a refused
 *   charge), before the cascade moves on.
 */
import { DateTime, Duration } from "effect"
import type { EngineConfig } from "../EngineConfig.ts"
import type { NewJob } from "../jobs/Jobs.ts"
import type { ChargeAccepted } from "../ports/PaymentProvider.ts"
import { inFlight } from "./Cascade.ts"
import type { Attempt, Payment } from "./Payment.ts"
import type { PaymentChanges } from "./PaymentState.ts"

/** How long a buyer has to finish a 3-D Secure challenge before the payment expires. */
export const challengeWindow = Duration.minutes(15)

/** What `failureReason` says of a payment whose challenge was never finished. */
export const abandonedReason = "expired: 3-D Secure challenge abandoned"

/** The expiry job's kind (`Lifecycle.JobKinds.expire`), repeated here to keep this file off the life cycle's imports. */
const expireKind = "payment.expire"

/** The engine's page a provider sends the buyer back to after a challenge: it asks the provider how it ended. */
export const returnUrlOf = (config: Pick<EngineConfig["Service"], "publicUrl">, transactionId: string) =>
  `${config.publicUrl}/3ds/return/${encodeURIComponent(transactionId)}`

/** The card rail's `returnUrl` for a charge; none on other rails. */
export const chargeReturnUrl = (config: Pick<EngineConfig["Service"], "publicUrl">, p: Payment) =>
  p.channel === "CREDIT_CARD" ? returnUrlOf(config, p.id) : undefined

/** Whether a charge to `providerId` is the 3-D Secure retry: the attempt written ahead for it says so. */
export const isRetry = (p: Payment, providerId: string) => {
  const last = p.attempts.at(-1)
  return last !== undefined && last.provider === providerId && last.threeDSecure === "required"
}

/** The upstream idempotency key of a charge to `providerId`: the retry with 3-D Secure has its own. */
export const idempotencyKeyOf = (p: Payment, providerId: string) =>
  isRetry(p, providerId) ? `${p.id}:${providerId}:3ds` : `${p.id}:${providerId}`

/**
 * Whether an attempt's answer calls for the one retry with 3-D Secure: the provider said the
 * issuer wants authentication (a soft decline, nothing charged), and it was not the retry already.
 */
export const wantsRetry = (attempt: Attempt) =>
  attempt.outcome === "failed" && attempt.reason === "authentication_required" && attempt.threeDSecure === undefined

/**
 * The attempt written ahead before `providerId` is asked: asked again about a 3-D Secure retry
 * it gave no answer to (`unknown`), it is that retry again, with the retry's key; otherwise a
 * plain attempt.
 */
export const attemptAhead = (last: Attempt | undefined, providerId: string, at: DateTime.Utc, routing?: Attempt["routing"]): Attempt =>
  last !== undefined && last.provider === providerId && last.outcome === "unknown" && last.threeDSecure === "required"
    ? { ...inFlight(providerId, at, routing), threeDSecure: "required" }
    : inFlight(providerId, at, routing)

/** The retry's attempt, written ahead before the provider is asked again; it keeps why routing chose the provider. */
export const retryAttempt = (failed: Attempt, at: DateTime.Utc): Attempt => ({
  ...inFlight(failed.provider, at, failed.routing),
  threeDSecure: "required"
})

/**
 * What an accepted charge changes on the payment beside its provider's answer: the challenge to
 * show, and an expiry no later than the end of the challenge window.
 */
export const acceptedChanges = (p: Payment, accepted: ChargeAccepted, now: DateTime.Utc): PaymentChanges => {
  if (accepted.status !== "pending" || accepted.nextAction === undefined) return {}
  const deadline = DateTime.add(now, { milliseconds: Duration.toMillis(challengeWindow) })
  return {
    nextAction: { type: accepted.nextAction.type, url: accepted.nextAction.url },
    expiresAt: DateTime.isLessThan(deadline, p.expiresAt) ? deadline : p.expiresAt
  }
}

/**
 * The expiry job at the end of a challenge window (the record's own expiry job, written ahead
 * for its later `expiresAt`, has its own dedupe key and finds the payment ended).
 */
export const challengeExpiryJob = (p: Payment): NewJob => ({
  kind: expireKind,
  payload: { paymentId: p.id },
  runAt: p.expiresAt,
  dedupeKey: `${expireKind}:${p.id}:3ds`
})
