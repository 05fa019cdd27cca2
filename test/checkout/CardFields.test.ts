/**
 * A buyer pays by card on the hosted checkout in headless Chromium, with the real card vault
 * (`vault/`, on its own loopback port and store) beside the host and the sandbox's `sbx_card`:
 * the checkout, the card chosen, the vault's own page (the number goes there, not to the
 * engine), a test card typed, back to the engine, the payment pending on the provider's form and
 * then completed. With script and without (`javaScriptEnabled: false`). Every request the page
 * makes goes to the engine or the vault; the vault's page passes axe at 390 and 1280 px in en, pt
 * and es.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import type { BrowserContext } from "playwright-core"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { startForTest } from "../../vault/index.ts"
import { browser, chromiumPath, violations } from "../support/Browser.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"
import { cards, testConfig as vaultConfig } from "../vault/VaultFixtures.ts"

const sessionSecret = "session-secret-for-tests-0123456789abcdef"

class VaultUrl extends Context.Service<VaultUrl, string>()("test/CardFields/VaultUrl") {}

const HostWithVault = Layer.unwrap(Effect.gen(function*() {
  const vault = yield* startForTest(vaultConfig({ sessionSecret: Redacted.make(sessionSecret) }))
  return Layer.merge(
    reachableHost(MemoryStore.layer, {
      vault: Option.some({ url: vault.url, engineKey: Redacted.make(vault.engineKey), sessionSecret: Redacted.make(sessionSecret) })
    }),
    Layer.succeed(VaultUrl, vault.url)
  )
}))

/** Every origin the context's pages ask for anything. */
const recordOrigins = (context: BrowserContext) => {
  const origins = new Set<string>()
  context.on("request", (request) => {
    const url = new URL(request.url())
    if (url.protocol === "http:" || url.protocol === "https:") origins.add(url.origin)
  })
  return origins
}

describe.skipIf(chromiumPath === undefined)("card fields on the hosted checkout in Chromium", () => {
  layer(HostWithVault, { timeout: 180_000, excludeTestServices: true })((it) => {
    const pay = (options: { readonly javaScriptEnabled: boolean; readonly locale: string; readonly heading: string; readonly order: string }) =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const vaultUrl = yield* VaultUrl
        const { keys } = yield* createMerchant()
        const sk = keys.sandbox.secretKey
        // The sandbox card, the buyer's document still to give: the page asks for it.
        const created = yield* call("POST", "/api/v1/checkout/sessions", {
          bearer: sk,
          body: {
            amount: 50,
            country: "BR",
            paymentMethodId: "sbx_card",
            customer: { firstName: "Ana", lastName: "Souza", email: "ana@example.com" },
            merchantOrderId: options.order
          }
        })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const pagePath = new URL(created.body.checkoutUrl).pathname

        const chromium = yield* browser
        const context = yield* Effect.promise(() =>
          chromium.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, javaScriptEnabled: options.javaScriptEnabled, locale: options.locale })
        )
        const origins = recordOrigins(context)
        const page = yield* Effect.promise(() => context.newPage())
        const vaultPage = yield* Effect.promise(async () => {
          const opened = await page.goto(base + pagePath)
          assert.strictEqual(opened?.status(), 200)
          assert.isTrue(await page.locator('input[value="sbx_card"]').isChecked())
          await page.fill("#documentId", "52998224725")
          // The card's instalments, shown for the card (by the script, or always without it); the buyer takes 2.
          assert.isTrue(await page.locator("#installments").isVisible())
          // axe runs as a script in the page: with script only.
          if (options.javaScriptEnabled) assert.deepStrictEqual(await violations(page), [], "axe on the checkout with the instalment select")
          await page.selectOption("#installments", "2")
          await Promise.all([page.waitForURL((url) => url.href.startsWith(`${vaultUrl}/fields`)), page.click("button[type=submit]")])
          // The vault's own page, in the buyer's language.
          assert.strictEqual(await page.textContent("h1"), options.heading)
          const at = page.url()
          await page.fill("#holderName", "Ana Souza")
          await page.fill("#number", cards.visa)
          await page.fill("#expMonth", "12")
          await page.fill("#expYear", "2031")
          await page.fill("#securityCode", "123")
          await Promise.all([page.waitForURL(/\/sandbox\/pay\//), page.click("button[type=submit]")])
          assert.strictEqual(await page.getAttribute("[data-testid=status]", "data-status"), "pending")
          await Promise.all([page.waitForURL(/\/sandbox\/pay\//), page.click("button[value=paid]")])
          assert.strictEqual(await page.getAttribute("[data-testid=status]", "data-status"), "completed")
          return at
        })
        assert.deepStrictEqual([...origins].sort(), [base, vaultUrl].sort(), "the pages load from the engine and the vault only")
        const list = yield* call("GET", `/api/v1/payments?merchantOrderId=${options.order}`, { bearer: sk })
        assert.strictEqual(list.body.pagination.total, 1)
        const payment = list.body.data[0]
        assert.strictEqual(payment.paymentMethodId, "sbx_card")
        const read = yield* call("GET", `/api/v1/payments/${payment.id ?? payment.transactionId}`, { bearer: sk })
        assert.deepInclude(read.body.card, { brand: "visa", last4: "1111" }, JSON.stringify(read.body))
        assert.strictEqual(read.body.status, "completed")
        assert.strictEqual(read.body.installments?.count, 2, JSON.stringify(read.body.installments))
        yield* Effect.promise(() => context.close())
        return vaultPage
      })

    it.effect("with script: checkout, the vault's card page, a test card, back to the payment", () =>
      Effect.gen(function*() {
        const vaultPage = yield* pay({ javaScriptEnabled: true, locale: "pt-BR", heading: "Dados do cartão", order: "card-js" })
        assert.strictEqual(new URL(vaultPage).searchParams.get("lang"), "pt")

        // The vault's page passes axe on a phone and a desktop, in each of its languages.
        const chromium = yield* browser
        for (const width of [390, 1280]) {
          const context = yield* Effect.promise(() => chromium.newContext({ viewport: { width, height: 900 } }))
          const page = yield* Effect.promise(() => context.newPage())
          for (const lang of ["en", "pt", "es"]) {
            yield* Effect.promise(async () => {
              const url = new URL(vaultPage)
              url.searchParams.set("lang", lang)
              const answer = await page.goto(url.toString())
              assert.strictEqual(answer?.status(), 200)
              assert.strictEqual(await page.getAttribute("html", "lang"), lang)
              assert.deepStrictEqual(await violations(page), [], `axe, ${lang} at ${width} px`)
              // With each field's message shown too.
              await page.fill("#holderName", "Ana Souza")
              await page.fill("#number", "4111111111111112")
              await page.fill("#expMonth", "12")
              await page.fill("#expYear", "2031")
              await Promise.all([page.waitForLoadState("load"), page.click("button[type=submit]")])
              assert.strictEqual(await page.getAttribute("#number", "aria-invalid"), "true")
              assert.deepStrictEqual(await violations(page), [], `axe with errors, ${lang} at ${width} px`)
            })
          }
          yield* Effect.promise(() => context.close())
        }
      }))

    it.effect("without script: the same way through plain forms and redirects", () =>
      Effect.gen(function*() {
        const vaultPage = yield* pay({ javaScriptEnabled: false, locale: "es-MX", heading: "Datos de la tarjeta", order: "card-nojs" })
        assert.strictEqual(new URL(vaultPage).searchParams.get("lang"), "es")
      }))
  })
})
