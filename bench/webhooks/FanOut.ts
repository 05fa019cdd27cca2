/**
 * Webhook fan-out: `deliveries` events of a sandbox shop with one subscription pointing at a
 * loopback receiver in this process, enqueued through the engine (`Events.emit` in
 * transactions, as every service emits them) while the delivery workers run, and measured at the
 * receiver:
 *
 * - deliveries per second: distinct deliveries received / (last receipt - start of the enqueue);
 * - latency: receipt time - the event's `created` (written in the enqueueing transaction);
 * - CPU per delivery: `process.cpuUsage()` of the worker processes over the run (memory and
 *   PGlite: of this process, which then also enqueues and receives).
 *
 * On PostgreSQL the workers are `replicas` child processes: the reference host
 * (`ProjectWorker.ts`) for the project, a bare `node:http` + `pg` worker (`BaselineWorker.ts`)
 * for the baseline, each run on a fresh schema migrated by the project, with the same batch size
 * and poll interval. Memory and PGlite live in this process: one in-process replica, no baseline.
 * A delivery received twice fails the run (no double delivery across replicas).
 */
import { createServer, type Server } from "node:http"
import { fileURLToPath } from "node:url"
import { Duration, Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { JoseTokenSigner } from "../../adapters/auth/JoseTokenSigner.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { SqlStore } from "../../adapters/storage/sql/SqlStore.ts"
import { HttpWebhookSender } from "../../adapters/webhooks/HttpWebhookSender.ts"
import { Engine } from "../../core/Engine.ts"
import { EngineConfig } from "../../core/EngineConfig.ts"
import * as Money from "../../core/Money.ts"
import { Transactions } from "../../core/ports/Transactions.ts"
import { Merchants } from "../../core/tenancy/Merchants.ts"
import { Events } from "../../core/webhooks/Events.ts"
import { deliveryBatchSize, Webhooks } from "../../core/webhooks/Webhooks.ts"
import { loopbackConfig } from "../../host/Config.ts"
import { hostLayer } from "../../host/Host.ts"
import { type BenchRow, type Measure, percentile } from "../Row.ts"
import { startWorker, type Worker } from "./Child.ts"

export interface FanOutOptions {
  readonly store: "postgres" | "pglite" | "memory"
  readonly databaseUrl?: string | undefined
  readonly deliveries: number
  readonly replicas: number
}

/** How often an idle worker polls (the host's `WORKER_INTERVAL_MS`), the same for both sides. */
const workerIntervalMs = 100
/** The steady phase that measures latency: this many events (at most) at this rate. */
const steadyCount = 2_000
const steadyPerSecond = 500
/** Events per transaction in the steady phase. */
const eventsPerTransaction = 10
const timeoutMs = 180_000

/** The loopback receiver: answers 200 and records each delivery id once with its latency. */
const receiver = async () => {
  const latencies: Array<number> = []
  const seen = new Set<string>()
  let duplicates = 0
  let lastAt = 0
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const now = Date.now()
      const id = String(req.headers["x-service-delivery"])
      if (seen.has(id)) duplicates++
      else {
        seen.add(id)
        const { created } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { created: string }
        latencies.push(now - Date.parse(created))
        lastAt = now
      }
      res.writeHead(200).end()
    })
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  return {
    url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/hooks`,
    received: () => seen.size,
    duplicates: () => duplicates,
    lastAt: () => lastAt,
    latencies: () => [...latencies].sort((a, b) => a - b),
    resetLatencies: () => void latencies.splice(0),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  }
}

/** The engine without any worker, to set up and enqueue on a store (the replicas deliver). */
const enqueueEngine = (store: Layer.Layer<any, any, never>) =>
  Engine.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(
      JoseTokenSigner.layer(Redacted.make("bench-jwt-secret-of-at-least-32-bytes")),
      HttpWebhookSender.layer({ allowPrivateTargets: true }),
      Layer.succeed(EngineConfig, EngineConfig.of({
        publicUrl: "http://localhost",
        checkoutUrl: "http://localhost",
        fxMarkupPct: Money.decimal("2"),
        depositCallbackSecret: Redacted.make("bench-deposit-secret")
      }))
    )),
    Layer.provideMerge(store)
  )

/** A merchant whose shop subscribes `url` to every event; answers the emitting scope. */
const subscribe = (url: string) =>
  Effect.gen(function*() {
    const { merchant, shops } = yield* (yield* Merchants).create({ name: "Fan-out", email: "fanout@example.com" })
    const scope = { environment: "sandbox" as const, shopId: shops[0]!.id }
    yield* (yield* Webhooks).create(scope, { url, events: ["*"] })
    return { ...scope, merchantId: merchant.id }
  })

type Scope = Effect.Success<ReturnType<typeof subscribe>>

const emitAll = (scope: Scope, from: number, count: number) =>
  Effect.gen(function*() {
    const events = yield* Events
    yield* Effect.forEach(Array.from({ length: count }, (_, i) => from + i), (n) =>
      events.emit({ ...scope, type: "payment.completed", data: { id: `TXN-${n}`, status: "completed" }, relatedTxId: null }), { discard: true })
  })

/**
 * The burst: `count` events in one transaction, so that they all become due at its commit. On
 * PostgreSQL it first locks the deliveries table against the replicas' claims (they wait for the
 * commit instead of seeing nothing); memory and PGlite run one transaction at a time anyway.
 */
const burst = (scope: Scope, count: number, lockTable: boolean) =>
  Effect.gen(function*() {
    const tx = yield* Transactions
    yield* tx.run(Effect.gen(function*() {
      if (lockTable) yield* (yield* SqlClient.SqlClient).unsafe("LOCK TABLE webhook_deliveries IN EXCLUSIVE MODE").pipe(Effect.orDie)
      yield* emitAll(scope, 0, count)
    }))
  })

/** Steady load: `count` events at `perSecond`, in transactions of `eventsPerTransaction`. */
const paced = (scope: Scope, from: number, count: number, perSecond: number) =>
  Effect.gen(function*() {
    const tx = yield* Transactions
    yield* Effect.forEach(Array.from({ length: Math.ceil(count / eventsPerTransaction) }, (_, i) => i), (i) =>
      Effect.sleep(Duration.millis(i * eventsPerTransaction / perSecond * 1000)).pipe(
        Effect.andThen(tx.run(emitAll(scope, from + i * eventsPerTransaction, Math.min(eventsPerTransaction, count - i * eventsPerTransaction))))
      ), { concurrency: "unbounded", discard: true })
  })

const until = async (done: () => boolean, started: number) => {
  while (!done() && Date.now() - started < timeoutMs) await new Promise((r) => setTimeout(r, 5))
}

/**
 * One side of the comparison (`startWorkers` null: the replica is in this process). Throughput
 * and CPU from the burst; latency from the steady phase.
 */
const measure = async (
  runtime: ManagedRuntime.ManagedRuntime<any, any>,
  count: number,
  startWorkers: (() => Promise<ReadonlyArray<Worker>>) | null
): Promise<Measure> => {
  const target = await receiver()
  try {
    const scope = await runtime.runPromise(subscribe(target.url))
    const workers = startWorkers === null ? [] : await startWorkers()
    try {
      const cpu = () => startWorkers === null
        ? Promise.resolve((({ user, system }) => user + system)(process.cpuUsage()))
        : Promise.all(workers.map((w) => w.cpuMicros())).then((all) => all.reduce((a, b) => a + b, 0))
      const enqueueStarted = Date.now()
      await runtime.runPromise(burst(scope, count, startWorkers !== null))
      const committed = Date.now()
      const cpuBefore = await cpu()
      await until(() => target.received() >= count, committed)
      const cpuMicros = (await cpu()) - cpuBefore
      if (target.received() < count) throw new Error(`only ${target.received()} of ${count} deliveries arrived within ${timeoutMs} ms`)
      const seconds = (target.lastAt() - committed) / 1000
      console.error(`    burst: enqueued ${count} in ${committed - enqueueStarted} ms, delivered in ${Math.round(seconds * 1000)} ms`)

      const steady = Math.min(count, steadyCount)
      target.resetLatencies()
      const steadyStarted = Date.now()
      await runtime.runPromise(paced(scope, count, steady, steadyPerSecond))
      await until(() => target.received() >= count + steady, steadyStarted)
      // Anything delivered twice arrives within a lease or a poll: wait a little for it.
      await new Promise((r) => setTimeout(r, 300))
      if (target.received() < count + steady) throw new Error(`only ${target.received() - count} of ${steady} steady deliveries arrived`)
      if (target.duplicates() > 0) throw new Error(`${target.duplicates()} deliveries arrived twice`)
      const latencies = target.latencies()
      return {
        perSecond: count / seconds,
        p50Ms: percentile(latencies, 0.5),
        p99Ms: percentile(latencies, 0.99),
        cpuMsPerOp: cpuMicros / 1000 / count
      }
    } finally {
      await Promise.all(workers.map((w) => w.stop()))
    }
  } finally {
    await target.close()
  }
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))

/** One side on PostgreSQL: a fresh schema, `replicas` worker processes of `file`. */
const onPostgres = async (url: string, file: string, options: FanOutOptions) => {
  const schema = `bench_webhooks_${process.pid}_${Date.now().toString(36)}`
  const runtime = ManagedRuntime.make(enqueueEngine(SqlStore.postgres(url, { schema, maxConnections: 4 })))
  try {
    return await measure(runtime, options.deliveries, () =>
      Promise.all(Array.from({ length: options.replicas }, () =>
        startWorker(file, {
          BENCH_DATABASE_URL: url,
          BENCH_SCHEMA: schema,
          BENCH_WORKER_INTERVAL_MS: String(workerIntervalMs),
          BENCH_BATCH_SIZE: String(deliveryBatchSize),
          LOG_LEVEL: "Warn"
        }))))
  } finally {
    await runtime.runPromise(SqlClient.SqlClient.use((sql) => sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`))).catch(() => undefined)
    await runtime.dispose()
  }
}

