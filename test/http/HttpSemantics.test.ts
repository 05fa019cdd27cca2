/**
 * HTTP answers a merchant understands : a POST whose fields are all optional
 * takes an empty body as `{}` (a refund with no body refunds all that remains, like Stripe's
 * `POST /v1/refunds` with its defaults); a 400 `invalid_request` speaks the merchant's words
 * ("Unknown parameter: amout", "Missing required parameter: amount", "amount: expected a
 * number"), never the schema library's; a known path called with a method it does not accept is
 * 405 `method_not_allowed` with an `Allow` header, not 404.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { baseUrl, call, createMerchant, eventually, type Reply, testHost } from "../support/Host.ts"

const envelope = (reply: Reply, status: number, code: string) => {
  assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
  assert.strictEqual(reply.body.error.code, code, JSON.stringify(reply.body))
  assert.match(reply.body.error.requestId, /^req_/)
  assert.isString(reply.body.error.docs_url)
}

/**
 * A sandbox merchant with two completed payments of 100 USD on sbx_pix (the second one's pending
 * net covers the fees a full refund of the first gives back); answers the first.
 */
const paid = Effect.gen(function*() {
  const m = yield* createMerchant()
  const sk = m.keys.sandbox.secretKey
  const ids: Array<string> = []
  for (let i = 0; i < 2; i++) {
    const created = yield* call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "paid" }, body: { amount: 100, paymentMethodId: "sbx_pix" } })
    ids.push(created.body.transactionId as string)
  }
  const payments = []
  for (const id of ids) payments.push(yield* eventually(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body.status === "completed"))
  return { sk, id: ids[0]!, payment: payments[0]!.body }
})

/** A raw request with exactly the headers given (no JSON content type added when there is no body). */
const raw = (method: string, path: string, headers: Record<string, string>, body?: string) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async (): Promise<Reply> => {
      const response = await fetch(base + path, { method, headers, ...(body === undefined ? {} : { body }) })
      const text = await response.text()
      return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
    }))

const issuesOf = (reply: Reply) => reply.body.error.details.issues as ReadonlyArray<{ path: string; message: string }>

