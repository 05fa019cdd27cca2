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
export const Scenario = Schema.Literals(["none", ...SandboxSimulate.literals])
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
  slow_payment: "completed"
} satisfies StatusMap<typeof Scenario, ChargeStatus>

/** The scenario of a reference; an unknown one (not made by this provider) polls pending. */
export const scenarioStatus = (scenario: string): ChargeStatus => statusOf(scenarioStatusMap, scenario, "pending")

/** The statuses the sandbox payment form's callback carries (any other is refused, unread). */
export const CallbackStatus = Schema.Literals(["completed", "failed"])
export type CallbackStatus = typeof CallbackStatus.Type
export const callbackStatuses = CallbackStatus.literals

export const callbackStatusMap = {
  completed: "completed",
  failed: "failed"
} satisfies StatusMap<typeof CallbackStatus, ChargeStatus>
