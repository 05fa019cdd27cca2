/**
 * What leaves the host about a request: its log line and its exported span name it by the route's
 * template, and carry none of what the client sent in the path (a checkout capability token), the
 * query (an email, a document number) or its headers (the user agent). The client's address is
 * exported only with `OTEL_EXPORT_CLIENT_ADDRESS=true`. An outgoing call's span (a connector's
 * request to its provider) keeps the URL without its query.
 */
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Logger } from "effect"
import { FetchHttpClient, HttpClient, HttpMiddleware, HttpServerRequest, HttpServerResponse } from "effect/http"
import { TelemetryLive } from "../../host/Telemetry.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { baseUrl, createMerchant, eventually, testHost } from "../support/Host.ts"
import { attributeOf, receiver, type Span } from "../support/OtlpReceiver.ts"

const email = "ana.leaky@example.com"
const documentId = "52998224725"
const token = "cs_CapabilityTokenNotForLogs0123456789"
const userAgent = "LeakyBrowser/9.1 (fingerprint-7f3a)"

/** Each request's status, request id, and the span whose `http.request_id` it is. */
const traffic = Effect.gen(function*() {
  const merchant = yield* createMerchant()
  const base = yield* baseUrl
  const send = (path: string, bearer?: string) =>
    Effect.promise(async () => {
      const response = await fetch(base + path, { headers: { "user-agent": userAgent, ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }) } })
      await response.arrayBuffer()
      return { status: response.status, requestId: response.headers.get("x-request-id")! }
    })
  return [
    yield* send(`/api/v1/payments?customerEmail=${encodeURIComponent(email)}&documentId=${documentId}&limit=5`, merchant.keys.sandbox.secretKey),
    yield* send(`/checkout/${token}`),
    yield* send(`/checkout/${token}/nowhere?email=${encodeURIComponent(email)}`)
  ]
})

const withHost = (extra: Record<string, string>) =>
  <A, E, R>(body: (spans: Array<Span>, lines: Array<string>) => Effect.Effect<A, E, R>) =>
    Effect.gen(function*() {
      const r = yield* receiver
      const lines: Array<string> = []
      const env = ConfigProvider.fromEnvRecord({
        OTEL_EXPORTER_OTLP_ENDPOINT: r.url,
        OTEL_BSP_SCHEDULE_DELAY: "50",
        OTEL_METRICS_EXPORTER: "none",
        OTEL_LOGS_EXPORTER: "none",
        ...extra
      })
      const host = testHost(MemoryStore.layer, { logLevel: "Info" }).pipe(
        Layer.provide(ConfigProvider.layer(env)),
        Layer.provide(Logger.layer([Logger.map(Logger.formatLogFmt, (line) => void lines.push(line))]))
      )
      return yield* body(r.spans, lines).pipe(Effect.provide(host))
    }).pipe(Effect.scoped)

const spansOf = (spans: Array<Span>, requests: ReadonlyArray<{ readonly requestId: string }>) =>
  eventually(
    Effect.sync(() => requests.map(({ requestId }) => spans.find((s) => attributeOf(s, "http.request_id") === requestId))),
    (found) => found.every((s) => s !== undefined)
  ).pipe(Effect.map((found) => found as Array<Span>))