describe("HTTP semantics", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a refund without a body refunds all that remains, as `{}` does", () =>
      Effect.gen(function*() {
        const { id, payment, sk } = yield* paid
        const refund = yield* raw("POST", `/api/v1/payments/${id}/refund`, { authorization: `Bearer ${sk}` })
        assert.strictEqual(refund.status, 201, JSON.stringify(refund.body))
        assert.deepInclude(refund.body, { transactionId: id, amount: payment.amountLocal, amountUsd: 100, reason: null })
      }))

    it.effect("a refund with `Content-Length: 0` (and a JSON content type) refunds all that remains", () =>
      Effect.gen(function*() {
        const { id, payment, sk } = yield* paid
        const refund = yield* raw("POST", `/api/v1/transactions/${id}/refund`, {
          authorization: `Bearer ${sk}`,
          "content-type": "application/json",
          "content-length": "0"
        }, "")
        assert.strictEqual(refund.status, 201, JSON.stringify(refund.body))
        assert.deepInclude(refund.body, { transactionId: id, amount: payment.amountLocal })
      }))

    it.effect("an empty body where a field is required is a missing parameter, named", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const reply = yield* raw("POST", "/api/v1/payments", { authorization: `Bearer ${sk}` })
        envelope(reply, 400, "invalid_request")
        assert.deepStrictEqual(reply.body.error.details.missingFields, ["amount"])
        assert.deepInclude(issuesOf(reply), { path: "amount", message: "Missing required parameter: amount" })
        assert.strictEqual(reply.body.error.message, "Missing required parameter: amount")
      }))

    it.effect("validation messages are the merchant's words, the first problem in `message`, every problem in `issues`", () =>
      Effect.gen(function*() {
        const { id, sk } = yield* paid
        const typo = yield* call("POST", `/api/v1/payments/${id}/refund`, { bearer: sk, body: { amout: 10 } })
        envelope(typo, 400, "invalid_request")
        assert.deepStrictEqual(issuesOf(typo), [{ path: "amout", message: "Unknown parameter: amout" }])
        assert.strictEqual(typo.body.error.message, "Unknown parameter: amout")

        const wrong = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: "ten", paymentMethodId: "sbx_pix", colour: "red" } })
        envelope(wrong, 400, "invalid_request")
        assert.deepInclude(issuesOf(wrong), { path: "amount", message: "amount: expected a number" })
        assert.deepInclude(issuesOf(wrong), { path: "colour", message: "Unknown parameter: colour" })
        assert.strictEqual(wrong.body.error.message, `${issuesOf(wrong)[0]!.message} (and 1 more problem in details.issues)`)

        const missing = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { paymentMethodId: "sbx_pix" } })
        envelope(missing, 400, "invalid_request")
        assert.deepStrictEqual(missing.body.error.details.missingFields, ["amount"])
        assert.deepStrictEqual(issuesOf(missing), [{ path: "amount", message: "Missing required parameter: amount" }])
        assert.strictEqual(missing.body.error.message, "Missing required parameter: amount")

        const notObject = yield* call("POST", `/api/v1/payments/${id}/refund`, { bearer: sk, body: [1] })
        envelope(notObject, 400, "invalid_request")
        assert.strictEqual(notObject.body.error.message, "The request body must be a JSON object")

        for (const reply of [typo, wrong, missing, notObject]) {
          for (const issue of issuesOf(reply)) {
            assert.notMatch(issue.message, /Expected|Missing key|excess|\| null/, JSON.stringify(issue))
          }
        }
        // Nothing was refunded by any of them.
        assert.strictEqual((yield* call("GET", `/api/v1/payments/${id}`, { bearer: sk })).body.status, "completed")
      }))

    it.effect("query and nested problems name their parameter too", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const limit = yield* call("GET", "/api/v1/payments?limit=abc", { bearer: sk })
        envelope(limit, 400, "invalid_request")
        for (const issue of issuesOf(limit)) {
          assert.match(issue.message, /^limit: /, JSON.stringify(issue))
          assert.notMatch(issue.message, /Expected/, JSON.stringify(issue))
        }
        assert.match(limit.body.error.message, /^limit: /)
      }))

    it.effect("a known path with a method it does not accept is 405 method_not_allowed with `Allow`", () =>
      Effect.gen(function*() {
        const { id, sk } = yield* paid
        const get = yield* call("GET", `/api/v1/payments/${id}/refund`, { bearer: sk })
        envelope(get, 405, "method_not_allowed")
        assert.strictEqual(get.headers.get("allow"), "POST")
        assert.deepStrictEqual(get.body.error.details, { allowed: ["POST"] })
        assert.include(get.body.error.message, "GET")
        assert.include(get.body.error.message, "POST")

        const del = yield* call("DELETE", "/api/v1/payments", { bearer: sk })
        envelope(del, 405, "method_not_allowed")
        assert.strictEqual(del.headers.get("allow"), "GET, POST")

        const put = yield* call("PUT", "/api/v1/webhooks/wh_1", { bearer: sk, body: {} })
        envelope(put, 405, "method_not_allowed")
        assert.sameMembers(put.headers.get("allow")!.split(", "), ["GET", "PATCH", "DELETE"])

        // Unknown paths stay 404, and the 405 changed nothing.
        envelope(yield* call("GET", "/api/v1/nothing-here", { bearer: sk }), 404, "not_found")
        envelope(yield* call("GET", `/api/v1/payments/${"x".repeat(150)}/refund`, { bearer: sk }), 404, "not_found")
        assert.strictEqual((yield* call("GET", `/api/v1/payments/${id}`, { bearer: sk })).body.status, "completed")
        // HEAD of a read still answers as its GET does.
        assert.strictEqual((yield* raw("HEAD", "/openapi.json", {})).status, 200)
      }))

    it.effect("the document says which bodies may be left out, and publishes the 405 envelope", () =>
      Effect.gen(function*() {
        const spec = (yield* call("GET", "/openapi.json")).body
        const refund = spec.paths["/api/v1/payments/{id}/refund"].post
        assert.strictEqual(refund.requestBody.required, false, "every field of a refund is optional: no body is {}")
        assert.include(refund.requestBody.description, "{}")
        assert.strictEqual(spec.paths["/api/v1/payments"].post.requestBody.required, true, "a payment names its amount")
        const envelope405 = spec.components.schemas["Error_method_not_allowed"].properties.error.properties
        assert.deepStrictEqual(envelope405.code, { type: "string", const: "method_not_allowed" })
        assert.deepStrictEqual(envelope405.details.required, ["allowed"])
        assert.deepInclude(spec.components.schemas["Error"].oneOf, { $ref: "#/components/schemas/Error_method_not_allowed" })
      }))

    it.effect("method_not_allowed is in the error catalog at /docs/errors", () =>
      Effect.gen(function*() {
        const html = yield* Effect.flatMap(baseUrl, (base) => Effect.promise(() => fetch(base + "/docs/errors").then((r) => r.text())))
        assert.include(html, `id="method_not_allowed"`)
        assert.match(html, /id="method_not_allowed"[\s\S]{0,300}405/)
      }))
  })
})
