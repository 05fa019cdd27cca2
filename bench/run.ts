/**
 * `npm run bench`: requests per second and latency of the reference host, over real HTTP on
 * loopback, for each store (memory, embedded PGlite, and PostgreSQL when DATABASE_URL is set).
 * Numbers depend on the machine; compare runs on the same one.
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { HttpServer } from "effect/http"
import { MemoryStore } from "../adapters/storage/memory/MemoryRepos.ts"
import { SqlStore } from "../adapters/storage/sql/SqlStore.ts"
import { loopbackConfig } from "../host/Config.ts"
import { hostLayer } from "../host/Host.ts"

const requests = Number(process.env["BENCH_REQUESTS"] ?? 2000)
/** How many payments are stored between the two POST /payments measures (cost must not grow with data). */
const fill = Number(process.env["BENCH_FILL"] ?? 10_000)
const concurrency = Number(process.env["BENCH_CONCURRENCY"] ?? 16)
const adminToken = "bench-admin"

const stores: Array<[string, Layer.Layer<any, any, never>]> = [
  ["memory", MemoryStore.layer],
  ["pglite", SqlStore.pglite(undefined)]
]
const url = process.env["DATABASE_URL"]
if (url !== undefined) stores.push(["postgres", SqlStore.postgres(url, { schema: `bench_${Date.now()}` })])

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

const measure = async (label: string, run: () => Promise<Response>, count = requests, quiet = false) => {
  const latencies: Array<number> = []
  let next = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      next++
      const t = performance.now()
      const response = await run()
      await response.arrayBuffer()
      if (response.status >= 400) throw new Error(`${label}: HTTP ${response.status}`)
      latencies.push(performance.now() - t)
    }
  }))
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const rate = latencies.length / seconds
  if (quiet) return rate
  console.log(
    `  ${label.padEnd(34)} ${String(Math.round(latencies.length / seconds)).padStart(6)} req/s` +
      `   p50 ${percentile(latencies, 0.5).toFixed(1)} ms   p99 ${percentile(latencies, 0.99).toFixed(1)} ms`
  )
  return rate
}

const bench = (name: string, store: Layer.Layer<any, any, never>) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    if (server.address._tag === "UnixPathAddress") return
    const base = `http://127.0.0.1:${server.address.port}`
    yield* Effect.promise(async () => {
      const created = await fetch(`${base}/admin/v1/merchants`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Bench", email: "bench@example.com" })
      }).then((r) => r.json()) as { keys: { sandbox: { publishableKey: string; secretKey: string } } }
      const { publishableKey, secretKey } = created.keys.sandbox
      const pair = () =>
        fetch(`${base}/api/v1/auth/token`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ apiKey: publishableKey, secretKey })
        })
      const { accessToken } = await pair().then((r) => r.json()) as { accessToken: string }
      console.log(`${name} (${requests} requests, ${concurrency} concurrent)`)
      await measure("GET /api/v1/me (access token)", () => fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${accessToken}` } }))
      await measure("GET /api/v1/ping (raw secret key)", () => fetch(`${base}/api/v1/ping`, { headers: { authorization: `Bearer ${secretKey}` } }))
      await measure("POST /api/v1/auth/token", pair)
      const payment = () =>
        fetch(`${base}/api/v1/payments`, {
          method: "POST",
          headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
          body: JSON.stringify({ amount: 25, paymentMethodId: "1001", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" })
        })
      const empty = await measure("POST /api/v1/payments (fresh store)", payment)
      await measure("(storing payments)", payment, fill, true)
      const full = await measure(`POST /api/v1/payments (+${fill} stored)`, payment)
      console.log(`  ${"cost growth: full / fresh".padEnd(34)} ${(full / empty).toFixed(2)} (1.00 = independent of stored data)`)
    })
  }).pipe(
    Effect.provide(hostLayer(loopbackConfig({
      adminToken: Option.some(Redacted.make(adminToken)),
      // The bench measures throughput, not the limiter.
      rateLimits: { productionPerSecond: 1_000_000, sandboxPerSecond: 1_000_000, authPerMinute: 1_000_000 }
    }), store)),
    Effect.scoped
  )

/** `BENCH_STORES=memory,pglite` runs those only. */
const only = process.env["BENCH_STORES"]?.split(",")
for (const [name, store] of stores.filter(([name]) => only === undefined || only.includes(name))) {
  await Effect.runPromise(bench(name, store).pipe(Effect.provide(Layer.empty)) as Effect.Effect<void>)
}
