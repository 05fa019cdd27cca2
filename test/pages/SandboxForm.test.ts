/**
 * The sandbox provider's payment form speaks the buyer's language as the checkout pages do
 * (`PageText.languageFor`: the payment's country, unless the browser asks for a supported
 * language): Portuguese for a Brazilian payment, Spanish for a Mexican one, English when asked;
 * axe-core finds nothing on it, before and after the buyer pays.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath, violations } from "../support/Browser.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"

describe.skipIf(chromiumPath === undefined)("the sandbox provider's form in the buyer's language", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("pt for a Brazilian payment, es for a Mexican one, the browser's supported language first; 0 axe violations", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const base = yield* baseUrl
        const pay = (paymentMethodId: string) =>
          Effect.map(
            call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 20, paymentMethodId, userName: "Ana Souza", userEmail: "ana@example.com" } }),
            (r) => {
              assert.strictEqual(r.status, 201, JSON.stringify(r.body))
              const form = new URL(r.body.paymentFormUrl)
              return form.pathname + form.search
            }
          )
        const brazil = yield* pay("sbx_pix")
        const mexico = yield* pay("sbx_spei")
        const chromium = yield* browser
        const visit = (path: string, locale: string) =>
          Effect.promise(async () => {
            const context = await chromium.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, locale })
            const page = await context.newPage()
            const response = await page.goto(base + path)
            return { page, status: response?.status() }
          })
        const texts = async (page: import("playwright-core").Page) => ({
          lang: await page.getAttribute("html", "lang"),
          title: await page.title(),
          notice: (await page.textContent(".muted"))?.trim(),
          status: (await page.textContent("[data-testid=status]"))?.trim(),
          buttons: (await page.locator("button").allTextContents()).map((t) => t.trim())
        })

        // A browser asking for a language the pages do not speak: the payment's country decides.
        const pt = yield* visit(brazil, "de-DE")
        yield* Effect.promise(async () => {
          assert.strictEqual(pt.status, 200)
          assert.deepInclude(await texts(pt.page), {
            lang: "pt",
            notice: "Provedor de testes (sandbox) — nenhum dinheiro real se move",
            status: "pendente",
            buttons: ["Pagar", "Fazer o pagamento falhar"]
          })
          assert.include(await pt.page.textContent("main") ?? "", "O pagamento")
          assert.deepStrictEqual(await violations(pt.page), [])
          await pt.page.screenshot({ path: "/tmp/sandbox-form-pt.png", fullPage: true })
          // Paid: the form says so in Portuguese, with no buttons left.
          await Promise.all([pt.page.waitForURL(/\/sandbox\/pay\//), pt.page.click("button[value=paid]")])
          assert.deepInclude(await texts(pt.page), { lang: "pt", status: "concluído", buttons: [] })
          assert.deepStrictEqual(await violations(pt.page), [])
        })

        const es = yield* visit(mexico, "de-DE")
        yield* Effect.promise(async () => {
          assert.deepInclude(await texts(es.page), {
            lang: "es",
            notice: "Proveedor de pruebas (sandbox) — no se mueve dinero real",
            status: "pendiente",
            buttons: ["Pagar", "Hacer fallar el pago"]
          })
          assert.deepStrictEqual(await violations(es.page), [])
        })

        const asked = yield* visit(mexico, "en-US")
        yield* Effect.promise(async () => {
          assert.deepInclude(await texts(asked.page), { lang: "en", status: "pending", buttons: ["Pay", "Fail the payment"] })
        })

        const unknown = yield* visit("/sandbox/pay/TXN-unknown", "pt-BR")
        yield* Effect.promise(async () => {
          assert.strictEqual(unknown.status, 404)
          assert.strictEqual(await unknown.page.getAttribute("html", "lang"), "pt")
          assert.strictEqual((await unknown.page.textContent("h1"))?.trim(), "Pagamento não encontrado")
          assert.deepStrictEqual(await violations(unknown.page), [])
        })
      }))
  })
})
