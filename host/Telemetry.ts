/**
 * OpenTelemetry export of the host's traces, metrics and logs over OTLP/HTTP (issue 31), from the
 * standard variables: on when `OTEL_EXPORTER_OTLP_ENDPOINT` (or a per-signal
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`...) is set, off otherwise, at no cost. `OTEL_SERVICE_NAME`
 * (default `payment-orchestration-engine`), `OTEL_RESOURCE_ATTRIBUTES`,
 * `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_PROTOCOL` (`http/json` or `http/protobuf`, the
 * default), `OTEL_SDK_DISABLED` and the batch settings (`OTEL_BSP_SCHEDULE_DELAY`...) are read by
 * Effect's own exporters (`effect/observability`). `OTEL_TRACES_EXPORTER`, `OTEL_METRICS_EXPORTER`
 * and `OTEL_LOGS_EXPORTER` default to `otlp` as OpenTelemetry specifies (Effect's exporters read
 * an unset one as none); `none` turns a signal off.
 */
import { Config, ConfigProvider, Effect, Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { Otlp, OtlpSerialization } from "effect/observability"

export const defaultServiceName = "payment-orchestration-engine"

/** OpenTelemetry's defaults, behind whatever the environment says. */
const otlpByDefault = ConfigProvider.fromUnknown({ OTEL_TRACES_EXPORTER: "otlp", OTEL_METRICS_EXPORTER: "otlp", OTEL_LOGS_EXPORTER: "otlp" })

export const TelemetryLive = Layer.unwrap(Effect.gen(function*() {
  const serviceName = yield* Config.String("OTEL_SERVICE_NAME").pipe(Config.withDefault(defaultServiceName))
  const protocol = yield* Config.Literals(["http/json", "http/protobuf"], "OTEL_EXPORTER_OTLP_PROTOCOL").pipe(Config.withDefault("http/protobuf" as const))
  return Otlp.layerFromConfig({ resource: { serviceName } }).pipe(
    Layer.provide(protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
    Layer.provide(FetchHttpClient.layer),
    Layer.provide(ConfigProvider.layerAdd(otlpByDefault))
  )
})).pipe(Layer.orDie)
