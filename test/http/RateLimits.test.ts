/**
 * Rate limits as a client meets them: 429 `rate_limited` in the envelope with `Retry-After` and
 * the RateLimit-* headers, per credential for the API and per client address for the auth
 * endpoints, shared by two replicas on one PostgreSQL.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Context, Effect, Exit, Fiber, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { HttpServer, HttpServerRequest } from "effect/http"
import { SqlClient } from "effect/sql"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { SqlStore } from "../../adapters/storage/sql/SqlStore.ts"
import { defaultRateLimits, RateLimits } from "../../adapters/http/server/middleware/RateLimits.ts"
import { loopbackConfig } from "../../host/Config.ts"
import { hostLayer } from "../../host/Host.ts"
import { storeTargets } from "../support/Stores.ts"
import { adminToken, baseUrl, call, createMerchant, eventually, type Reply, testHost } from "../support/Host.ts"

const databaseUrl = process.env["DATABASE_URL"]

const badLogin = (base: string, ip: string) =>
  fetch(`${base}/api/v1/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify({ apiKey: "pk_test_guess", secretKey: "sk_test_guess" })
  }).then((r) => r.status)

describe("rate limits", () => {
  layer(testHost(MemoryStore.layer, { rateLimits: { productionPerSecond: 5, sandboxPerSecond: 5, authPerMinute: 10 }, trustedProxies: 1 }), {
    timeout: 60_000,
    excludeTestServices: true
  })((it) => {
    it.effect("a burst above a credential's allowance is 429 with Retry-After and RateLimit-* headers; another credential is not affected", () =>
      Effect.gen(function*() {
        const one = yield* createMerchant()
        const other = yield* createMerchant()
        const replies: Array<Reply> = yield* Effect.all(
          Array.from({ length: 20 }, () => call("GET", "/api/v1/ping", { bearer: one.keys.sandbox.secretKey })),
          { concurrency: "unbounded" }
        )
        const limited = replies.filter((r) => r.status === 429)
        const passed = replies.filter((r) => r.status === 200)
        assert.isAbove(limited.length, 0)
        assert.isAtMost(passed.length, 10)
        for (const r of limited) {
          assert.strictEqual(r.body.error.code, "rate_limited")
          assert.strictEqual(r.body.error.type, "rate_limit_error")
          assert.isAtLeast(Number(r.headers.get("retry-after")), 1)
          assert.strictEqual(r.headers.get("ratelimit-limit"), "5")
          assert.strictEqual(r.headers.get("ratelimit-remaining"), "0")
        }
        assert.strictEqual(passed[0]!.headers.get("ratelimit-limit"), "5")
        assert.isNotNull(passed[0]!.headers.get("ratelimit-reset"))
        assert.strictEqual((yield* call("GET", "/api/v1/ping", { bearer: other.keys.sandbox.secretKey })).status, 200)
      }))

    it.effect("a burst of bad logins from one address is throttled; another address is not", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const statuses = yield* Effect.promise(() => Promise.all(Array.from({ length: 200 }, () => badLogin(base, "203.0.113.7"))))
        assert.strictEqual(statuses.filter((s) => s === 401).length, 10)
        assert.strictEqual(statuses.filter((s) => s === 429).length, 190)
        assert.strictEqual(yield* Effect.promise(() => badLogin(base, "198.51.100.9")), 401)
      }))

    it.effect("guessing secret keys as the bearer spends the address's allowance of unknown keys: past it, a guess is 429 and a valid key from there still works", () =>
      Effect.gen(function*() {
        const merchant = yield* createMerchant()
        const from = (ip: string, bearer: string) => call("GET", "/api/v1/ping", { bearer, headers: { "x-forwarded-for": ip } })
        const replies: Array<Reply> = yield* Effect.all(
          Array.from({ length: 30 }, (_, i) => from("203.0.113.9", `sk_test_guess${i}`)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(replies.filter((r) => r.status === 401).length, 10)
        const limited = replies.filter((r) => r.status === 429)
        assert.strictEqual(limited.length, 20)
        assert.strictEqual(limited[0]!.body.error.code, "rate_limited")
        assert.strictEqual(limited[0]!.headers.get("ratelimit-limit"), "10")
        assert.isAtLeast(Number(limited[0]!.headers.get("retry-after")), 1)
        // A merchant behind the guesser's address is not locked out, and logins there have their own allowance.
        const behind = yield* createMerchant()
        assert.strictEqual((yield* from("203.0.113.9", behind.keys.sandbox.secretKey)).status, 200)
        assert.strictEqual((yield* from("203.0.113.9", "sk_test_guess-again")).status, 429)
        const base = yield* baseUrl
        assert.strictEqual(yield* Effect.promise(() => badLogin(base, "203.0.113.9")), 401)
        const login = yield* call("POST", "/api/v1/auth/token", {
          headers: { "x-forwarded-for": "203.0.113.9" },
          body: { apiKey: behind.keys.sandbox.publishableKey, secretKey: behind.keys.sandbox.secretKey }
        })
        assert.strictEqual(login.status, 200, JSON.stringify(login.body))
        // Another address, and a valid key used normally, are not affected.
        assert.strictEqual((yield* from("198.51.100.10", merchant.keys.sandbox.secretKey)).status, 200)
        const sandboxKeyReplies: Array<Reply> = yield* Effect.all(
          Array.from({ length: 4 }, () => from("198.51.100.11", merchant.keys.sandbox.secretKey)),
          { concurrency: 1 }
        )
        assert.deepStrictEqual(sandboxKeyReplies.map((r) => r.status), [200, 200, 200, 200])
      }))

    it.effect("guessing the admin token spends the address's allowance of wrong tokens: past it, a guess is 429 and the right token still works", () =>
      Effect.gen(function*() {
        const from = (ip: string, bearer: string) => call("GET", "/admin/v1/providers", { bearer, headers: { "x-forwarded-for": ip } })
        const replies: Array<Reply> = yield* Effect.all(
          Array.from({ length: 15 }, (_, i) => from("203.0.113.21", `guess-${i}`)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(replies.filter((r) => r.status === 401).length, 10)
        const limited = replies.filter((r) => r.status === 429)
        assert.strictEqual(limited.length, 5)
        assert.strictEqual(limited[0]!.body.error.code, "rate_limited")
        assert.isAtLeast(Number(limited[0]!.headers.get("retry-after")), 1)
        // The operator behind the guesser's address is not locked out; logins and raw keys there have their own allowances.
        assert.strictEqual((yield* from("203.0.113.21", adminToken)).status, 200)
        assert.strictEqual((yield* from("203.0.113.21", "guess-again")).status, 429)
        const base = yield* baseUrl
        assert.strictEqual(yield* Effect.promise(() => badLogin(base, "203.0.113.21")), 401)
        // GET /metrics takes the same token, checked the same way.
        assert.strictEqual((yield* call("GET", "/metrics", { bearer: adminToken, headers: { "x-forwarded-for": "203.0.113.21" } })).status, 200)
        const scrapes: Array<Reply> = yield* Effect.all(
          Array.from({ length: 12 }, (_, i) => call("GET", "/metrics", { bearer: `guess-${i}`, headers: { "x-forwarded-for": "203.0.113.22" } })),
          { concurrency: 1 }
        )
        assert.deepStrictEqual(scrapes.map((r) => r.status), [...Array.from({ length: 10 }, () => 401), 429, 429])
        // The right token from another address, as often as the operator likes, takes nothing.
        const operator: Array<Reply> = yield* Effect.all(Array.from({ length: 12 }, () => from("198.51.100.21", adminToken)), { concurrency: 1 })
        assert.deepStrictEqual(operator.map((r) => r.status), Array.from({ length: 12 }, () => 200))
      }))
  })

  for (const target of storeTargets("ratelimit").filter((t) => t.name !== "memory")) {
  layer(testHost(target.layer(), { rateLimits: { productionPerSecond: 40, sandboxPerSecond: 40, authPerMinute: 10 } }), {
    timeout: 60_000,
    excludeTestServices: true
  })((it) => {
    it.effect(`on ${target.name}, a concurrent burst within a credential's allowance passes whole: concurrent requests share one lease of the counter`, () =>
      Effect.gen(function*() {
        const merchant = yield* createMerchant()
        const token = yield* call("POST", "/api/v1/auth/token", {
          body: { apiKey: merchant.keys.sandbox.publishableKey, secretKey: merchant.keys.sandbox.secretKey }
        })
        // 30 at once of 40 a second: each request that finds the lease spent used to reserve a
        // chunk of its own and overwrite the others' leases, spending the allowance on nothing.
        const replies: Array<Reply> = yield* Effect.all(
          Array.from({ length: 30 }, () => call("GET", "/api/v1/ping", { bearer: token.body.accessToken })),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(replies.filter((r) => r.status !== 200).map((r) => r.status), [])
      }))
  })
  }

  it.live.skipIf(databaseUrl === undefined)("two replicas on one PostgreSQL share the allowance", () =>
    Effect.gen(function*() {
      const schema = `t_ratelimit_${process.pid}_${Date.now().toString(36)}`
      const replica = () =>
        ManagedRuntime.make(hostLayer(
          loopbackConfig({ adminToken: Option.some(Redacted.make(adminToken)), trustedProxies: 1, rateLimits: { productionPerSecond: 100, sandboxPerSecond: 40, authPerMinute: 10 } }),
          SqlStore.postgres(databaseUrl!, { schema, maxConnections: 3 })
        ))
      const a = replica()
      const b = replica()
      const baseOf = (runtime: typeof a) =>
        runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => `http://127.0.0.1:${(server.address as { port: number }).port}`))
      try {
        // One after the other: the first migrates the schema.
        const baseA = yield* Effect.promise(() => baseOf(a))
        const baseB = yield* Effect.promise(() => baseOf(b))
        const statuses = yield* Effect.promise(() =>
          Promise.all(Array.from({ length: 30 }, (_, i) => badLogin(i % 2 === 0 ? baseA : baseB, "203.0.113.50")))
        )
        assert.strictEqual(statuses.filter((s) => s === 401).length, 10, JSON.stringify(statuses))
        assert.strictEqual(statuses.filter((s) => s === 429).length, 20)

        // The API allowance (40 a second, leased 4 at a time by each replica) holds over both:
        // 200 calls at once pass at most 40 per second they span.
        const merchant = yield* Effect.promise(() =>
          fetch(`${baseA}/admin/v1/merchants`, {
            method: "POST",
            headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
            body: JSON.stringify({ name: "Shared", email: "shared@example.com" })
          }).then((r) => r.json() as Promise<{ keys: { sandbox: { secretKey: string } } }>)
        )
        const started = Date.now()
        const pings = yield* Effect.promise(() =>
          Promise.all(Array.from({ length: 200 }, (_, i) =>
            fetch(`${i % 2 === 0 ? baseA : baseB}/api/v1/ping`, { headers: { authorization: `Bearer ${merchant.keys.sandbox.secretKey}` } })
              .then((r) => r.status)))
        )
        // Each window starts at its first call and lasts a second.
        const windows = Math.max(1, Math.ceil((Date.now() - started) / 1000))
        const passed = pings.filter((s) => s === 200).length
        assert.isAtLeast(passed, 1)
        assert.isAtMost(passed, 40 * windows, `${passed} passed over ${windows} windows`)
        assert.strictEqual(passed + pings.filter((s) => s === 429).length, 200)
      } finally {
        yield* Effect.promise(() => a.runPromise(SqlClient.SqlClient.use((sql) => sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`))).catch(() => undefined))
        yield* Effect.promise(() => Promise.all([a.dispose(), b.dispose()]))
      }
    }), 60_000)

  it.live("a request interrupted while it refills its credential's lease (its client gone) leaves the lease to the next one", () =>
    Effect.gen(function*() {
      const store = yield* Layer.build(SqlStore.pglite(undefined))
      const limits = yield* Layer.build(RateLimits.layer({ productionPerSecond: 1_000, sandboxPerSecond: 1_000, authPerMinute: 10 })).pipe(
        Effect.provideContext(store),
        Effect.map((context) => Context.get(context, RateLimits))
      )
      const take = limits.take("sandbox", "cred_1").pipe(
        Effect.provideService(HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(new Request("http://localhost/api/v1/ping")))
      )
      // The first request refills the lease from the store; the second waits for that refill.
      const refilling = yield* Effect.forkChild(take)
      yield* Effect.yieldNow
      const waiting = yield* Effect.forkChild(take)
      yield* Effect.yieldNow
      yield* Fiber.interrupt(refilling)
      // The waiter then refills the lease itself (it spun forever on the refill that never ended).
      const exit = yield* Fiber.join(waiting).pipe(Effect.timeout("5 seconds"), Effect.exit)
      assert.isTrue(Exit.isSuccess(exit), String(exit))
      assert.isTrue(Exit.isSuccess(yield* Effect.exit(take)))
    }).pipe(Effect.scoped), 30_000)

  it.live("expired counters are swept from the SQL store (else a row per client address stays forever)", () =>
    Effect.gen(function*() {
      const store = yield* Layer.build(SqlStore.pglite(undefined))
      const sql = Context.get(store, SqlClient.SqlClient)
      const now = Date.now()
      yield* sql`INSERT INTO rate_limits (key, points, expire) VALUES ('auth_ip:203.0.113.1', 3, ${now - 2 * 3_600_000}), ('auth_ip:203.0.113.2', 3, ${now + 60_000})`
      yield* Layer.build(RateLimits.layer(defaultRateLimits, { sweepEvery: "50 millis" })).pipe(Effect.provideContext(store))
      const rows = yield* eventually(sql<{ key: string }>`SELECT key FROM rate_limits`, (rows) => rows.length < 2)
      assert.deepStrictEqual(rows.map((r) => r.key), ["auth_ip:203.0.113.2"])
    }).pipe(Effect.scoped), 30_000)
})
