/**
 * Exactly-once under crashes, against a real host process on PostgreSQL: payments are created
 * under load with an `Idempotency-Key` each while the host is killed with SIGKILL (no shutdown)
 * several times; then every key is retried on a restarted host. Each key must end with exactly
 * one payment, the same one every time it is answered, and exactly one upstream charge, and the
 * upstream must hold no charge the engine does not know. The upstream answers 40 ms after doing
 * the work, so kills land between a charge and the answer being recorded.
 */
import { assert, describe, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { UpstreamSimulator } from "../../providers/reference-http/UpstreamSimulator.ts"
import { type ChildHost, freePort, killHard, startChildHost } from "../support/ChildHost.ts"

const databaseUrl = process.env["DATABASE_URL"]
const credentials = { apiKey: "crash-upstream-key", callbackSecret: "crash-upstream-callback-secret" }
const adminToken = "crash-admin-token"

/** A database of its own, dropped at the end (the host migrates it like a fresh install). */
const freshDatabase = (url: string) =>
  Effect.gen(function*() {
    const name = `crash_${process.pid}_${Date.now().toString(36)}`
    const run = (statement: string) =>
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
        Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
      )
    yield* Effect.acquireRelease(
      run(`CREATE DATABASE "${name}"`),
      () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).pipe(Effect.ignore)
    )
    const target = new URL(url)
    target.pathname = `/${name}`
    return target.toString()
  })

interface Answer {
  readonly status: number
  readonly body: any
  readonly replayed: boolean
}

const post = async (host: ChildHost, key: string, secretKey: string): Promise<Answer | "no answer"> => {
  try {
    const response = await fetch(`${host.url}/api/v1/payments`, {
      method: "POST",
      headers: { authorization: `Bearer ${secretKey}`, "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify({
        amount: 25,
        paymentMethodId: "1001",
        merchantOrderId: key,
        userName: "Ana Souza",
        userEmail: "ana@example.com",
        documentId: "52998224725"
      })
    })
    return { status: response.status, body: await response.json(), replayed: response.headers.get("idempotent-replayed") === "true" }
  } catch {
    return "no answer"
  }
}

