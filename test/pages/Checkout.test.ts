/**
 * The buyer's checkout page in headless Chromium: amount and methods shown, inline validation,
 * select, and the buyer landing on the provider's form through the 307.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath, violations } from "../support/Browser.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"

describe.skipIf(chromiumPath === undefined)("checkout page in Chromium", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("shows the amount and the methods, validates inline, selects and lands on the provider's form", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const sk = keys.sandbox.secretKey
        const created = yield* call("POST", "/api/v1/checkout/sessions", {
          bearer: sk,
          body: { amount: 50, country: "BR", customer: { firstName: "Ana", lastName: "Souza" }, merchantOrderId: "browser-1" }
        })
        assert.strictEqual(created.status, 201)
        const catalog = yield* call("GET", "/api/v1/payment-methods?country=BR", { bearer: sk })
        const base = yield* baseUrl
        const pagePath = new URL(created.body.checkoutUrl).pathname

        const chromium = yield* browser
        const context = yield* Effect.promise(() => chromium.newContext({ viewport: { width: 390, height: 844 }, isMobile: true }))
        const page = yield* Effect.promise(() => context.newPage())
        yield* Effect.promise(async () => {
          const response = await page.goto(base + pagePath)
          assert.strictEqual(response?.status(), 200)
          await page.screenshot({ path: "/tmp/checkout-page.png", fullPage: true })
          assert.strictEqual((await page.textContent("[data-testid=amount]"))?.trim(), "275.40 BRL") // 50 * 5.40 * 1.02
          // One tile per rail: a sandbox test method is not shown beside the real rail it copies.
          const realRails = catalog.body.methods.filter((m: { routable: boolean; paymentMethodId: string }) => m.routable && !m.paymentMethodId.startsWith("sbx_"))
          assert.strictEqual(await page.locator("input[name=paymentMethodId]").count(), realRails.length)
          assert.isAbove(await page.locator("fieldset legend").count(), 1, "methods are grouped")
          const iconLoaded = await page.locator("img").first().evaluate((img) => (img as HTMLImageElement).naturalWidth > 0)
          assert.isTrue(iconLoaded, "the method icons resolve")
          assert.strictEqual(await page.inputValue("#fullName"), "Ana Souza")

          await page.fill("#email", "ana@@example")
          await page.fill("#documentId", "52998224725")
          // The card rails' instalments show while a card is chosen, not for PIX.
          assert.strictEqual(await page.locator("#installments").count(), 1)
          assert.isFalse(await page.locator("#installments").isVisible(), "no method chosen yet")
          await page.locator('input[value="1004"]').check()
          assert.isTrue(await page.locator("#installments").isVisible(), "a card chosen")
          await page.locator('input[value="1001"]').check()
          assert.isFalse(await page.locator("#installments").isVisible(), "PIX chosen")
          await page.click("button[type=submit]")
          assert.include(await page.textContent("#error-email") ?? "", "valid email")
          assert.strictEqual(await page.getAttribute("#email", "aria-invalid"), "true")
          assert.strictEqual(new URL(page.url()).pathname, pagePath, "no navigation while a field is invalid")
          assert.deepStrictEqual(await violations(page), [], "axe-core, with an error shown")

          await page.fill("#email", "ana@example.com")
          await Promise.all([page.waitForURL(/\/sandbox\/pay\//), page.click("button[type=submit]")])
          assert.include(await page.textContent("h1") ?? "", "PIX")
          assert.strictEqual((await page.textContent("[data-testid=status]"))?.trim(), "pending")
          await page.screenshot({ path: "/tmp/checkout-provider-form.png" })
          assert.deepStrictEqual(await violations(page), [], "axe-core, the sandbox provider's form")
        })
        const list = yield* call("GET", "/api/v1/payments?merchantOrderId=browser-1", { bearer: sk })
        assert.strictEqual(list.body.pagination.total, 1)
        assert.strictEqual(list.body.data[0].paymentMethodId, "1001")

        // The used link now says so; an unknown one says it expired.
        yield* Effect.promise(async () => {
          const used = await page.goto(base + pagePath)
          assert.strictEqual(used?.status(), 409)
          assert.include(await page.textContent("h1") ?? "", "already started")
          const unknown = await page.goto(`${base}/checkout/cst_unknown`)
          assert.strictEqual(unknown?.status(), 404)
          assert.include(await page.textContent("h1") ?? "", "expired")
        })
      }))
  })
})
