/**
 * Fuzzing driven by `/openapi.json`: every operation gets malformed bodies, path parameters,
 * query strings and headers, generated from a fixed seed (the run is the same every time, and a
 * failure names the seed and request to replay). For every answer: never a 5xx; every 4xx in the
 * error envelope with a catalogued code; and a refused request stores nothing (the shop's
 * payments, journal and outbox are unchanged by it).
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { errorCodes } from "../../core/ApiError.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { adminToken, call, createMerchant, testHost } from "../support/Host.ts"
import { postgresStore } from "../support/Stores.ts"

const databaseUrl = process.env["DATABASE_URL"]
const seed = 20261122
const rounds = 40

/** mulberry32: a small deterministic generator. */
const generator = (start: number) => {
  let state = start >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(next() * xs.length)]!
  return { next, pick }
}

/** Values of every wrong kind, and a few right-looking ones with hostile content. */
const hostile: ReadonlyArray<unknown> = [
  null, true, -1, 0, 1e308, -1e21, 1.0000001, 12.345, "", " ", "x".repeat(5000), "\u0000", "a\u0000b", "💸", "<script>", "' OR 1=1 --",
  "NaN", "Infinity", "1e21", "TXN-", [], [1, "a"], {}, { nested: { deeper: [null] } }, "2026-13-45T99:99:99Z", "../../etc/passwd"
]

const hostileText: ReadonlyArray<string> = [
  "", "%00", "TXN-%00", "x".repeat(300), "..%2F..", "%F0%9F%92%B8", "-1", "1e999", "null", "%27%20OR%201%3D1", "a%20b"
]

interface Operation {
  readonly method: string
  readonly path: string
  readonly bodyKeys: ReadonlyArray<string>
  readonly queryKeys: ReadonlyArray<string>
  readonly admin: boolean
}

const operationsOf = (spec: any): ReadonlyArray<Operation> =>
  Object.entries(spec.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method)).map(([method, op]) => {
      const body = op.requestBody?.content?.["application/json"]?.schema
      const resolved = body?.$ref === undefined ? body : spec.components.schemas[body.$ref.split("/").pop()]
      return {
        method: method.toUpperCase(),
        path,
        bodyKeys: Object.keys(resolved?.properties ?? {}),
        queryKeys: (op.parameters ?? []).filter((p: any) => p.in === "query").map((p: any) => p.name as string),
        admin: path.startsWith("/admin")
      }
    })
  )

describe("fuzzing every operation of /openapi.json", () => {
  // On PostgreSQL when it is there (it refuses what memory would swallow, e.g. NUL in text).
  const store = databaseUrl === undefined ? MemoryStore.layer : postgresStore(databaseUrl, "fuzz")
  layer(testHost(store), { timeout: 300_000, excludeTestServices: true })((it) => {
    it.effect(`no 5xx, the envelope on every 4xx, nothing stored for a refused request (seed ${seed})`, () =>
      Effect.gen(function*() {
        // The merchant document and the operator's: every operation the host serves.
        const spec = (yield* call("GET", "/openapi.json")).body
        const operations = [...operationsOf(spec), ...operationsOf((yield* call("GET", "/admin/openapi.json")).body)]
        assert.isAbove(operations.length, 40)
        const m = yield* createMerchant()
        const sk = m.keys.sandbox.secretKey
        const shopId = m.shops[0]!.id
        const payments = yield* PaymentStore
        const ledger = yield* LedgerStore
        const outbox = yield* OutboxStore
        const stored = Effect.gen(function*() {
          const p = yield* payments.list("sandbox", shopId, {}, { limit: 1, offset: 0 })
          const j = yield* ledger.entries("sandbox", shopId, { limit: 1, offset: 0 })
          const o = yield* outbox.list("sandbox", shopId)
          return `${p.total}/${j.total}/${o.length}`
        })
        const known = new Set<string>(errorCodes)
        const random = generator(seed)
        let sent = 0
        const statuses: Record<number, number> = {}
        for (let round = 0; round < rounds; round++) {
          for (const op of operations) {
            const path = op.path.replace(/\{[^}]+\}/g, () => random.pick(hostileText))
            const query = op.queryKeys.length === 0 || random.next() < 0.3
              ? ""
              : "?" + [...op.queryKeys, "unknownParam"].filter(() => random.next() < 0.6)
                .map((k) => `${k}=${random.pick(hostileText)}`).join("&")
            const body = Object.fromEntries(
              [...op.bodyKeys, "unknownField"].filter(() => random.next() < 0.7).map((k) => [k, random.pick(hostile)])
            )
            const raw = random.next() < 0.1 ? random.pick(["{", "[]", "null", "\"text\"", "{\"a\":", "\u0000"]) : undefined
            const headers: Record<string, string> = random.next() < 0.2 ? { "idempotency-key": random.pick(["", "k".repeat(300), "ok-key"]) } : {}
            const bearer = op.admin ? adminToken : random.next() < 0.1 ? "sk_test_forged" : sk
            const before = yield* stored
            const reply = yield* call(op.method, path + query, {
              bearer,
              headers,
              ...(op.method === "GET" || op.method === "DELETE" ? {} : raw !== undefined ? { rawBody: raw } : { body })
            })
            sent++
            statuses[reply.status] = (statuses[reply.status] ?? 0) + 1
            const what = `seed ${seed} round ${round}: ${op.method} ${path}${query} ${raw ?? JSON.stringify(body).slice(0, 300)} -> ${reply.status} ${
              JSON.stringify(reply.body).slice(0, 300)
            }`
            assert.isBelow(reply.status, 500, what)
            // Strict input: a body with a field the operation does not have is never accepted.
            if (raw === undefined && "unknownField" in body && op.bodyKeys.length > 0 && op.method !== "GET") {
              assert.isAtLeast(reply.status, 400, `an unknown field was accepted: ${what}`)
            }
            if (reply.status >= 400 && op.path !== "/docs" && !op.path.startsWith("/checkout")) {
              assert.isTrue(known.has(reply.body?.error?.code), `no error envelope: ${what}`)
              assert.strictEqual(yield* stored, before, `a refused request stored something: ${what}`)
            }
          }
        }
        console.log(`fuzz: ${sent} requests over ${operations.length} operations`, JSON.stringify(statuses))
        assert.isAbove(sent, 500)
      }), 240_000) // 40 rounds of every operation on PostgreSQL: about a minute alone, more beside other suites
  })
})
