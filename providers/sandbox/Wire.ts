/**
 * The sandbox provider's statuses, as literal tuples mapped to the engine's (its README, "Status
 * map"). The sandbox speaks to no upstream: what it reports is what the merchant asked for with
 * `Sandbox-Simulate` (a scenario, encoded in the charge reference) and what its payment form's
 * signed callback says.
 */
import type { ChargeStatus } from "../../core/ports/PaymentProvider.ts"
import { SandboxSimulate } from "../../core/ports/PaymentProvider.ts"
import { statusOf } from "../kit/StatusMap.ts"

/** `none` is a charge made without `Sandbox-Simulate`. */
export const scenarios = ["none", ...SandboxSimulate.literals] as const
export type Scenario = typeof scenarios[number]

/**
 * What the status poll answers for a scenario once it is due: `expired` stays pending (the
 * engine's expiry job ends it), `chargeback` is completed (the engine then opens the chargeback),
 * `slow_payment` is completed `slowPaymentAfterMs` after creation and pending before.
 */
export const scenarioStatusMap: Readonly<Record<Scenario, ChargeStatus>> = {
  none: "pending",
  paid: "completed",
  failed: "failed",
  expired: "pending",
  chargeback: "completed",
  slow_payment: "completed"
}

/** The scenario of a reference; an unknown one (not made by this provider) polls pending. */
export const scenarioStatus = (scenario: string): ChargeStatus => statusOf(scenarioStatusMap, scenario, "pending")

/** The statuses the sandbox payment form's callback carries (any other is refused, unread). */
export const callbackStatuses = ["completed", "failed"] as const
export type CallbackStatus = typeof callbackStatuses[number]

export const callbackStatusMap: Readonly<Record<CallbackStatus, ChargeStatus>> = {
  completed: "completed",
  failed: "failed"
}
