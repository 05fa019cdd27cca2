/**
 * `GET /metrics`: the Prometheus text of the host's metrics, behind the admin token;
 * payments, provider attempts, ledger entries and HTTP requests counted as a merchant works, with
 * labels from bounded sets (route templates, never a URL with an id in it).
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { connect } from "node:net"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { adminToken, baseUrl, byTheWorker, call, createMerchant, testHost } from "../support/Host.ts"

const scrape = (bearer: string | undefined) =>
  Effect.gen(function*() {
    const url = `${yield* baseUrl}/metrics`
    return yield* Effect.promise(async () => {
      const r = await fetch(url, { headers: bearer === undefined ? {} : { authorization: `Bearer ${bearer}` } })
      return { status: r.status, type: r.headers.get("content-type"), requestId: r.headers.get("x-request-id"), text: await r.text() }
    })
  })

/** The value of the sample whose name and labels include these. */
const sample = (text: string, name: string, labels: Record<string, string>) => {
  const lines = text.split("\n").filter((l) =>
    l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`))
  )
  return lines.reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)), 0)
}

describe("GET /metrics", () => {
  layer(testHost(MemoryStore.layer), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("the admin token gets the Prometheus text; payments, attempts, entries and requests move as a merchant works", () =>
      Effect.gen(function*() {
        // A refusal is the error envelope with the request's id, as the header says it.
        for (const refused of [yield* scrape(undefined), yield* scrape("not-the-token")]) {
          assert.strictEqual(refused.status, 401)
          assert.match(refused.requestId ?? "", /^req_/)
          assert.strictEqual(JSON.parse(refused.text).error.requestId, refused.requestId)
        }
        const before = yield* scrape(adminToken)
        assert.strictEqual(before.status, 200)
        assert.match(before.type ?? "", /^text\/plain; version=0\.0\.4/)

        const merchant = yield* createMerchant()
        const sk = merchant.keys.sandbox.secretKey
        for (let i = 0; i < 3; i++) {
          const paid = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10 + i, paymentMethodId: "sbx_pix", userName: "Ana Souza", documentId: "52998224725" } })
          assert.strictEqual(paid.status, 201)
          assert.strictEqual((yield* call("GET", `/api/v1/payments/${paid.body.transactionId}`, { bearer: sk })).status, 200)
        }
        const funded = yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 50 } })
        assert.strictEqual(funded.status, 200)
        const after = yield* scrape(adminToken)
        const moved = (name: string, labels: Record<string, string>) => sample(after.text, name, labels) - sample(before.text, name, labels)
        assert.strictEqual(moved("payments_created_total", { rail: "sbx_pix" }), 3)
        assert.strictEqual(moved("provider_attempts_total", { provider: "sandbox", rail: "sbx_pix", outcome: "accepted" }), 3)
        assert.strictEqual(moved("http_requests_total", { route: "/api/v1/payments", method: "POST", status: "201" }), 3)
        assert.strictEqual(moved("http_requests_total", { route: "/api/v1/payments/:id", method: "GET", status: "200" }), 3)
        assert.isAbove(moved("http_request_duration_seconds_count", { route: "/api/v1/payments", method: "POST" }), 2)
        assert.isAtLeast(moved("ledger_entries_total", {}), 1, "the funding is a journal entry")
        // The backlog gauges, read from the store at the scrape.
        assert.match(after.text, /^webhook_deliveries_due \d+$/m)
        assert.match(after.text, /^webhook_dead_letters \d+$/m)
        assert.match(after.text, /^webhook_oldest_due_age_seconds [\d.]+$/m)
        // Bounded labels: no transaction, shop or merchant id anywhere in the text.
        assert.notMatch(after.text, /TXN-|shop_|mer_|sk_(test|live)_/)
      }))

    it.effect("a client that hangs up before its answer is counted as 499, not as a server error", () =>
      Effect.gen(function*() {
        const merchant = yield* createMerchant()
        const before = yield* scrape(adminToken)
        const url = new URL(yield* baseUrl)
        // Half a body, then the connection closed: the request is being read when the client goes.
        yield* Effect.promise(() =>
          new Promise<void>((resolve) => {
            const socket = connect(Number(url.port), url.hostname, () => {
              socket.write(
                `POST /api/v1/payments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${merchant.keys.sandbox.secretKey}\r\n` +
                  `Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{"amount": 10, `
              )
              setTimeout(() => socket.destroy(), 200)
            })
            socket.on("close", () => resolve())
            socket.on("error", () => undefined)
          })
        )
        const counted = (text: string, status: string) => sample(text, "http_requests_total", { route: "/api/v1/payments", method: "POST", status })
        const after = yield* byTheWorker(scrape(adminToken), (a) => counted(a.text, "499") + counted(a.text, "500") > counted(before.text, "499") + counted(before.text, "500"))
        assert.strictEqual(counted(after.text, "499") - counted(before.text, "499"), 1)
        assert.strictEqual(counted(after.text, "500") - counted(before.text, "500"), 0)
      }))
  })
})
