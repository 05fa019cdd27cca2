/**
 * Who carries out a payout on a rail, per environment:
 *
 * | rail                | sandbox                         | production                                   |
 * |---------------------|---------------------------------|----------------------------------------------|
 * | sandbox (`sbx_po_*`)| `sandbox`: waits for `simulate` | not listed                                   |
 * | real, with provider | the payout provider plugin      | the payout provider plugin                   |
 * | real, no provider   | `simulated`: completes at once  | none: not routable, 422 `payout_method_unavailable` |
 *
 * Production never fakes money: without a provider nothing is debited and nothing is reported
 * paid. The simulated driver exists in sandbox only; it refuses a recipient named `...REJECT...`.
 */
import type { Environment } from "../Environment.ts"
import type { PayoutProvider } from "../ports/PayoutProvider.ts"
import type { PayoutMethodDef } from "./PayoutMethod.ts"

export const simulatedDriver = "simulated"
export const sandboxRailDriver = "sandbox"

export type Driver =
  | { readonly _tag: "SandboxRail" }
  | { readonly _tag: "Simulated" }
  | { readonly _tag: "Provider"; readonly provider: PayoutProvider }
  | { readonly _tag: "None" }

export const driverFor = (
  environment: Environment,
  method: PayoutMethodDef,
  providers: ReadonlyArray<PayoutProvider>
): Driver => {
  if (method.sandboxOnly) return { _tag: "SandboxRail" }
  const provider = providers[0]
  if (provider !== undefined) return { _tag: "Provider", provider }
  return environment === "sandbox" ? { _tag: "Simulated" } : { _tag: "None" }
}

/** The `provider` a payout records for its driver. */
export const driverName = (driver: Exclude<Driver, { _tag: "None" }>) =>
  driver._tag === "Provider" ? driver.provider.id : driver._tag === "Simulated" ? simulatedDriver : sandboxRailDriver

/** Why a method cannot be used, as the listing's `unroutableReason` says it. */
export const noPayoutProviderReason = "no_payout_provider_configured"
