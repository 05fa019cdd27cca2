/**
 * The host's metrics: `GET /metrics` in the Prometheus text format, behind the
 * operator's `ADMIN_TOKEN` (Prometheus sends it with `authorization: { credentials: ... }`), and
 * the HTTP request metrics the request lifecycle records. Each scrape first reads the job queue's
 * and the webhook backlog's gauges from the store. Labels are bounded sets: the route's
 * template, the method, the status; never a URL, an id or a name.
 */
import { Effect, Layer, Metric, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { EngineConfig } from "../../../../core/EngineConfig.ts"
import { labelled, refreshBacklog } from "../../../../core/Metrics.ts"
import { JobStore } from "../../../../core/ports/JobStore.ts"
import { WebhookStore } from "../../../../core/ports/WebhookStore.ts"
import { renderError } from "../support/ErrorRendering.ts"
import { RateLimitsFromConfig } from "./RateLimits.ts"
import { makeAdminCheck } from "./AdminCheck.ts"
import { RequestId } from "../support/RequestId.ts"

export const httpRequests = Metric.counter("http_requests_total", {
  description: "HTTP requests answered, by route template, method and status",
  incremental: true
})

export const httpRequestSeconds = Metric.histogram("http_request_duration_seconds", {
  description: "Time to answer an HTTP request, by route template and method",
  boundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
})

/** Records one answered request, by its route template (`routeOf`). */
export const recordRequest = (route: string, method: string, status: number, elapsedMs: number) =>
  Effect.andThen(
    Metric.update(labelled(httpRequests, { route, method, status: String(status) }), 1),
    Metric.update(labelled(httpRequestSeconds, { route, method }), elapsedMs / 1000)
  )

const bearer = (header: string | undefined) => header?.startsWith("Bearer ") ? header.slice(7).trim() : undefined

/**
 * `GET /metrics`: the admin token as the bearer, checked as the admin API checks it (a wrong one
 * takes from the address's login allowance); 404 like the admin API when the host has none. A
 * refusal is the error envelope with the request's id (the request lifecycle's).
 */
export const MetricsRoute = Layer.unwrap(Effect.gen(function*() {
  const checkAdmin = yield* makeAdminCheck
  const engine = yield* EngineConfig
  const stores = yield* Effect.context<JobStore | WebhookStore>()
  return HttpRouter.add(
    "GET",
    "/metrics",
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const refused = yield* checkAdmin(bearer(request.headers["authorization"]) ?? "").pipe(
        Effect.as(undefined),
        Effect.catch((error) => Effect.succeed(error))
      )
      if (refused !== undefined) {
        const requestId = Option.getOrElse(yield* Effect.serviceOption(RequestId), () => "")
        return renderError(refused, requestId, engine.publicUrl)
      }
      yield* refreshBacklog.pipe(Effect.provideContext(stores))
      return HttpServerResponse.text(yield* PrometheusMetrics.format(), { contentType: "text/plain; version=0.0.4; charset=utf-8" })
    })
  )
})).pipe(Layer.provide(RateLimitsFromConfig))
