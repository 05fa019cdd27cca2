/**
 * The project under the bench: the reference host (`hostLayer`) on a loopback port, on the store
 * `BENCH_STORE` names (memory, pglite, or postgres with `DATABASE_URL` in schema `BENCH_SCHEMA`).
 * It prints `{"port":n}` once it listens. Rate limits are out of the way: the bench measures
 * throughput, not the limiter.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import { HttpServer } from "effect/http"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { SqlStore } from "../../adapters/storage/sql/SqlStore.ts"
import { loopbackConfig } from "../../host/Config.ts"
import { hostLayer } from "../../host/Host.ts"

const env = (name: string) => process.env[name] ?? ""
const store: Layer.Layer<any, any, never> = env("BENCH_STORE") === "postgres"
  ? SqlStore.postgres(env("DATABASE_URL"), { schema: env("BENCH_SCHEMA") })
  : env("BENCH_STORE") === "pglite"
  ? SqlStore.pglite(undefined)
  : MemoryStore.layer

const config = loopbackConfig({
  adminToken: Option.some(Redacted.make("bench-admin")),
  workerInterval: Duration.millis(Number(process.env["BENCH_WORKER_INTERVAL_MS"] ?? 1000)),
  webhookAllowPrivateTargets: true,
  rateLimits: { productionPerSecond: 1_000_000, sandboxPerSecond: 1_000_000, authPerMinute: 1_000_000 }
})

Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  if (server.address._tag === "UnixPathAddress") return yield* Effect.die(new Error("expected a TCP address"))
  console.log(JSON.stringify({ port: server.address.port }))
  return yield* Effect.never
}).pipe(Effect.provide(hostLayer(config, store)), NodeRuntime.runMain)
