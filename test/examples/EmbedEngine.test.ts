import { assert, describe, it } from "@effect/vitest"
import { makeEmbeddedEngine } from "../../examples/embed-engine/main.ts"

describe("examples/embed-engine", () => {
  it("serves the API as a Fetch handler on the embedder's own engine runtime", async () => {
    const engine = makeEmbeddedEngine({ jwtSecret: "an-embedder-secret-of-32-bytes!!", publicUrl: "https://shop.example" })
    try {
      const { keys, merchant } = await engine.onboard("Acme", "ops@acme.example")
      const me = await engine.handler(new Request("https://shop.example/api/v1/me", {
        headers: { authorization: `Bearer ${keys.sandbox.secretKey}` }
      }))
      assert.strictEqual(me.status, 200)
      assert.strictEqual((await me.json()).id, merchant.id)
      const missing = await engine.handler(new Request("https://shop.example/api/v1/me"))
      assert.strictEqual(missing.status, 401)
      assert.strictEqual((await missing.json()).error.docs_url, "https://shop.example/docs/errors#missing_authorization")
    } finally {
      await engine.dispose()
    }
  })

  it("takes a sandbox payment to completed: sandbox provider and job worker wired (the sandbox clock runs what came due)", async () => {
    const engine = makeEmbeddedEngine({ jwtSecret: "an-embedder-secret-of-32-bytes!!", publicUrl: "https://shop.example" })
    try {
      const { keys } = await engine.onboard("Acme", "ops@acme.example")
      const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
        engine.handler(new Request(`https://shop.example/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${keys.sandbox.secretKey}`, "content-type": "application/json", ...headers },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        }))
      const created = await api("POST", "/payments", { amount: 100, paymentMethodId: "sbx_pix", userName: "Ana Souza", userEmail: "ana@example.com" }, {
        "idempotency-key": "order-1",
        "sandbox-simulate": "paid"
      })
      assert.strictEqual(created.status, 201)
      const { transactionId, status } = await created.json() as { transactionId: string; status: string }
      assert.strictEqual(status, "pending")
      assert.strictEqual((await api("POST", "/sandbox/clock/advance", { seconds: 1 })).status, 200)
      const paid = await api("GET", `/payments/${transactionId}`)
      assert.strictEqual((await paid.json() as { status: string }).status, "completed")
    } finally {
      await engine.dispose()
    }
  })

  it("takes the HTTP API's rate limits in HttpConfig's shape: defaults when absent, the embedder's own, or lifted with false", async () => {
    const burst = async (rateLimits: Parameters<typeof makeEmbeddedEngine>[0]["rateLimits"], requests: number) => {
      const engine = makeEmbeddedEngine({ jwtSecret: "an-embedder-secret-of-32-bytes!!", publicUrl: "https://shop.example", ...(rateLimits === undefined ? {} : { rateLimits }) })
      try {
        const { keys } = await engine.onboard("Acme", "ops@acme.example")
        // All at once, so they fall in one second's window even on a loaded machine.
        return await Promise.all(Array.from({ length: requests }, async () => {
          const me = await engine.handler(new Request("https://shop.example/api/v1/me", { headers: { authorization: `Bearer ${keys.sandbox.secretKey}` } }))
          await me.arrayBuffer()
          return me.status
        }))
      } finally {
        await engine.dispose()
      }
    }
    const refused = (statuses: ReadonlyArray<number>) => statuses.filter((s) => s === 429).length
    // The defaults: 25 a second for a sandbox key, so 40 requests in a burst meet the limit.
    assert.isAbove(refused(await burst(undefined, 40)), 0)
    assert.isAbove(refused(await burst({ productionPerSecond: 100, sandboxPerSecond: 3, authPerMinute: 30 }, 5)), 0)
    const lifted = await burst(false, 60)
    assert.deepStrictEqual(lifted.filter((s) => s !== 200), [])
  })
})
