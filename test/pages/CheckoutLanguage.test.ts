/**
 * The buyer's page speaks the buyer's language and fits a phone: Portuguese for a Brazilian
 * session, Spanish for a Mexican one (the browser asking for neither), a supported language the
 * browser asks for wins; methods sharing a name are told apart by their kind; no tile's text
 * overflows at 390 px; after the provider's form the buyer is back at the shop's `returnUrl` with
 * the transaction id and its status appended.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath, violations } from "../support/Browser.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"

/** Every tile and label of the page that is wider inside than it shows. */
const overflowing = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>(".methods label, .methods span, legend, h1, h2, button, label")]
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => `${e.tagName} "${(e.textContent ?? "").trim().slice(0, 40)}" ${e.scrollWidth}>${e.clientWidth}`)
      .concat(document.documentElement.scrollWidth > document.documentElement.clientWidth ? ["the page scrolls sideways"] : []))

describe.skipIf(chromiumPath === undefined)("the buyer's page in the buyer's language", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("pt for Brazil, es for Mexico, Accept-Language first; same names told apart; nothing overflows at 390 px", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const base = yield* baseUrl
        const open = (country: string) =>
          Effect.map(call("POST", "/api/v1/checkout/sessions", { bearer: sk, body: { amount: 50, country } }), (r) => new URL(r.body.checkoutUrl).pathname)
        const br = yield* open("BR")
        const mx = yield* open("MX")
        const chromium = yield* browser
        const visit = (path: string, locale: string) =>
          Effect.promise(async () => {
            const context = await chromium.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, locale })
            const page = await context.newPage()
            assert.strictEqual((await page.goto(base + path))?.status(), 200)
            return page
          })

        // A browser asking for a language the pages do not speak: the session's country decides.
        const portuguese = yield* visit(br, "de-DE")
        yield* Effect.promise(async () => {
          assert.strictEqual(await portuguese.getAttribute("html", "lang"), "pt")
          assert.strictEqual((await portuguese.textContent("h1"))?.trim(), "Conclua seu pagamento")
          assert.strictEqual((await portuguese.textContent("button[type=submit]"))?.trim(), "Continuar para o pagamento")
          const names = (await portuguese.locator(".methods span").allTextContents()).map((t) => t.trim())
          assert.isTrue(names.some((n) => n.startsWith("Itaú — transferência bancária")), names.join(" | "))
          assert.isTrue(names.some((n) => n.startsWith("Itaú — débito online")), names.join(" | "))
          assert.isFalse(names.some((n) => n === "Itaú"), "no two tiles read the same")
          await portuguese.screenshot({ path: "/tmp/checkout-pt.png", fullPage: true })
          assert.deepStrictEqual(await overflowing(portuguese), [])
          assert.deepStrictEqual(await violations(portuguese), [])
          // The inline validation speaks it too.
          await portuguese.click("button[type=submit]")
          assert.strictEqual((await portuguese.textContent("#error-paymentMethodId"))?.trim(), "Escolha uma forma de pagamento.")
        })

        const spanish = yield* visit(mx, "de-DE")
        yield* Effect.promise(async () => {
          assert.strictEqual(await spanish.getAttribute("html", "lang"), "es")
          assert.strictEqual((await spanish.textContent("h1"))?.trim(), "Completa tu pago")
          assert.include(await spanish.locator("legend").allTextContents(), "Efectivo")
          await spanish.screenshot({ path: "/tmp/checkout-es.png", fullPage: true })
          assert.deepStrictEqual(await overflowing(spanish), [])
          assert.deepStrictEqual(await violations(spanish), [])
        })

        const asked = yield* visit(br, "es-MX")
        yield* Effect.promise(async () => {
          assert.strictEqual(await asked.getAttribute("html", "lang"), "es", "the browser's Spanish wins over the country")
          assert.strictEqual((await asked.textContent("h1"))?.trim(), "Completa tu pago")
        })
        const english = yield* visit(mx, "en-US")
        yield* Effect.promise(async () => {
          assert.strictEqual((await english.textContent("h1"))?.trim(), "Complete your payment")
          assert.deepStrictEqual(await overflowing(english), [])
        })
      }))

    it.effect("after the provider's form the buyer is back at returnUrl with the transaction id and status", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const base = yield* baseUrl
        const returnUrl = `${base}/shop/thanks?order=7`
        const created = yield* call("POST", "/api/v1/checkout/sessions", {
          bearer: sk,
          body: { amount: 50, country: "BR", returnUrl, customer: { firstName: "Ana", lastName: "Souza", email: "ana@example.com" } }
        })
        assert.strictEqual(created.status, 201)
        const chromium = yield* browser
        const landed = yield* Effect.promise(async () => {
          const page = await chromium.newPage()
          await page.goto(created.body.checkoutUrl.replace(/^https?:\/\/[^/]+/, base))
          await page.fill("#documentId", "52998224725")
          await page.locator('input[value="1001"]').check()
          await Promise.all([page.waitForURL(/\/sandbox\/pay\//), page.click("button[type=submit]")])
          await Promise.all([page.waitForURL(/\/shop\/thanks/), page.click("button[value=paid]")])
          return new URL(page.url())
        })
        assert.strictEqual(landed.pathname, "/shop/thanks")
        assert.strictEqual(landed.searchParams.get("order"), "7", "the shop's own parameters are kept")
        assert.strictEqual(landed.searchParams.get("status"), "completed")
        const transactionId = landed.searchParams.get("transactionId")!
        assert.match(transactionId, /^TXN-/)
        const payment = yield* call("GET", `/api/v1/payments/${transactionId}`, { bearer: sk })
        assert.strictEqual(payment.body.status, "completed")
      }))
  })
})
