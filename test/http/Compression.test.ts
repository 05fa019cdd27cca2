/**
 * The host compresses what it answers when the client accepts it: br first, then gzip, identity
 * when neither is accepted or the body is small; `Vary: Accept-Encoding` either way; the
 * decompressed body is the plain one to the byte.
 */
import { request } from "node:http"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { baseUrl, createMerchant, testHost } from "../support/Host.ts"

/** A GET with node:http, which (unlike fetch) leaves the body as the server encoded it. */
const get = (url: string, headers: Record<string, string>) =>
  Effect.promise(() =>
    new Promise<{ status: number; headers: Record<string, string | Array<string> | undefined>; body: Buffer }>((resolve, reject) => {
      request(url, { headers }, (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
      }).on("error", reject).end()
    })
  )

describe("response compression", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("br or gzip when accepted, identity otherwise, the same bytes once decoded", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const url = `${base}/api/v1/payment-methods?country=BR`
        const auth = { authorization: `Bearer ${sk}` }
        const plain = yield* get(url, { ...auth, "accept-encoding": "identity" })
        assert.strictEqual(plain.status, 200)
        assert.isUndefined(plain.headers["content-encoding"])
        assert.isAbove(plain.body.length, 4096, "a large JSON body")
        assert.include(String(plain.headers["vary"]), "Accept-Encoding")

        const br = yield* get(url, { ...auth, "accept-encoding": "gzip, deflate, br" })
        assert.strictEqual(br.headers["content-encoding"], "br")
        assert.isBelow(br.body.length, plain.body.length / 3)
        assert.deepStrictEqual(JSON.parse(brotliDecompressSync(br.body).toString()), JSON.parse(plain.body.toString()))

        const gzip = yield* get(url, { ...auth, "accept-encoding": "gzip" })
        assert.strictEqual(gzip.headers["content-encoding"], "gzip")
        assert.deepStrictEqual(JSON.parse(gunzipSync(gzip.body).toString()), JSON.parse(plain.body.toString()))

        const none = yield* get(url, auth)
        assert.isUndefined(none.headers["content-encoding"], "no Accept-Encoding: identity")

        const small = yield* get(`${base}/api/v1/me`, { ...auth, "accept-encoding": "br, gzip" })
        assert.strictEqual(small.status, 200)
        assert.isBelow(small.body.length, 1024)
        assert.isUndefined(small.headers["content-encoding"], "a body under 1 KiB is sent as is")

        // Pages too: the error reference (the /docs page itself is under 1 KiB, its script apart).
        const docs = yield* get(`${base}/docs/errors`, { "accept-encoding": "br" })
        assert.deepStrictEqual([docs.status, docs.headers["content-encoding"]], [200, "br"], "pages too")
      }))
  })
})
