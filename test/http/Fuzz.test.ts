/**
 * Fuzzing driven by `/openapi.json`: every operation gets malformed bodies, path parameters,
 * query strings and headers, generated from a fixed seed (the run is the same every time, and a
 * failure names the seed and request to replay). For every answer: never a 5xx; every 4xx in the
 * error envelope with a catalogued code; and a refused request stores nothing (the shop's
 * payments, journal and outbox are unchanged by it).
 *
 * A second, targeted pass aims at the classes of input an outside fuzzer found 500s with: from a
 * plausible request built from each operation's schema, one field at a time is replaced by
 * ill-formed UTF-16 (a lone surrogate, in values and in a key), a very long string, or a number
 * past every bound (1e308, -1e308, 1e-308, 2^53 + 1, 2^31); every query parameter gets huge, tiny
 * and not-quite numbers as text and an escape of a lone surrogate; every body a deeply nested value.
 * Ids in paths are the test shop's own, so the request reaches the store and its SQL.
 *
 * `FUZZ_ROUNDS` (default 40) and `FUZZ_SEED` run the random pass longer or differently (`docs/merchant-api.md`).
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { errorCodes } from "../../core/ApiError.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { adminToken, call, createMerchant, type Reply, testHost } from "../support/Host.ts"
import { postgresStore } from "../support/Stores.ts"

const databaseUrl = process.env["DATABASE_URL"]
const seed = Number(process.env["FUZZ_SEED"] ?? 20261122)
const rounds = Number(process.env["FUZZ_ROUNDS"] ?? 40)

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
  "", "%00", "TXN-%00", "x".repeat(300), "..%2F..", "%F0%9F%92%B8", "-1", "1e999", "null", "%27%20OR%201%3D1", "a%20b",
  "1e308", "-1e308", "1e-308", "9007199254740993", "%ED%A0%80", "%F0%9F", "%FF"
]

/** Numbers past every bound, and strings no text column should take (the targeted pass). */
const hugeNumbers: ReadonlyArray<number> = [1e308, -1e308, 1e-308, 2 ** 53 + 1, 2 ** 31]
const badStrings: ReadonlyArray<string> = ["a\ud800b", "\udfff", "x".repeat(20_000)]
/** Query text: huge, tiny and not-quite numbers, a lone surrogate's UTF-8 escape (CESU), a long value. */
const badQueryText: ReadonlyArray<string> = ["1e308", "-1e308", "1e-308", "NaN", "Infinity", "9007199254740993", "0x10", "%ED%A0%80", "x".repeat(5000)]
/** `String.prototype.isWellFormed` (ES2024; the project's lib is ES2022). */
const isWellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed()
/** How deep the nested value of the deep-JSON request is. */
const deepNesting = 5000

interface Operation {
  readonly method: string
  readonly path: string
  readonly bodyKeys: ReadonlyArray<string>
  readonly queryKeys: ReadonlyArray<string>
  readonly admin: boolean
  /** A request body that decodes (every required field, plausible values), or undefined without a JSON body. */
  readonly sampleBody: unknown
  /** The same with every optional field too: where the leaves to replace are found. */
  readonly fullBody: unknown
  /** The query parameters and plausible values; `required` ones are always sent. */
  readonly query: ReadonlyArray<{ readonly name: string; readonly required: boolean; readonly sample: string }>
}

const resolve = (spec: any, schema: any): any => {
  let s = schema
  for (let i = 0; i < 20 && s?.$ref !== undefined; i++) s = spec.components.schemas[String(s.$ref).split("/").pop() ?? ""]
  return s
}