describe("what leaves the process about a request", () => {
  it.live("log lines and spans name the route's template; no token, query value, user agent or client address in any", () =>
    withHost({})((spans, lines) =>
      Effect.gen(function*() {
        const requests = yield* traffic
        const requestSpans = yield* spansOf(spans, requests)
        assert.deepStrictEqual(requestSpans.map((s) => attributeOf(s, "url.path")), ["/api/v1/payments", "/checkout/:token", "other"])
        assert.deepStrictEqual(requestSpans.map((s) => attributeOf(s, "http.route")), ["/api/v1/payments", "/checkout/:token", "other"])
        for (const s of requestSpans) {
          for (const key of ["url.full", "url.query", "user_agent.original", "client.address", "server.address"]) assert.isUndefined(attributeOf(s, key), key)
        }
        const requestLines = requests.map(({ requestId }) => lines.find((l) => l.includes(requestId) && l.includes("route=")))
        assert.match(requestLines[1] ?? "", /GET \/checkout\/:token \d{3}/)
        const rendered = [...lines, JSON.stringify(spans)].join("\n")
        for (const secret of [token, "ana.leaky", documentId, "LeakyBrowser", "fingerprint-7f3a"]) {
          const at = rendered.indexOf(secret)
          assert.strictEqual(at, -1, `'${secret}' left the process: ...${rendered.slice(Math.max(0, at - 200), at + 60)}...`)
        }
      })
    ), 30_000)

  it.live("OTEL_EXPORT_CLIENT_ADDRESS=true: the request's span carries the client's address", () =>
    withHost({ OTEL_EXPORT_CLIENT_ADDRESS: "true" })((spans) =>
      Effect.gen(function*() {
        const requests = yield* traffic
        const requestSpans = yield* spansOf(spans, requests)
        assert.deepStrictEqual(requestSpans.map((s) => attributeOf(s, "client.address")), ["127.0.0.1", "127.0.0.1", "127.0.0.1"])
        assert.notInclude(JSON.stringify(spans), token)
      })
    ), 30_000)

  it.live("an outgoing call's span: its URL without the query", () =>
    Effect.gen(function*() {
      const r = yield* receiver
      const env = ConfigProvider.fromEnvRecord({
        OTEL_EXPORTER_OTLP_ENDPOINT: r.url,
        OTEL_BSP_SCHEDULE_DELAY: "50",
        OTEL_METRICS_EXPORTER: "none",
        OTEL_LOGS_EXPORTER: "none"
      })
      // A call under the host's tracer, as a connector makes one; the telemetry layer is closed
      // (its spans flushed) before the spans are read.
      yield* HttpClient.get(`${r.url}/v1/customers?email=${encodeURIComponent(email)}&document=${documentId}`).pipe(
        Effect.provide(FetchHttpClient.layer),
        Effect.provide(TelemetryLive.pipe(Layer.provide(ConfigProvider.layer(env))))
      )
      const call = yield* eventually(Effect.sync(() => r.spans.find((s) => attributeOf(s, "url.full") !== undefined)), (s) => s !== undefined)
      assert.strictEqual(attributeOf(call!, "url.full"), `${r.url}/v1/customers`)
      assert.isUndefined(attributeOf(call!, "url.query"))
      assert.notInclude(JSON.stringify(r.spans), "ana.leaky")
      assert.notInclude(JSON.stringify(r.spans), documentId)
    }).pipe(Effect.scoped), 30_000)

  it.live("a 5xx request's span fails with the status and the route's template, not the URL", () =>
    Effect.gen(function*() {
      const r = yield* receiver
      const env = ConfigProvider.fromEnvRecord({
        OTEL_EXPORTER_OTLP_ENDPOINT: r.url,
        OTEL_BSP_SCHEDULE_DELAY: "50",
        OTEL_METRICS_EXPORTER: "none",
        OTEL_LOGS_EXPORTER: "none"
      })
      // The platform's server span around an answer of 500, as the host's server makes one per request.
      const request = HttpServerRequest.fromWeb(new Request(`http://engine.test/checkout/${token}?email=${encodeURIComponent(email)}`, { headers: { "user-agent": userAgent } }))
      yield* HttpMiddleware.tracer(Effect.succeed(HttpServerResponse.empty({ status: 500 }))).pipe(
        Effect.provideService(HttpServerRequest.HttpServerRequest, request),
        Effect.provide(TelemetryLive.pipe(Layer.provide(ConfigProvider.layer(env))))
      )
      const span = yield* eventually(Effect.sync(() => r.spans.find((s) => attributeOf(s, "http.response.status_code") !== undefined)), (s) => s !== undefined)
      assert.strictEqual((span as unknown as { status: { message?: string } }).status.message, "500 GET /checkout/:token")
      const rendered = JSON.stringify(r.spans)
      for (const secret of [token, "ana.leaky", "LeakyBrowser"]) assert.notInclude(rendered, secret)
    }).pipe(Effect.scoped), 30_000)
})
