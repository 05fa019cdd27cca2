/**
 * Why routing passed a provider over for a payment: kept on the payment beside its attempts
 * (`Payment.skipped`, `routing.skipped` of GET /payments/{id}) and in the error that ends a
 * create with nothing left to try (`details.skipped`), so that a merchant sees every provider its
 * rule or routes named and why each one did not take the payment. A skipped provider was never
 * called: it is not an attempt, and `attempts` stays the list of calls made.
 */
export const skipReasons = [
  /** The shop's route to it is disabled. */
  "route_disabled",
  /** A route or rule names a provider this engine has not configured in the environment. */
  "provider_not_configured",
  /** The provider does not serve the rail. */
  "method_not_supported",
  /** The shop's route to it names other payment methods only (`methodIds`). */
  "method_not_in_route",
  /** A routing rule matched the payment and did not name it. */
  "excluded_by_rule",
  /** Its circuit on the rail is open (the `health` and `success_rate` strategies). */
  "circuit_open",
  /** It needs buyer data the request lacks (`missingFields` names it). */
  "missing_required_fields"
] as const
export type SkipReason = typeof skipReasons[number]

/** A provider passed over, with why. */
export interface Skipped {
  readonly provider: string
  readonly reason: SkipReason
  /** `missing_required_fields`: the buyer data it needs that the request lacked, by the API's names. */
  readonly missingFields?: ReadonlyArray<string>
}