/** A value the schema accepts, as far as a JSON Schema says (patterns aside); `all`: optional properties too. */
const sampleOf = (spec: any, schema: any, all: boolean, depth = 0): unknown => {
  const s = resolve(spec, schema)
  if (s === undefined || depth > 12) return "fuzz"
  if ("const" in s) return s.const
  if (Array.isArray(s.enum)) return s.enum[0]
  if (s.default !== undefined) return s.default
  const alternatives = s.anyOf ?? s.oneOf
  if (Array.isArray(alternatives)) {
    return sampleOf(spec, alternatives.find((a: any) => resolve(spec, a)?.type !== "null") ?? alternatives[0], all, depth + 1)
  }
  if (Array.isArray(s.allOf)) return sampleOf(spec, s.allOf[0], all, depth + 1)
  if (Array.isArray(s.examples) && s.examples.length > 0 && s.type !== "object" && s.type !== "array") return s.examples[0]
  switch (Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type) {
    case "string":
      return s.format === "date-time" ? new Date().toISOString() : s.format === "email" ? "fuzz@example.com" : s.format === "uri" ? "https://example.com/" : "fuzz"
    case "integer":
    case "number": {
      const low = typeof s.minimum === "number" ? s.minimum : typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + 1 : 1
      return typeof s.maximum === "number" ? Math.min(low, s.maximum) : low
    }
    case "boolean":
      return true
    case "array":
      return s.items === undefined ? [] : [sampleOf(spec, s.items, all, depth + 1)]
    case "object":
    case undefined: {
      if (s.properties === undefined) return {}
      const required = new Set<string>(s.required ?? [])
      return Object.fromEntries(
        Object.entries(s.properties as Record<string, unknown>).filter(([k]) => all || required.has(k)).map(([k, v]) => [k, sampleOf(spec, v, all, depth + 1)])
      )
    }
    default:
      return "fuzz"
  }
}

const operationsOf = (spec: any): ReadonlyArray<Operation> =>
  Object.entries(spec.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method)).map(([method, op]) => {
      const body = op.requestBody?.content?.["application/json"]?.schema
      const resolved = resolve(spec, body)
      const queryParameters = (op.parameters ?? []).filter((p: any) => p.in === "query")
      return {
        method: method.toUpperCase(),
        path,
        bodyKeys: Object.keys(resolved?.properties ?? {}),
        queryKeys: queryParameters.map((p: any) => p.name as string),
        admin: path.startsWith("/admin"),
        sampleBody: body === undefined ? undefined : sampleOf(spec, body, false),
        fullBody: body === undefined ? undefined : sampleOf(spec, body, true),
        query: queryParameters.map((p: any) => ({ name: p.name as string, required: p.required === true, sample: String(sampleOf(spec, p.schema, false)) }))
      }
    })
  )

/** The paths of a value's string and number leaves (`customer.firstName`, `rules.0.when.amountUsd.min`). */
const leavesOf = (value: unknown, path: ReadonlyArray<string> = []): ReadonlyArray<{ readonly path: ReadonlyArray<string>; readonly kind: "string" | "number" }> =>
  typeof value === "string"
    ? [{ path, kind: "string" }]
    : typeof value === "number"
    ? [{ path, kind: "number" }]
    : value !== null && typeof value === "object"
    ? Object.entries(value).flatMap(([k, v]) => leavesOf(v, [...path, k]))
    : []

