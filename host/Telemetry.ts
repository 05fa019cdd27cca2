/**
 * OpenTelemetry export of the host's traces, metrics and logs over OTLP/HTTP, from the
 * standard variables: on when `OTEL_EXPORTER_OTLP_ENDPOINT` (or a per-signal
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`...) is set, off otherwise, at no cost. `OTEL_SERVICE_NAME`
 * (default `payment-orchestration-engine`), `OTEL_RESOURCE_ATTRIBUTES`,
 * `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_PROTOCOL` (`http/json`, the default here, or
 * `http/protobuf`: OpenTelemetry's default, but Effect's protobuf encoder is JavaScript, and with
 * every span sampled it cost POST /payments 24 % more CPU in `npm run bench` where JSON, encoded
 * natively, cost 5 %; collectors accept both), `OTEL_SDK_DISABLED` and the batch settings (`OTEL_BSP_SCHEDULE_DELAY`...) are read by
 * Effect's own exporters (`effect/observability`). `OTEL_TRACES_EXPORTER`, `OTEL_METRICS_EXPORTER`
 * and `OTEL_LOGS_EXPORTER` default to `otlp` as OpenTelemetry specifies (Effect's exporters read
 * an unset one as none); `none` turns a signal off. Sampling: `OTEL_TRACES_SAMPLER`
 * `parentbased_traceidratio` (the default here, with `OTEL_TRACES_SAMPLER_ARG`, default 1: every
 * trace), `traceidratio`, `always_on`, `always_off`, `parentbased_always_on`; a span whose parent
 * is sampled out is sampled out, so a trace is whole or absent.
 *
 * What a request's span tells (`PrivateSpans.ts`): the method, the route's template (`url.path` and
 * `http.route`, `/checkout/:token`, never the path), the scheme, the status and the request id;
 * not the URL, its query, the `Host` header, the user agent or the request's headers. The client's
 * address only with `OTEL_EXPORT_CLIENT_ADDRESS=true` (off by default: it is personal data). A
 * 5xx span's error says the status and the template, not the URL. An outgoing call's span (a
 * provider's API) keeps its URL without the query.
 */
import { Config, ConfigProvider, Effect, Layer, Option, Tracer } from "effect"
import { NodeHttpClient } from "@effect/platform-node"
import { Otlp, OtlpSerialization } from "effect/observability"
import { privateSpans } from "../adapters/http/server/middleware/PrivateSpans.ts"

export const defaultServiceName = "payment-orchestration-engine"

/** OpenTelemetry's defaults, behind whatever the environment says. */
const otlpByDefault = ConfigProvider.fromUnknown({ OTEL_TRACES_EXPORTER: "otlp", OTEL_METRICS_EXPORTER: "otlp", OTEL_LOGS_EXPORTER: "otlp" })

const samplers = ["parentbased_traceidratio", "traceidratio", "always_on", "always_off", "parentbased_always_on", "parentbased_always_off"] as const

/**
 * The tracer in place, deciding for each span whether it is sampled: a child follows its parent
 * (for the `parentbased_` samplers and always within a trace), a root is sampled with the ratio.
 */
const sampling = (sampler: typeof samplers[number], ratio: number) =>
  Layer.unwrap(Effect.gen(function*() {
    const inner = yield* Tracer.Tracer
    const root = () =>
      sampler.endsWith("always_on") ? true : sampler.endsWith("always_off") ? false : Math.random() < ratio
    return Layer.succeed(Tracer.Tracer, Tracer.make({
      span: (options) =>
        inner.span({
          ...options,
          sampled: options.sampled && Option.match(options.parent, {
            onNone: root,
            onSome: (parent) => sampler.startsWith("parentbased_") || parent._tag === "Span" ? parent.sampled : root()
          })
        }),
      context: inner.context
    }))
  }))

export const TelemetryLive = Layer.unwrap(Effect.gen(function*() {
  const serviceName = yield* Config.String("OTEL_SERVICE_NAME").pipe(Config.withDefault(defaultServiceName))
  const protocol = yield* Config.Literals(["http/json", "http/protobuf"], "OTEL_EXPORTER_OTLP_PROTOCOL").pipe(Config.withDefault("http/json" as const))
  const sampler = yield* Config.Literals(samplers, "OTEL_TRACES_SAMPLER").pipe(Config.withDefault("parentbased_traceidratio" as const))
  const ratio = yield* Config.Number("OTEL_TRACES_SAMPLER_ARG").pipe(Config.withDefault(1))
  const clientAddress = yield* Config.Boolean("OTEL_EXPORT_CLIENT_ADDRESS").pipe(Config.withDefault(false))
  const otlp = Otlp.layerFromConfig({ resource: { serviceName } }).pipe(
    Layer.provide(protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
    // node:http rather than fetch: a batch of spans is a few hundred kilobytes a second under
    // load, and fetch's streams cost 45 µs of CPU per in-memory create to send them.
    Layer.provide(NodeHttpClient.layerNodeHttp),
    Layer.provide(ConfigProvider.layerAdd(otlpByDefault))
  )
  const sampled = sampler === "always_on" || (sampler.endsWith("traceidratio") && ratio >= 1) ? otlp : sampling(sampler, Math.max(0, ratio)).pipe(Layer.provideMerge(otlp))
  return privateSpans({ clientAddress }).pipe(Layer.provideMerge(sampled))
})).pipe(Layer.orDie)
