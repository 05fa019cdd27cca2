/**
 * Traces over OTLP: the host with `OTEL_EXPORTER_OTLP_ENDPOINT` pointed at a receiver
 * on loopback sends the spans of a payment: the request's, and inside it the payment's creation,
 * the routing decision and the provider attempt, each with its parent; an incoming `traceparent`
 * is honoured (the request joins the caller's trace).
 */
import { assert, describe, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { call, createMerchant, byTheWorker, eventually, testHost } from "../support/Host.ts"
import { receiver, type Span } from "../support/OtlpReceiver.ts"

class Receiver extends Context.Service<Receiver, { readonly spans: Array<Span>; readonly url: string }>()("test/OtlpReceiver") {}

const HostWithTelemetry = (extra: Record<string, string> = {}) => Layer.unwrap(Effect.gen(function*() {
  const r = yield* receiver
  const env = ConfigProvider.fromEnvRecord({
    OTEL_EXPORTER_OTLP_ENDPOINT: r.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "100",
    OTEL_SERVICE_NAME: "engine-under-test",
    ...extra
  })
  return Layer.merge(
    // As an operator configures it: the standard variables in the host's environment.
    testHost(MemoryStore.layer).pipe(Layer.provide(ConfigProvider.layer(env))),
    Layer.succeed(Receiver, { spans: r.spans, url: r.url })
  )
}))

describe("OTLP traces", () => {
  layer(HostWithTelemetry(), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("a payment's request, creation, routing and provider attempt arrive as one trace with their parents", () =>
      Effect.gen(function*() {
        const { spans } = yield* Receiver
        const merchant = yield* createMerchant()
        const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
        const created = yield* call("POST", "/api/v1/payments", {
          bearer: merchant.keys.sandbox.secretKey,
          headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, "idempotency-key": "telemetry-test-1" },
          body: { amount: 12, paymentMethodId: "sbx_pix", userName: "Ana Souza", documentId: "52998224725" }
        })
        assert.strictEqual(created.status, 201)
        const trace = yield* eventually(Effect.sync(() => spans.filter((s) => s.traceId === traceId)), (t) => t.some((s) => s.name === "Provider.charge"))
        const names = trace.map((s) => s.name)
        const byId = new Map(trace.map((s) => [s.spanId, s]))
        const byName = (name: string) => trace.find((s) => s.name === name)
        /** The names from a span up to the request's. */
        const ancestry = (s: Span | undefined): Array<string> => s === undefined ? [] : [s.name, ...ancestry(byId.get(s.parentSpanId ?? ""))]
        // The first payment of a rail on a shop reads its routing snapshot (`Routing.snapshot`); the
        // key, claimed by the payment's write-ahead, makes no round trip and has no span of its own.
        for (const name of ["Auth.authenticate", "Routing.snapshot", "Payments.create", "Provider.charge"]) assert.isDefined(byName(name), `${name} in ${names.join(", ")}`)
        assert.isUndefined(byName("Idempotency.run"), names.join(", "))
        assert.includeMembers(ancestry(byName("Routing.snapshot")), ["Routing.snapshot", "Payments.create", "POST"])
        // One tree under the caller's span: the request's span is its child, every other span descends from it.
        const roots = trace.filter((s) => !byId.has(s.parentSpanId ?? ""))
        assert.deepStrictEqual(roots.map((s) => [s.name, s.parentSpanId]), [["POST", "00f067aa0ba902b7"]])
        assert.includeMembers(ancestry(byName("Provider.charge")), ["Provider.charge", "Payments.create", "POST"])
        const attempt = byName("Provider.charge")!
        const attribute = (key: string) => Object.values(attempt.attributes.find((a) => a.key === key)?.value ?? {})[0]
        assert.deepStrictEqual([attribute("provider.id"), attribute("payment.rail"), attribute("provider.outcome")], ["sandbox", "sbx_pix", "accepted"])
        // The request id the merchant sees (header, error envelope) is on the request's span.
        const requestSpan = roots[0]!
        const requestId = Object.values(requestSpan.attributes.find((a) => a.key === "http.request_id")?.value ?? {})[0]
        assert.strictEqual(requestId, created.headers.get("x-request-id"))
        // Nothing of the buyer in any span of the trace.
        assert.notMatch(JSON.stringify(trace), /Ana Souza|52998224725/)
      }))
    it.effect("a job the request enqueued, and the webhook delivery the job caused, run as traces of their own, each linked to its cause", () =>
      Effect.gen(function*() {
        const { spans, url } = yield* Receiver
        const merchant = yield* createMerchant()
        // The receiver answers 200 to anything: a merchant's endpoint as well.
        const hook = yield* call("POST", "/api/v1/webhooks", { bearer: merchant.keys.sandbox.secretKey, body: { url: `${url}/hooks`, events: ["payment.completed"] } })
        assert.strictEqual(hook.status, 201, JSON.stringify(hook.body))
        const traceId = "6bf92f3577b34da6a3ce929d0e0e4736"
        const created = yield* call("POST", "/api/v1/payments", {
          bearer: merchant.keys.sandbox.secretKey,
          headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, "sandbox-simulate": "paid" },
          body: { amount: 13, paymentMethodId: "sbx_pix", userName: "Ana Souza", documentId: "52998224725" }
        })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        // The host's worker runs the job and the delivery, under the host's tracer.
        const job = yield* byTheWorker(
          Effect.sync(() => spans.find((s) => s.name === "Job payment.sandbox_outcome" && (s.links ?? []).some((l) => l.traceId === traceId))),
          (s) => s !== undefined
        )
        assert.isDefined(job, "the sandbox outcome job's span, linked to the request's trace")
        assert.notStrictEqual(job!.traceId, traceId, "its own trace")
        const linked = spans.find((s) => s.spanId === job!.links![0]!.spanId)
        assert.strictEqual(linked?.traceId, traceId, "the link names a span of the request's trace")
        const delivery = yield* byTheWorker(
          Effect.sync(() => spans.find((s) => s.name === "Webhook delivery" && (s.links ?? []).some((l) => l.traceId === job!.traceId))),
          (s) => s !== undefined
        )
        assert.isDefined(delivery, "the delivery's span, linked to the job's trace that emitted payment.completed")
      }))
  })

  layer(HostWithTelemetry({ OTEL_TRACES_SAMPLER_ARG: "0" }), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("OTEL_TRACES_SAMPLER_ARG=0: a request of its own is not exported; one joining a sampled caller's trace is, whole", () =>
      Effect.gen(function*() {
        const { spans } = yield* Receiver
        const merchant = yield* createMerchant()
        const pay = (headers: Record<string, string>) =>
          call("POST", "/api/v1/payments", {
            bearer: merchant.keys.sandbox.secretKey,
            headers,
            body: { amount: 12, paymentMethodId: "sbx_pix", userName: "Ana Souza", documentId: "52998224725" }
          })
        assert.strictEqual((yield* pay({})).status, 201)
        const traceId = "5bf92f3577b34da6a3ce929d0e0e4736"
        assert.strictEqual((yield* pay({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` })).status, 201)
        const sampled = yield* eventually(Effect.sync(() => spans.filter((s) => s.traceId === traceId)), (t) => t.some((s) => s.name === "Provider.charge"))
        assert.includeMembers(sampled.map((s) => s.name), ["POST", "Payments.create", "Provider.charge"])
        // Every Payments.create exported belongs to the caller's trace: the other request was sampled out.
        assert.deepStrictEqual([...new Set(spans.filter((s) => s.name === "Payments.create").map((s) => s.traceId))], [traceId])
      }))
  })
})
