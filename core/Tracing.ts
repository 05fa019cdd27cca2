/**
 * W3C trace context carried by stored work (jobs, webhook deliveries): the `traceparent` of the
 * span that caused it is kept with the record, and the work's own trace links back to it.
 */
import { Effect, Option, Tracer } from "effect"

/** `00-<trace id>-<span id>-<flags>` of the current span; null when there is none. */
export const traceParentOf = (span: Option.Option<Tracer.Span>): string | null =>
  Option.isNone(span) ? null : `00-${span.value.traceId}-${span.value.spanId}-${span.value.sampled ? "01" : "00"}`

/** The span link of a stored `traceparent`; none for anything else. */
export const linkTo = (traceParent: string | null | undefined): Array<Tracer.SpanLink> => {
  const parts = traceParent?.split("-")
  if (parts === undefined || parts.length !== 4 || parts[1]!.length !== 32 || parts[2]!.length !== 16) return []
  return [{ span: Tracer.externalSpan({ traceId: parts[1]!, spanId: parts[2]!, sampled: parts[3] === "01" }), attributes: {} }]
}

/** Runs stored work (a job, a delivery attempt) as a trace of its own, linked to the span that caused it. */
export const ownTrace = (name: string, traceParent: string | null | undefined, attributes: Record<string, unknown>) =>
  <A, E, R>(work: Effect.Effect<A, E, R>) => Effect.withSpan(work, name, { root: true, links: linkTo(traceParent), attributes })
