/**
 * Every answer of the host carries the browser-facing security headers, set in one place: the
 * hosted checkout pages, the sandbox provider's form, `/docs`, the error pages, the console and
 * the JSON API alike. An HTML page's policy runs no inline script without the request's nonce
 * and is never framed; in Chromium the pages that run scripts (the reference, the checkout form,
 * the sandbox form's return to the shop) still work under it, with no policy violation.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"

const scriptSrc = (policy: string) => policy.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src")) ?? ""

describe("security headers on every answer", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("pages, error pages, the console and the API carry nosniff, DENY, a referrer policy and a CSP that forbids framing", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const base = yield* baseUrl
        const payment = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 20, paymentMethodId: "sbx_pix" } })
        const session = yield* call("POST", "/api/v1/checkout/sessions", { bearer: sk, body: { amount: 20, country: "BR" } })
        assert.strictEqual(session.status, 201, JSON.stringify(session.body))
        const html = [
          "/docs",
          "/docs/errors",
          `/checkout/${session.body.token}`,
          "/checkout/cs_nope",
          `/sandbox/pay/${payment.body.transactionId}`,
          "/sandbox/pay/TXN-NOPE",
          "/c/TXN-NOPE",
          "/console/sign-in"
        ]
        const other = ["/openapi.json", "/api/v1/payments", "/no/such/route", "/health/live", "/icons/payment-methods/1001.svg"]
        for (const path of [...html, ...other]) {
          const response = yield* Effect.promise(() => fetch(base + path, { redirect: "manual" }))
          const header = (name: string) => response.headers.get(name) ?? ""
          const where = `${path} (${response.status} ${header("content-type")})`
          assert.strictEqual(header("x-content-type-options"), "nosniff", where)
          assert.strictEqual(header("x-frame-options"), "DENY", where)
          assert.match(header("referrer-policy"), /^(no-referrer|same-origin)$/, where)
          const policy = header("content-security-policy")
          assert.include(policy, "frame-ancestors 'none'", where)
          assert.include(policy, "default-src 'none'", where)
          if (html.includes(path)) {
            assert.match(header("content-type"), /^text\/html/, where)
            assert.notInclude(scriptSrc(policy), "unsafe-inline", where)
            assert.notInclude(policy, "unsafe-eval", where)
            // Every inline script of the page carries this answer's nonce; none runs without it.
            const body = yield* Effect.promise(() => response.text())
            const nonce = /'nonce-([^']+)'/.exec(policy)?.[1]
            for (const tag of body.match(/<script\b[^>]*>/g) ?? []) {
              assert.isDefined(nonce, `${where}: a script and no nonce in the policy`)
              assert.include(tag, `nonce="${nonce}"`, where)
            }
          } else {
            assert.notInclude(policy, "script-src", where)
          }
        }
        // A nonce is never reused: two answers of the same page carry two.
        const nonceOf = (r: Response) => /'nonce-([^']+)'/.exec(r.headers.get("content-security-policy") ?? "")?.[1]
        const [a, b] = yield* Effect.promise(() => Promise.all([fetch(`${base}/docs`), fetch(`${base}/docs`)]))
        assert.isDefined(nonceOf(a!))
        assert.notStrictEqual(nonceOf(a!), nonceOf(b!))
      }))

    it.effect.skipIf(chromiumPath === undefined)("in Chromium the reference renders, the checkout form runs its script and the sandbox form returns to the shop, with no policy violation", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const base = yield* baseUrl
        const chromium = yield* browser
        const page = yield* Effect.promise(() => chromium.newPage())
        const refused: Array<string> = []
        page.on("console", (message) => {
          if (/Content Security Policy/i.test(message.text())) refused.push(message.text())
        })
        yield* Effect.promise(async () => {
          await page.goto(`${base}/docs`, { waitUntil: "networkidle" })
          await page.waitForSelector("text=Payment Orchestration API", { timeout: 30_000 })
        })
        const session = yield* call("POST", "/api/v1/checkout/sessions", {
          bearer: sk,
          body: { amount: 20, country: "BR", returnUrl: "http://127.0.0.1:9/thanks" }
        })
        yield* Effect.promise(async () => {
          await page.goto(`${base}/checkout/${session.body.token}`)
          // The script validates before anything is sent: an empty form marks its fields invalid.
          await page.locator("form#checkout button[type=submit]").click()
          await page.waitForSelector("[aria-invalid=true]", { timeout: 10_000 })
        })
        const payment = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          body: { amount: 20, paymentMethodId: "sbx_pix", returnUrl: `${base}/health/live` }
        })
        const landed = yield* Effect.promise(async () => {
          // The form opens with its per-payment secret, as the create answer's link carries it.
          const form = new URL(payment.body.paymentFormUrl)
          await page.goto(`${base}${form.pathname}${form.search}`)
          await Promise.all([page.waitForURL(/\/health\/live/, { timeout: 10_000 }), page.locator("button[value=paid]").click()])
          return page.url()
        })
        assert.include(landed, "transactionId=")
        assert.deepStrictEqual(refused, [])
      }))
  })
})
