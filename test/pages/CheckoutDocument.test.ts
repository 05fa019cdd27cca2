/**
 * The checkout page with a document number the rail's country refuses: the server refuses the
 * form post before anything is created (`422 missing_required_fields` naming `documentId`), and
 * the page says so next to the field; corrected, the payment starts.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"

describe.skipIf(chromiumPath === undefined)("checkout page: document numbers", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("CPF 123 for PIX is refused by the server and shown next to the field; a valid CPF goes through", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const created = yield* call("POST", "/api/v1/checkout/sessions", {
          bearer: sk,
          body: { amount: 50, country: "BR", customer: { firstName: "Ana", lastName: "Souza", email: "ana@example.com" }, merchantOrderId: "doc-1" }
        })
        assert.strictEqual(created.status, 201)
        const base = yield* baseUrl
        const pagePath = new URL(created.body.checkoutUrl).pathname
        const chromium = yield* browser
        const context = yield* Effect.promise(() => chromium.newContext({ viewport: { width: 390, height: 844 }, isMobile: true }))
        const page = yield* Effect.promise(() => context.newPage())
        const selects: Array<number> = []
        page.on("response", (response) => {
          if (response.url().endsWith("/select")) selects.push(response.status())
        })
        yield* Effect.promise(async () => {
          assert.strictEqual((await page.goto(base + pagePath))?.status(), 200)
          await page.fill("#documentId", "123")
          await page.locator('input[value="1001"]').check()
          await page.click("button[type=submit]")
          await page.waitForFunction(() => (document.getElementById("error-documentId")?.textContent ?? "") !== "")
          assert.deepStrictEqual(selects, [422], "the server refused the post")
          assert.include(await page.textContent("#error-documentId") ?? "", "not valid")
          assert.strictEqual(await page.getAttribute("#documentId", "aria-invalid"), "true")
          assert.strictEqual(new URL(page.url()).pathname, pagePath)
        })
        assert.strictEqual((yield* call("GET", "/api/v1/payments?merchantOrderId=doc-1", { bearer: sk })).body.pagination.total, 0)

        yield* Effect.promise(async () => {
          await page.fill("#documentId", "529.982.247-25")
          await Promise.all([page.waitForURL(/\/sandbox\/pay\//), page.click("button[type=submit]")])
          await context.close()
        })
        assert.strictEqual((yield* call("GET", "/api/v1/payments?merchantOrderId=doc-1", { bearer: sk })).body.pagination.total, 1)
      }))
  })
})