/** `base` with the leaf at `path` set to `leaf` (objects and arrays on the way made as needed). */
const withLeaf = (base: unknown, path: ReadonlyArray<string>, leaf: unknown): unknown => {
  if (path.length === 0) return leaf
  const [head, ...rest] = path as [string, ...Array<string>]
  const container: any = base !== null && typeof base === "object" ? structuredClone(base) : /^\d+$/.test(head) ? [] : {}
  container[head] = withLeaf(container[head], rest, leaf)
  return container
}

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

    it.effect("targeted: ill-formed UTF-16, very long strings, numbers past every bound, deep JSON in every field of every operation", () =>
      Effect.gen(function*() {
        const spec = (yield* call("GET", "/openapi.json")).body
        const operations = [...operationsOf(spec), ...operationsOf((yield* call("GET", "/admin/openapi.json")).body)]
        const payments = yield* PaymentStore
        const ledger = yield* LedgerStore
        const outbox = yield* OutboxStore
        const stored = (shopId: string) =>
          Effect.gen(function*() {
            const p = yield* payments.list("sandbox", shopId, {}, { limit: 1, offset: 0 })
            const j = yield* ledger.entries("sandbox", shopId, { limit: 1, offset: 0 })
            const o = yield* outbox.list("sandbox", shopId)
            return `${p.total}/${j.total}/${o.length}`
          })
        const known = new Set<string>(errorCodes)
        const failures: Array<string> = []
        let sent = 0
        const statuses: Record<number, number> = {}
        for (const op of operations) {
          // A merchant of its own per operation: an operation that rolls keys or suspends leaves the others' reach intact.
          const m = yield* createMerchant()
          const shopId = m.shops[0]!.id
          const ids: Record<string, string> = { shopId, merchantId: m.merchant.id, providerId: "sandbox" }
          const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => ids[name] ?? "fuzz-id")
          const bearer = op.admin ? adminToken : m.keys.sandbox.secretKey
          const baseQuery = op.query.filter((q) => q.required).map((q) => `${q.name}=${encodeURIComponent(q.sample)}`)
          const send = (what: string, query: ReadonlyArray<string>, request: { readonly body?: unknown; readonly rawBody?: string }) =>
            Effect.gen(function*() {
              const before = yield* stored(shopId)
              const url = path + (query.length === 0 ? "" : `?${query.join("&")}`)
              const reply = yield* call(op.method, url, { bearer, ...(op.method === "GET" || op.method === "DELETE" ? {} : request) })
              sent++
              statuses[reply.status] = (statuses[reply.status] ?? 0) + 1
              const told = `${what}: ${op.method} ${url.slice(0, 200)} -> ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`
              if (reply.status >= 500) failures.push(told)
              else if (reply.status >= 400 && op.path !== "/docs" && !op.path.startsWith("/checkout")) {
                if (!known.has(reply.body?.error?.code)) failures.push(`no error envelope: ${told}`)
                else if ((yield* stored(shopId)) !== before) failures.push(`a refused request stored something: ${told}`)
              }
              return { reply, told }
            })
          /** A refusal that must be `400 invalid_request` naming `field` (no field: the body as a whole). */
          const refused = (answered: { readonly reply: Reply; readonly told: string }, field?: string) => {
            const issues: ReadonlyArray<{ path: string }> = answered.reply.body?.error?.details?.issues ?? []
            if (answered.reply.status !== 400 || answered.reply.body?.error?.code !== "invalid_request") failures.push(`not 400 invalid_request: ${answered.told}`)
            else if (field !== undefined && !issues.some((i) => i.path === field)) failures.push(`not naming ${field}: ${answered.told}`)
          }
          for (const parameter of op.query) {
            for (const text of badQueryText) {
              const query = [...baseQuery.filter((q) => !q.startsWith(`${parameter.name}=`)), `${parameter.name}=${text}`]
              yield* send(`query ${parameter.name}=${text.slice(0, 20)}`, query, op.sampleBody === undefined ? {} : { body: op.sampleBody })
            }
          }
          if (op.sampleBody === undefined || op.method === "GET" || op.method === "DELETE") continue
          for (const leaf of leavesOf(op.fullBody).slice(0, 40)) {
            const field = leaf.path.join(".")
            const values: ReadonlyArray<unknown> = leaf.kind === "number" ? hugeNumbers : badStrings
            for (const value of values) {
              const reply = yield* send(`body ${field}=${String(value).slice(0, 20)}`, baseQuery, { body: withLeaf(op.sampleBody, leaf.path, value) })
              // Ill-formed text is refused whatever else the request holds, naming the field.
              if (typeof value === "string" && !isWellFormed(value)) refused(reply, field)
            }
          }
          // An ill-formed key, and a value nested deeper than any request needs.
          refused(yield* send("an ill-formed key", baseQuery, { body: { ...(op.sampleBody as object), ["k\ud800"]: 1 } }), "k\ufffd")
          const deep = "[".repeat(deepNesting) + "]".repeat(deepNesting)
          refused(yield* send("deep JSON", baseQuery, { rawBody: JSON.stringify({ ...(op.sampleBody as object), deep: "DEEP" }).replace("\"DEEP\"", deep) }))
        }
        console.log(`fuzz (targeted): ${sent} requests over ${operations.length} operations`, JSON.stringify(statuses))
        if (failures.length > 0) console.log(`fuzz (targeted): ${failures.length} failures\n${failures.join("\n")}`)
        assert.deepStrictEqual(failures.slice(0, 25), [], `${failures.length} failures`)
      }), 240_000)
  })
})