const admin = (host: ChildHost, method: string, path: string, body?: unknown) =>
  fetch(`${host.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  }).then(async (r) => ({ status: r.status, body: await r.json() as any }))

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(databaseUrl === undefined)("crash recovery on PostgreSQL (kill -9 under load)", () => {
  it.live("every Idempotency-Key ends with one payment and one upstream charge", () =>
    Effect.scoped(Effect.gen(function*() {
      const upstream = yield* UpstreamSimulator.start({ ...credentials, latencyMs: 40 })
      const url = yield* freshDatabase(databaseUrl!)
      const port = yield* Effect.promise(freePort)
      const env = {
        DATABASE_URL: url,
        ADMIN_TOKEN: adminToken,
        LOG_LEVEL: "Error",
        RATE_LIMIT_SANDBOX_PER_SECOND: "1000000",
        BASE_URL: `http://127.0.0.1:${port}`,
        CONNECTORS: "ref-a=reference-http",
        REF_A_ENVIRONMENT: "sandbox",
        REF_A_BASE_URL: upstream.baseUrl,
        REF_A_API_KEY: credentials.apiKey,
        REF_A_CALLBACK_SECRET: credentials.callbackSecret,
        REF_A_TIMEOUT_MS: "5000"
      }
      const hosts: Array<ChildHost> = []
      yield* Effect.addFinalizer(() => Effect.forEach(hosts, killHard, { discard: true }))
      const start = Effect.tap(startChildHost(port, env), (host) => Effect.sync(() => hosts.push(host)))

      let host = yield* start
      const merchant = yield* Effect.promise(() => admin(host, "POST", "/admin/v1/merchants", { name: "Crash Co", email: "ops@crash.test" }))
      assert.strictEqual(merchant.status, 201)
      const shopId = merchant.body.shops[0].id as string
      const sk = merchant.body.keys.sandbox.secretKey as string
      for (const [providerId, priority, enabled] of [["ref-a", 1, true], ["sandbox", 2, false]] as const) {
        const routed = yield* Effect.promise(() =>
          admin(host, "PUT", `/admin/v1/shops/${shopId}/routes/${providerId}`, { environment: "sandbox", priority, enabled })
        )
        assert.strictEqual(routed.status, 200)
      }

      // Three rounds of load, each ended by a kill -9 while requests are in flight.
      const keys = Array.from({ length: 150 }, (_, i) => `order-${i}`)
      const first = new Map<string, string>()
      for (let round = 0; round < 3; round++) {
        const batch = keys.slice(round * 50, round * 50 + 50)
        let answered = 0
        const statuses: Array<number | string> = []
        const current = host
        const load = Promise.all(batch.map(async (key, i) => {
          await sleep(Math.floor(i / 10) * 30)
          const answer = await post(current, key, sk)
          statuses.push(answer === "no answer" ? answer : answer.status)
          if (answer !== "no answer" && answer.status === 201) {
            first.set(key, answer.body.transactionId)
            answered++
          }
        }))
        // Kill once part of the round has been answered: the rest is in flight or not sent.
        const killAt = Date.now() + 30_000
        while (answered < 15 + round * 5) {
          if (Date.now() > killAt) assert.fail(`round ${round}: only ${answered} answered: ${statuses.join(",")}\n${current.output()}`)
          yield* Effect.promise(() => sleep(5))
        }
        yield* killHard(current)
        yield* Effect.promise(() => load)
        host = yield* start
      }
      assert.isAbove(first.size, 40)
      assert.isBelow(first.size, keys.length)

      // Retry every key until it is answered (a key whose execution died waits out its lease).
      const final = new Map<string, Answer>()
      const deadline = Date.now() + 120_000
      while (final.size < keys.length && Date.now() < deadline) {
        const answers = yield* Effect.promise(() =>
          Promise.all(keys.filter((k) => !final.has(k)).map(async (key) => [key, await post(host, key, sk)] as const))
        )
        for (const [key, answer] of answers) {
          if (answer !== "no answer" && answer.status !== 409) final.set(key, answer)
        }
        if (final.size < keys.length) yield* Effect.promise(() => sleep(1000))
      }
      assert.strictEqual(final.size, keys.length, "every key is answered after the crashes")

      const transactionOf = new Map<string, string>()
      for (const key of keys) {
        const answer = final.get(key)!
        assert.strictEqual(answer.status, 201, `${key}: ${JSON.stringify(answer.body)}`)
        transactionOf.set(key, answer.body.transactionId)
        // An answer given before a crash is the answer for good.
        if (first.has(key)) assert.strictEqual(answer.body.transactionId, first.get(key), `${key} answered two transactions`)
      }
      assert.strictEqual(new Set(transactionOf.values()).size, keys.length, "one transaction per key")

      // The engine holds exactly one payment per key.
      const listed = yield* Effect.promise(() =>
        fetch(`${host.url}/api/v1/payments?limit=200`, { headers: { authorization: `Bearer ${sk}` } }).then((r) => r.json() as Promise<any>)
      )
      assert.strictEqual(listed.pagination.total, keys.length, "one payment per key, no more")

      // The upstream holds exactly one charge per key, none the engine does not know.
      const charges = [...upstream.charges.values()]
      const known = new Set(transactionOf.values())
      const orphans = charges.filter((c) => !known.has(c.reference))
      assert.deepStrictEqual(orphans.map((c) => c.reference), [], "upstream charges unknown to the engine")
      const perReference = new Map<string, number>()
      for (const c of charges) perReference.set(c.reference, (perReference.get(c.reference) ?? 0) + 1)
      assert.deepStrictEqual([...perReference.values()].filter((n) => n !== 1), [], "one upstream charge per payment")
      assert.strictEqual(charges.length, keys.length)

      // Answers given again say so.
      for (const key of first.keys()) assert.isTrue(final.get(key)!.replayed, `${key}: a replay says Idempotent-Replayed`)
    })), 300_000)
})
