/**
 * Every URL a merchant gives the engine (a payment's and a checkout session's `returnUrl`, a
 * webhook's `url`) is checked at the API by one rule: absolute `https` (`http` in the sandbox
 * only), no credentials, no white space or control characters. A `javascript:` return URL would
 * run on the engine's own origin from the hosted page's link; each variant is refused with
 * `400 invalid_request` naming the field, and nothing is created.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"

const refused = [
  "javascript:alert(document.domain)",
  "JAVASCRIPT:alert(1)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "//evil.example/x",
  "/relative/path",
  "relative",
  "https://user:pw@shop.example/thanks",
  "https://user@shop.example/thanks",
  "https://shop.example/th anks",
  "https://shop.example/\nthanks",
  "https://shop.example/\u0000",
  "https:\\\\evil.example",
  "https:/shop.example",
  "ftp://shop.example/thanks",
  "https://",
  "https://" + "a".repeat(2000) + ".example"
]

/** The part of a refusal's error envelope this test reads: its code and the paths of its issues. */
const Refusal = Schema.Struct({
  error: Schema.Struct({ code: Schema.String, details: Schema.Struct({ issues: Schema.Array(Schema.Struct({ path: Schema.String })) }) })
})
const fieldNamed = (body: unknown, field: string) => {
  const refusal = Option.getOrUndefined(Schema.decodeUnknownOption(Refusal)(body))
  assert.strictEqual(refusal?.error.code, "invalid_request", JSON.stringify(body))
  assert.isTrue(refusal!.error.details.issues.some((i) => i.path === field), JSON.stringify(body))
}

describe("merchant URLs", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("returnUrl on POST /payments and checkout sessions, and a webhook's url, refuse every unsafe variant", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const sk = m.keys.sandbox.secretKey
        for (const url of refused) {
          const payment = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "sbx_pix", returnUrl: url } })
          assert.strictEqual(payment.status, 400, `${JSON.stringify(url)}: ${JSON.stringify(payment.body)}`)
          fieldNamed(payment.body, "returnUrl")
          const session = yield* call("POST", "/api/v1/checkout/sessions", { bearer: sk, body: { amount: 10, country: "BR", returnUrl: url } })
          assert.strictEqual(session.status, 400, `${JSON.stringify(url)}: ${JSON.stringify(session.body)}`)
          fieldNamed(session.body, "returnUrl")
          const webhook = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { url, events: ["*"] } })
          assert.strictEqual(webhook.status, 400, `${JSON.stringify(url)}: ${JSON.stringify(webhook.body)}`)
          fieldNamed(webhook.body, "url")
        }
        const listed = yield* call("GET", "/api/v1/payments", { bearer: sk })
        assert.strictEqual(listed.body.pagination.total, 0)
        // The sandbox takes http and https.
        for (const url of ["http://localhost:3000/thanks", "https://shop.example/thanks?order=1#top"]) {
          const ok = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "sbx_pix", returnUrl: url } })
          assert.strictEqual(ok.status, 201, JSON.stringify(ok.body))
          const session = yield* call("POST", "/api/v1/checkout/sessions", { bearer: sk, body: { amount: 10, country: "BR", returnUrl: url } })
          assert.strictEqual(session.status, 201, JSON.stringify(session.body))
        }
      }))

    it.effect("production takes https only", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const sk = m.keys.production.secretKey
        const payment = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "1001", returnUrl: "http://shop.example/thanks" } })
        assert.strictEqual(payment.status, 400, JSON.stringify(payment.body))
        fieldNamed(payment.body, "returnUrl")
        assert.include(payment.body.error.message, "https")
        const session = yield* call("POST", "/api/v1/checkout/sessions", { bearer: sk, body: { amount: 10, country: "BR", returnUrl: "http://shop.example/thanks" } })
        assert.strictEqual(session.status, 400, JSON.stringify(session.body))
        fieldNamed(session.body, "returnUrl")
        const https = yield* call("POST", "/api/v1/checkout/sessions", { bearer: sk, body: { amount: 10, country: "BR", returnUrl: "https://shop.example/thanks" } })
        assert.strictEqual(https.status, 201, JSON.stringify(https.body))
      }))

    it.effect("the published document names the rule on returnUrl", () =>
      Effect.gen(function*() {
        const doc = (yield* call("GET", "/openapi.json")).body
        const text = JSON.stringify(doc.components.schemas.CreatePayment.properties.returnUrl)
        assert.include(text, "http is accepted in the sandbox only")
      }))
  })
})