/** Memory or PGlite: the host with its workers in this process. */
const inProcess = async (store: Layer.Layer<any, any, never>, options: FanOutOptions) => {
  const runtime = ManagedRuntime.make(hostLayer(loopbackConfig({
    webhookAllowPrivateTargets: true,
    workerInterval: Duration.millis(workerIntervalMs),
    adminToken: Option.some(Redacted.make("bench-admin"))
  }), store))
  try {
    return await measure(runtime, options.deliveries, null)
  } finally {
    await runtime.dispose()
  }
}

export const fanOut = async (options: FanOutOptions): Promise<BenchRow> => {
  const work = `webhook fan-out, ${options.deliveries} deliveries`
  if (options.store !== "postgres") {
    const store = options.store === "memory" ? MemoryStore.layer : SqlStore.pglite(undefined)
    return { work: `${work}, 1 replica (in process)`, store: options.store, project: await inProcess(store, options), baseline: null }
  }
  if (options.databaseUrl === undefined) throw new Error("fanOut on postgres needs databaseUrl")
  const project = await onPostgres(options.databaseUrl, here("./ProjectWorker.ts"), options)
  const baseline = await onPostgres(options.databaseUrl, here("./BaselineWorker.ts"), options)
  return { work: `${work}, ${options.replicas} replica${options.replicas === 1 ? "" : "s"}`, store: "postgres", project, baseline }
}
