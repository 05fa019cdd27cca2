/**
 * The HTTP spans the platform records (one server span per request, one client span per outgoing
 * call) made private, whatever tracer is in place: a request's span tells the method, the route's
 * template (`url.path` and `http.route`, `/checkout/:token`, never the path), the scheme, the
 * status and the request id; not the URL, its query, the `Host` header, the user agent or the
 * request's headers; the client's address only when asked (`clientAddress`). A 5xx span's error
 * says the status and the template, not the URL. An outgoing call's span keeps its URL without
 * the query. The host's telemetry (`host/Telemetry.ts`) and the Fetch handler (`toFetchHandler`)
 * put it over their tracer.
 */
import { Cause, Effect, Exit, Layer, Tracer } from "effect"
import { routeOf } from "../support/RouteTemplates.ts"

/**
 * What a server span (the platform's, one per request) keeps of what the platform records on it.
 * Not `server.address`: it is the request's `Host` header, which the client writes.
 */
const serverAttributes = new Set(["http.request.method", "http.response.status_code", "url.scheme", "http.request_id"])

/** The error a failed server span ends with: the status and the route, nothing the client sent. */
class ServerSpanError extends Error {
  override readonly name = "HttpServerError"
}

/** `span` recording only what `serverAttributes` names, the route's template for the path, and the client's address when `clientAddress`. */
const privateServerSpan = (span: Tracer.Span, clientAddress: boolean): Tracer.Span => {
  const attribute = span.attribute.bind(span)
  const end = span.end.bind(span)
  let method = "GET"
  let route = "other"
  return Object.assign(span, {
    attribute: (key: string, value: unknown) => {
      if (key === "http.request.method" && typeof value === "string") method = value
      if (key === "url.path" && typeof value === "string") {
        route = routeOf(method, value)
        attribute("url.path", route)
        attribute("http.route", route)
      } else if (serverAttributes.has(key) || (clientAddress && key === "client.address")) {
        attribute(key, value)
      }
    },
    end: (endTime: bigint, exit: Exit.Exit<unknown, unknown>) => {
      if (Exit.isSuccess(exit) || Cause.hasInterrupts(exit.cause)) return end(endTime, exit)
      const status = span.attributes.get("http.response.status_code") ?? 500
      end(endTime, Exit.fail(new ServerSpanError(`${status} ${method} ${route}`)))
    }
  })
}

/** `span` without its URL's query (`url.query` dropped, `url.full` without it). */
const privateClientSpan = (span: Tracer.Span): Tracer.Span => {
  const attribute = span.attribute.bind(span)
  return Object.assign(span, {
    attribute: (key: string, value: unknown) => {
      if (key === "url.query") return
      attribute(key, key === "url.full" && typeof value === "string" ? value.split(/[?#]/)[0] : value)
    }
  })
}

/**
 * The tracer in place, its HTTP spans made private: a server span as `privateServerSpan`
 * records it, a client span as `privateClientSpan` does. Every other span is left as it is.
 */
export const privateSpans = (options: { readonly clientAddress: boolean }) =>
  Layer.unwrap(Effect.gen(function*() {
    const inner = yield* Tracer.Tracer
    // No exporter: nothing leaves the process, and the platform records nothing on a native span.
    if (inner === Tracer.nativeTracer) return Layer.empty
    return Layer.succeed(Tracer.Tracer, Tracer.make({
      span: (spanOptions) => {
        const span = inner.span(spanOptions)
        return spanOptions.kind === "server" ? privateServerSpan(span, options.clientAddress) : spanOptions.kind === "client" ? privateClientSpan(span) : span
      },
      context: inner.context
    }))
  }))
