/**
 * Buyer data as a connector reads it: `ChargeRequest.customer` carries it `Redacted`, and a
 * connector reads a field in the clear only at the line that puts it on its wire, so that nothing
 * it logs, traces or fails with can carry it.
 */
import { Redacted } from "effect"

/** The value of a buyer field for the wire; undefined when the request has none. */
export const clear = <A>(value: Redacted.Redacted<A> | undefined): A | undefined =>
  value === undefined ? undefined : Redacted.value(value)
