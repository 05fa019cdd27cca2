/**
 * What every upstream simulator offers for reconciliation: the provider's report of
 * what the simulator was actually asked to do in a period, written in the provider's documented
 * file format (the one the connector's `ReportFormat` parses), with faults a test can inject the
 * way a real provider's books go wrong.
 * Test tooling: never imported by a plugin.
 */
import { DateTime, Effect, Option } from "effect"

/** How the simulated provider charges its fee on a captured payment, in the report's fee currency. */
export interface SimulatedFeeRule {
  /** Percent of the payment's amount, decimal text (`"3.5"` = 3.5 %). */
  readonly percent: string
  /** A flat amount per payment, decimal text. */
  readonly flat: string
  /**
   * For a provider whose report states fees in USD (dLocal's settlement currency): the local units
   * per USD it converts a payment's local amount at before the percent applies.
   */
  readonly localPerUsd?: string | undefined
}

export interface ReportFaults {
  /** This many captured payments nobody asked the simulator for (a capture the engine never heard about). */
  readonly unknownCaptures?: number | undefined
  /** The simulator's ids of refunds reported twice (a refund the provider paid twice). */
  readonly duplicatedRefunds?: ReadonlyArray<string> | undefined
  /** The simulator's ids of payments whose reported fee is this decimal text instead of the rule's. */
  readonly changedFees?: Readonly<Record<string, string>> | undefined
}

export interface SimulatorReports {
  /**
   * The provider's report for `[start, end)`: every payment captured, refund paid and chargeback
   * booked in the period, one line each, in the documented format, with `faults` applied.
   */
  readonly report: (
    period: { readonly start: DateTime.Utc; readonly end: DateTime.Utc },
    faults?: ReportFaults
  ) => string
  /** Sets the fee rule the report applies (default: none, fee 0). */
  readonly setFeeRule: (rule: SimulatedFeeRule) => void
}

/**
 * The standalone runner's control route `POST /_simulator/reports` `{ from, to, faults?, feeRule? }`
 * (ISO instants, the faults and fee rule above): the provider's report of `[from, to)` as text in
 * `{ report }`. A POST with a JSON body, not `GET ?from=&to=`: the runner's control routes get a
 * path segment and a JSON body, and answer JSON.
 */
export const reportRoute = (reports: SimulatorReports) => (_id: string | undefined, body: unknown) =>
  Effect.try({
    try: () => {
      const input = (body ?? {}) as { from?: unknown; to?: unknown; faults?: ReportFaults; feeRule?: SimulatedFeeRule }
      const instant = (name: string, value: unknown) => {
        const at = typeof value === "string" ? DateTime.make(value) : Option.none()
        if (Option.isNone(at)) throw new Error(`${name} must be an ISO instant`)
        return DateTime.toUtc(at.value)
      }
      if (input.feeRule !== undefined) reports.setFeeRule(input.feeRule)
      return { report: reports.report({ start: instant("from", input.from), end: instant("to", input.to) }, input.faults) }
    },
    catch: (e) => (e instanceof Error ? e : new Error(String(e)))
  })
