/**
 * The operator's health routes: `/health/live` answers while the process does;
 * `/health/ready` answers 503 while the store is unreachable (a PostgreSQL store behind a TCP
 * proxy the test closes) and 200 again once it is back; a host sent SIGTERM answers 503 on
 * `/health/ready` during its grace, before it stops accepting connections. Neither route is in
 * the merchant's `openapi.json`.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { get as httpGet } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { freePort, startChildHost, terminate } from "../support/ChildHost.ts"
import { baseUrl, eventually, testHost } from "../support/Host.ts"
import { postgresStore } from "../support/Stores.ts"
import { tcpProxy } from "../support/TcpProxy.ts"
import { HostConfig } from "../../host/Config.ts"

/**
 * The status of a GET on a new connection each time (no keep-alive pool): once the host stops
 * accepting, a poll is refused, instead of riding a connection opened before the listener closed
 * (which a loaded machine kept alive past the grace, and the test saw 503 to the end).
 */
const freshConnectionStatus = (url: string) =>
  new Promise<number | "refused">((resolve) => {
    const request = httpGet(url, { agent: false, timeout: 1_000 }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    request.on("timeout", () => request.destroy())
    request.on("error", () => resolve("refused"))
  })

const get = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) })
    return { status: response.status, body: (await response.json()) as any, cacheControl: response.headers.get("cache-control") }
  })

describe("health routes on a host", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("live and ready answer 200 without credentials, and are not in the merchant's openapi.json", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const live = yield* get(`${base}/health/live`)
        assert.deepStrictEqual([live.status, live.body], [200, { status: "ok" }])
        assert.strictEqual(live.cacheControl, "no-store")
        const ready = yield* get(`${base}/health/ready`)
        assert.strictEqual(ready.status, 200)
        assert.deepStrictEqual(ready.body, { status: "ok", checks: { store: "ok", migrations: "ok", workers: "running", shutdown: "no" } })
        const document = yield* get(`${base}/openapi.json`)
        assert.notInclude(JSON.stringify(Object.keys(document.body.paths)), "/health")
      }))
  })
})

const databaseUrl = process.env["DATABASE_URL"]

describe.skipIf(databaseUrl === undefined)("readiness follows the store", () => {
  it.live("ready is 503 while PostgreSQL is unreachable, 200 again when it is back", () =>
    Effect.gen(function*() {
      const target = new URL(databaseUrl!)
      const port = yield* Effect.promise(freePort)
      const proxy = tcpProxy(port, { host: target.hostname, port: Number(target.port || 5432) })
      yield* Effect.acquireRelease(Effect.promise(proxy.open), () => Effect.promise(proxy.close))
      const proxied = new URL(databaseUrl!)
      proxied.host = `127.0.0.1:${port}`
      const host = testHost(postgresStore(proxied.toString(), "health"))
      yield* Effect.gen(function*() {
        const base = yield* baseUrl
        assert.strictEqual((yield* get(`${base}/health/ready`)).status, 200)

        yield* Effect.promise(proxy.close)
        const down = yield* eventually(get(`${base}/health/ready`), (r) => r.status === 503)
        assert.strictEqual(down.status, 503)
        assert.strictEqual(down.body.status, "unavailable")
        assert.strictEqual(down.body.checks.store, "unavailable")
        assert.strictEqual(down.body.checks.workers, "running")
        // Liveness does not depend on the store.
        assert.strictEqual((yield* get(`${base}/health/live`)).status, 200)

        yield* Effect.promise(proxy.open)
        const up = yield* eventually(get(`${base}/health/ready`), (r) => r.status === 200)
        assert.strictEqual(up.status, 200)
        assert.strictEqual(up.body.checks.store, "ok")
      }).pipe(Effect.provide(host))
    }).pipe(Effect.scoped), { timeout: 60_000 })
})

describe("shutdown", () => {
  it.live("on SIGTERM the host answers 503 on /health/ready before it stops accepting", () =>
    Effect.gen(function*() {
      const dataDir = mkdtempSync(join(tmpdir(), "health-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
      const port = yield* Effect.promise(freePort)
      const host = yield* startChildHost(port, { DATA_DIR: dataDir, ADMIN_TOKEN: "health-admin-token", LOG_LEVEL: "Error", SHUTDOWN_GRACE_MS: "500" })
      yield* Effect.addFinalizer(() => Effect.sync(() => host.process.kill("SIGKILL")))
      assert.strictEqual((yield* get(`${host.url}/health/ready`)).status, 200)

      const exited = terminate(host).pipe(Effect.runPromise)
      const seen: Array<number | "refused"> = []
      const started = Date.now()
      yield* Effect.promise(async () => {
        while (Date.now() - started < 10_000) {
          const status = await freshConnectionStatus(`${host.url}/health/ready`)
          if (seen.at(-1) !== status) seen.push(status)
          if (status === "refused") return
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      })
      yield* Effect.promise(() => exited)
      // Perhaps a 200 before the signal landed, then 503 for the grace, then no server.
      const fromFirstNon200 = seen.filter((s) => s !== 200)
      assert.deepStrictEqual(fromFirstNon200, [503, "refused"], `${seen.join(" → ")}\n${host.output()}`)
      assert.deepStrictEqual(seen.slice(seen.indexOf(503)), [503, "refused"])
    }).pipe(Effect.scoped), { timeout: 90_000 })
})


describe("SHUTDOWN_GRACE_MS", () => {
  it.effect("defaults to 0; a value that is not a whole number of ms from 0 to 300000 stops the host naming it", () =>
    Effect.gen(function*() {
      const read = (env: Record<string, string>) => HostConfig.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)))
      assert.strictEqual((yield* read({})).shutdownGraceMs, 0)
      assert.strictEqual((yield* read({ SHUTDOWN_GRACE_MS: "5000" })).shutdownGraceMs, 5000)
      for (const bad of ["soon", "-1", "1.5", "300001"]) {
        const failure = yield* read({ SHUTDOWN_GRACE_MS: bad }).pipe(Effect.flip)
        assert.include(String(failure.message), "SHUTDOWN_GRACE_MS", bad)
      }
    }))
})
