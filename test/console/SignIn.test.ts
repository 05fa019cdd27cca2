/**
 * Signing in to the console: a merchant with a key pair, an operator with the admin token; wrong
 * credentials are told on the field; the session cookie is HttpOnly, Secure and SameSite=Strict;
 * sign-out ends the session on the server; a form posted from another origin does nothing; a
 * sandbox session does not see production data; nothing loads from another host.
 */
import { assert, describe, layer } from "@effect/vitest"
import { request as httpRequest } from "node:http"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { consoleContext, looked, signInMerchant, signInOperator } from "../support/Console.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"

describe.skipIf(chromiumPath === undefined)("console sign-in in Chromium", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("signs a merchant in and out, keeps sandbox apart from production, and refuses forged forms", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant({ name: "Loja Azul" })
        const sandboxPayment = yield* call("POST", "/api/v1/payments", {
          bearer: keys.sandbox.secretKey,
          body: { amount: 10, paymentMethodId: "sbx_pix", userName: "Ana Souza", documentId: "52998224725", merchantOrderId: "order-sandbox" }
        })
        assert.strictEqual(sandboxPayment.status, 201)
        const base = yield* baseUrl
        const chromium = yield* browser
        const { context, foreign, page } = yield* Effect.promise(() => consoleContext(chromium, base))
        yield* Effect.promise(async () => {
          // Not signed in: the console sends to the sign-in page and back after.
          await page.goto(`${base}/console/payments`)
          assert.strictEqual(new URL(page.url()).pathname, "/console/sign-in")
          const headers = (await page.goto(page.url()))!.headers()
          assert.include(headers["content-security-policy"] ?? "", "default-src 'none'")
          assert.strictEqual(headers["x-frame-options"], "DENY")
          await looked(page, "sign-in")

          await page.fill("#apiKey", keys.sandbox.publishableKey)
          await page.fill("#secretKey", "sk_test_wrong")
          await page.click("#merchant-heading ~ form button[type=submit]")
          assert.strictEqual(await page.getAttribute("#secretKey", "aria-invalid"), "true")
          assert.include(await page.textContent("#secretKey-error") ?? "", "not accepted")

          await signInMerchant(page, base, keys.sandbox, "/console/payments")
          assert.strictEqual(new URL(page.url()).pathname, "/console/payments")
          assert.include(await page.textContent("[data-testid=environment]") ?? "", "Sandbox")
          assert.include(await page.textContent("main") ?? "", "order-sandbox")
          const [cookie] = (await context.cookies()).filter((c) => c.name === "console_session")
          assert.isDefined(cookie)
          assert.isTrue(cookie!.httpOnly)
          assert.isTrue(cookie!.secure)
          assert.strictEqual(cookie!.sameSite, "Strict")
          await looked(page, "payments")
        })

        // A form posted from another origin with the session's cookie does nothing (403).
        const cookies = yield* Effect.promise(() => context.cookies())
        const sessionCookie = cookies.find((c) => c.name === "console_session")!
        const forged = yield* Effect.promise(() =>
          fetch(`${base}/console/sign-out`, {
            method: "POST",
            redirect: "manual",
            headers: { cookie: `console_session=${sessionCookie.value}`, origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
            body: "csrf=guess"
          })
        )
        assert.strictEqual(forged.status, 303)
        const stillIn = yield* Effect.promise(() => fetch(`${base}/console/payments`, { redirect: "manual", headers: { cookie: `console_session=${sessionCookie.value}` } }))
        assert.strictEqual(stillIn.status, 200, "a forged sign-out does not end the session")
        // A malformed escape in an id is an unknown page, never a 500.
        for (const path of ["/console/payments/%E0%A4%A", "/console/webhooks/%ZZ", "/console/settlements/%/statement.pdf"]) {
          const malformed = yield* Effect.promise(() => fetch(`${base}${path}`, { redirect: "manual", headers: { cookie: `console_session=${sessionCookie.value}` } }))
          assert.isBelow(malformed.status, 500, path)
        }

        // Over plain HTTP on a name that is not loopback the Secure cookie could not stick: told, not looped.
        // (fetch cannot set Host: node:http can.)
        const plain = yield* Effect.promise(() =>
          new Promise<{ status: number; text: string }>((resolve, reject) => {
            const body = new URLSearchParams({ kind: "merchant", apiKey: keys.sandbox.publishableKey, secretKey: keys.sandbox.secretKey }).toString()
            const request = httpRequest(`${base}/console/sign-in`, {
              method: "POST",
              headers: { host: "console.example:8080", "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) }
            }, (response) => {
              let text = ""
              response.on("data", (chunk) => (text += chunk))
              response.on("end", () => resolve({ status: response.statusCode ?? 0, text }))
            })
            request.on("error", reject)
            request.end(body)
          })
        )
        assert.strictEqual(plain.status, 400)
        assert.include(plain.text, "HTTPS")

        // Production is another sign-in: its payment is not in the sandbox session, and the reverse.
        const productionPayments = yield* call("GET", "/api/v1/payments", { bearer: keys.production.secretKey })
        assert.strictEqual(productionPayments.body.pagination.total, 0)

        yield* Effect.promise(async () => {
          await Promise.all([page.waitForURL(/\/console\/sign-in/), page.click(".top form button[type=submit]")])
          // Signed out on the server: the old cookie opens nothing.
          const after = await fetch(`${base}/console/payments`, { redirect: "manual", headers: { cookie: `console_session=${sessionCookie.value}` } })
          assert.strictEqual(after.status, 303)

          await signInMerchant(page, base, keys.production)
          assert.include(await page.textContent("[data-testid=environment]") ?? "", "Production")
          assert.notInclude(await page.textContent("main") ?? "", "order-sandbox")
          await looked(page, "payments-production")

          await Promise.all([page.waitForURL(/\/console\/sign-in/), page.click(".top form button[type=submit]")])
          await signInOperator(page, base)
          assert.strictEqual(new URL(page.url()).pathname, "/console/operator/merchants")
          // An operator is not a merchant: the merchant pages are not there for this session.
          const merchantPage = await page.goto(`${base}/console/payments`)
          assert.strictEqual(merchantPage?.status(), 404)
        })
        assert.deepStrictEqual(foreign, [], "nothing loads from another host")
      }))
  })
})
