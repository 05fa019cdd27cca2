/**
 * Strict input, as a merchant's mistakes and an attacker's requests arrive: unknown fields,
 * oversized and non-JSON bodies, NUL bytes, absurd amounts. Each is refused in the error envelope
 * with a precise code, and nothing is stored.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { connect } from "node:net"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { baseUrl, call, createMerchant, eventually, type Reply, testHost } from "../support/Host.ts"

const envelope = (reply: Reply, status: number, code: string) => {
  assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
  assert.strictEqual(reply.body.error.code, code, JSON.stringify(reply.body))
  assert.isString(reply.body.error.requestId)
}


const merchant = Effect.gen(function*() {
  const m = yield* createMerchant()
  return { ...m, sk: m.keys.sandbox.secretKey }
})

const listTotal = (sk: string) => Effect.map(call("GET", "/api/v1/payments", { bearer: sk }), (r) => r.body.pagination.total as number)

describe("strict input", () => {
  layer(testHost(MemoryStore.layer, { headersTimeoutMs: 300 }), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("an unknown body field is a 400 naming it: a refund with the typo `amout` refunds nothing", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        const paid = yield* call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "paid" }, body: { amount: 100, paymentMethodId: "sbx_pix" } })
        const id = paid.body.transactionId
        yield* eventually(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body.status === "completed")
        const typo = yield* call("POST", `/api/v1/payments/${id}/refund`, { bearer: sk, body: { amout: 10 } })
        envelope(typo, 400, "invalid_request")
        assert.include(JSON.stringify(typo.body.error.details.issues), "amout")
        const after = yield* call("GET", `/api/v1/payments/${id}`, { bearer: sk })
        assert.strictEqual(after.body.status, "completed")
        const created = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "sbx_pix", amountt: 1 } })
        envelope(created, 400, "invalid_request")
        assert.include(JSON.stringify(created.body.error.details.issues), "amountt")
        assert.strictEqual(yield* listTotal(sk), 1)
      }))

    it.effect("a body over 1 MB is 413 and a non-JSON content type 415, in the envelope", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        const big = JSON.stringify({ amount: 10, paymentMethodId: "sbx_pix", merchantOrderId: "x".repeat(1_100_000) })
        envelope(yield* call("POST", "/api/v1/payments", { bearer: sk, rawBody: big }), 413, "payload_too_large")
        const text = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          rawBody: JSON.stringify({ amount: 10, paymentMethodId: "sbx_pix" }),
          headers: { "content-type": "text/plain" }
        })
        envelope(text, 415, "unsupported_media_type")
        assert.strictEqual(yield* listTotal(sk), 0)
      }))

    it.effect("NUL bytes in strings and ids are 400, never 500", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        envelope(yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "sbx_pix", merchantOrderId: "a\u0000b" } }), 400, "invalid_request")
        envelope(yield* call("GET", "/api/v1/payments/TXN-%00", { bearer: sk }), 400, "invalid_request")
        envelope(yield* call("GET", "/api/v1/payments?merchantOrderId=a%00b", { bearer: sk }), 400, "invalid_request")
        assert.strictEqual(yield* listTotal(sk), 0)
      }))

    it.effect("absurd amounts (1e308, 1e21, more decimals than the currency) are refused, never stored", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        for (const amount of [1e308, 1e21, 10.001]) {
          envelope(yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount, paymentMethodId: "sbx_pix" } }), 400, "invalid_request")
        }
        envelope(yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 1e21 } }), 400, "invalid_request")
        assert.strictEqual(yield* listTotal(sk), 0)
      }))

    it.effect("a client that never finishes its headers is disconnected", () =>
      Effect.gen(function*() {
        const url = new URL(yield* baseUrl)
        let answer = ""
        const closed = yield* Effect.promise(() =>
          new Promise<boolean>((resolve) => {
            const socket = connect(Number(url.port), url.hostname, () => socket.write("GET /api/v1/ping HTTP/1.1\r\nHost: x\r\n"))
            const timer = setTimeout(() => {
              socket.destroy()
              resolve(false)
            }, 5_000)
            socket.on("close", () => {
              clearTimeout(timer)
              resolve(true)
            })
            socket.on("error", () => undefined)
            socket.on("data", (chunk) => void (answer += String(chunk)))
          })
        )
        assert.isTrue(closed, "the server closed the idle half-open request")
        assert.match(answer, /^HTTP\/1\.1 408/)
      }))
  })
})
