/**
 * A project replica for the fan-out bench: the reference host (`hostLayer`, with its job and
 * delivery workers) on the bench's PostgreSQL schema, delivering to private addresses (the
 * receiver is on loopback). Started by `FanOut.ts` through `Child.ts`.
 */
import { Duration, ManagedRuntime } from "effect"
import { SqlStore } from "../../adapters/storage/sql/SqlStore.ts"
import { loopbackConfig } from "../../host/Config.ts"
import { hostLayer } from "../../host/Host.ts"
import { serveBench } from "./Child.ts"

const env = (name: string) => {
  const value = process.env[name]
  if (value === undefined) throw new Error(`${name} is not set`)
  return value
}

const runtime = ManagedRuntime.make(hostLayer(
  loopbackConfig({ webhookAllowPrivateTargets: true, workerInterval: Duration.millis(Number(env("BENCH_WORKER_INTERVAL_MS"))) }),
  SqlStore.postgres(env("BENCH_DATABASE_URL"), { schema: env("BENCH_SCHEMA") })
))
await runtime.context()
serveBench(() => runtime.dispose())
