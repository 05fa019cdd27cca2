/**
 * The console's security edges, over HTTP (no browser): the in-process API client never sends a
 * call elsewhere than asked (an id that is a dot segment would climb to another API route with
 * the session's bearer) nor fails on a value no header can carry; a new sign-in ends the session
 * the browser held before; a `next` with control characters is not a redirect target.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import type { HttpRouter } from "effect/http"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { makeApiClient } from "../../adapters/http/console/ApiClient.ts"
import { adminToken, baseUrl, createMerchant, reachableHost } from "../support/Host.ts"

/** A router that only tells which path it was asked for. */
const recording = () => {
  const seen: Array<string> = []
  const app = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    seen.push(request.url)
    return HttpServerResponse.jsonUnsafe({ url: request.url })
  })
  const router = { asHttpEffect: () => app } as unknown as HttpRouter.HttpRouter
  return { seen, api: makeApiClient(router) }
}

const outer = HttpServerRequest.fromWeb(new Request("http://127.0.0.1/console/webhooks"))

describe("console API client", () => {
  it.effect("never lets an id that is a dot segment take a call to another API route", () =>
    Effect.gen(function*() {
      const { api, seen } = recording()
      const ok = yield* api({ method: "POST", path: `/api/v1/webhooks/${encodeURIComponent("wh_1")}/rotate-secret`, bearer: "t" })
      assert.strictEqual(ok.status, 200)
      assert.deepStrictEqual(seen, ["/api/v1/webhooks/wh_1/rotate-secret"])
      for (const id of ["..", "."]) {
        const reply = yield* api({ method: "POST", path: `/api/v1/webhooks/${encodeURIComponent(id)}/rotate-secret`, bearer: "t" })
        assert.strictEqual(reply.status, 404, `id ${id}`)
        assert.strictEqual(reply.body?.error?.code, "not_found")
      }
      const query = yield* api({ method: "GET", path: `/admin/v1/shops/${encodeURIComponent("..")}/routes?environment=sandbox`, bearer: "t" })
      assert.strictEqual(query.status, 404)
      assert.deepStrictEqual(seen, ["/api/v1/webhooks/wh_1/rotate-secret"], "nothing else was dispatched")
    }).pipe(Effect.scoped, Effect.provideService(HttpServerRequest.HttpServerRequest, outer)))

  it.effect("refuses a bearer or idempotency key no header can carry, instead of failing", () =>
    Effect.gen(function*() {
      const { api, seen } = recording()
      const key = yield* api({ method: "POST", path: "/api/v1/webhooks", bearer: "t", idempotencyKey: "k\r\nx-injected: 1" })
      assert.strictEqual(key.status, 400)
      const bearer = yield* api({ method: "GET", path: "/admin/v1/providers", bearer: "token\nx" })
      assert.strictEqual(bearer.status, 400)
      assert.deepStrictEqual(seen, [])
    }).pipe(Effect.scoped, Effect.provideService(HttpServerRequest.HttpServerRequest, outer)))
})

const form = (body: Record<string, string>) => new URLSearchParams(body).toString()

const sessionOf = (response: Response) => /console_session=([^;]*)/.exec(response.headers.get("set-cookie") ?? "")?.[1] ?? ""

describe("console sessions over HTTP", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("a new sign-in ends the session the browser held before", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant({ name: "Loja Segura", email: "segura@loja.test" })
        const base = yield* baseUrl
        const signIn = (body: Record<string, string>, cookie?: string) =>
          Effect.promise(() =>
            fetch(`${base}/console/sign-in`, {
              method: "POST",
              redirect: "manual",
              headers: { origin: base, "content-type": "application/x-www-form-urlencoded", ...(cookie === undefined ? {} : { cookie: `console_session=${cookie}` }) },
              body: form(body)
            })
          )
        const open = (cookie: string) =>
          Effect.promise(() => fetch(`${base}/console/payments`, { redirect: "manual", headers: { cookie: `console_session=${cookie}` } }))

        const first = yield* signIn({ kind: "merchant", apiKey: keys.sandbox.publishableKey, secretKey: keys.sandbox.secretKey })
        assert.strictEqual(first.status, 303)
        const sandbox = sessionOf(first)
        assert.notStrictEqual(sandbox, "")
        assert.strictEqual((yield* open(sandbox)).status, 200)

        // Switching to production from the same browser: a new session, and the old one is gone.
        const second = yield* signIn({ kind: "merchant", apiKey: keys.production.publishableKey, secretKey: keys.production.secretKey }, sandbox)
        assert.strictEqual(second.status, 303)
        const production = sessionOf(second)
        assert.notStrictEqual(production, sandbox, "a new session id at sign-in")
        assert.strictEqual((yield* open(production)).status, 200)
        const old = yield* open(sandbox)
        assert.strictEqual(old.status, 303, "the replaced session no longer opens")
        assert.include(old.headers.get("location") ?? "", "/console/sign-in")

        // The operator's sign-in does the same.
        const operator = yield* signIn({ kind: "operator", adminToken }, production)
        assert.strictEqual(operator.status, 303)
        assert.strictEqual((yield* open(production)).status, 303)

        // A refused sign-in leaves the session it came with alone.
        const refused = yield* signIn({ kind: "operator", adminToken: "wrong" }, sessionOf(operator))
        assert.strictEqual(refused.status, 401)
        const still = yield* Effect.promise(() =>
          fetch(`${base}/console/operator/merchants`, { redirect: "manual", headers: { cookie: `console_session=${sessionOf(operator)}` } })
        )
        assert.strictEqual(still.status, 200)
      }))

    it.effect("a next with control characters is not a redirect target, and a token with them is refused, not a 500", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant({ name: "Loja Linha", email: "linha@loja.test" })
        const base = yield* baseUrl
        const post = (body: Record<string, string>) =>
          Effect.promise(() =>
            fetch(`${base}/console/sign-in`, {
              method: "POST",
              redirect: "manual",
              headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
              body: form(body)
            })
          )
        const split = yield* post({
          kind: "merchant",
          apiKey: keys.sandbox.publishableKey,
          secretKey: keys.sandbox.secretKey,
          next: "/console/payments\r\nset-cookie: console_session=forged"
        })
        assert.strictEqual(split.status, 303)
        assert.strictEqual(split.headers.get("location"), "/console/payments")

        const token = yield* post({ kind: "operator", adminToken: `${adminToken}\r\nx-injected: 1` })
        assert.strictEqual(token.status, 401)
        assert.include(yield* Effect.promise(() => token.text()), "not accepted")
      }))
  })
})
