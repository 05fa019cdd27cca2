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
})
