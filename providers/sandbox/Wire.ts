/**
 * The sandbox provider's statuses, as literal tuples mapped to the engine's (its README, "Status
 * map"). The sandbox speaks to no upstream: what it reports is what the merchant asked for with
 * `Sandbox-Simulate` (a scenario, encoded in the charge reference) and what its payment form's
 * signed callback says.
 */
import { Schema } from "effect"
import type { ChargeStatus } from "../../core/ports/PaymentProvider.ts"
import { SandboxSimulate } from "../../core/ports/PaymentProvider.ts"
import { type StatusMap, statusOf } from "../kit/StatusMap.ts"

/** `none` is a charge made without `Sandbox-Simulate`. */
/**
 * `3ds_frictionless` and `3ds_challenge` are charges of the 3-D Secure test cards
 * (`ThreeDSecureCards.ts`): completed at once, and pending until the challenge page's callback.
 */
export const Scenario = Schema.Literals(["none", ...SandboxSimulate.literals, "3ds_frictionless", "3ds_challenge"])
export type Scenario = typeof Scenario.Type
export const scenarios = Scenario.literals

/**
 * What the status poll answers for a scenario once it is due: `expired` stays pending (the
 * engine's expiry job ends it), `chargeback` is completed (the engine then opens the chargeback),
 * `slow_payment` is completed `slowPaymentAfterMs` after creation and pending before.
 */
export const scenarioStatusMap = {
  none: "pending",
  paid: "completed",
  failed: "failed",
  expired: "pending",
  chargeback: "completed",
  slow_payment: "completed",
  "3ds_frictionless": "completed",
  "3ds_challenge": "pending"
} satisfies StatusMap<typeof Scenario, ChargeStatus>

/** The scenario of a reference; an unknown one (not made by this provider) polls pending. */
export const scenarioStatus = (scenario: string): ChargeStatus => statusOf(scenarioStatusMap, scenario, "pending")

/**
 * The statuses the sandbox payment form's callback carries (any other is refused, unread);
 * `authentication_failed` is the 3-D Secure challenge page's "Fail authentication".
 */
export const CallbackStatus = Schema.Literals(["completed", "failed", "authentication_failed"])
export type CallbackStatus = typeof CallbackStatus.Type
export const callbackStatuses = CallbackStatus.literals

export const callbackStatusMap = {
  completed: "completed",
  failed: "failed",
  authentication_failed: "failed"
} satisfies StatusMap<typeof CallbackStatus, ChargeStatus>

/** What the engine records as a callback's failure reason, where it says more than "failed". */
export const callbackDetail: Partial<Record<CallbackStatus, string>> = {
  authentication_failed: "sandbox: 3-D Secure authentication failed"
}
