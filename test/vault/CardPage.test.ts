/**
 * The vault's card page in headless Chromium at 390 and 1280 px: a full page on the vault's
 * origin with a strict policy, in the buyer's language, axe-clean with and without errors, that
 * works without script and lands on the session's return URL with the card's token.
 */
import { Effect, Exit, Scope } from "effect"
import type { Browser } from "playwright-core"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type RunningVault, startForTest } from "../../vault/index.ts"
import { browser, chromiumPath, violations } from "../support/Browser.ts"
import { startProviderStub } from "./ProviderStub.ts"
import { cards, testConfig } from "./VaultFixtures.ts"

describe.skipIf(chromiumPath === undefined)("vault card page in Chromium", () => {
  let vault: RunningVault
  let scope: Scope.Closeable
  let chromium: Browser
  let shop: Awaited<ReturnType<typeof startProviderStub>>

  beforeAll(async () => {
    shop = await startProviderStub()
    shop.answer({ status: 200, headers: { "content-type": "text/html" }, body: () => "<!doctype html><title>Shop</title><p>back at the shop</p>" })
    scope = Effect.runSync(Scope.make())
    vault = await Effect.runPromise(Scope.provide(scope)(startForTest(testConfig())))
    chromium = await Effect.runPromise(Scope.provide(scope)(browser))
  })

  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await shop.close()
  })

  for (const width of [390, 1280]) {
    it(`at ${width} px: shows the fields in Portuguese, re-renders errors, and redirects with the token`, async () => {
      const context = await chromium.newContext({ viewport: { width, height: 900 }, locale: "pt-BR" })
      const page = await context.newPage()
      const requested: Array<string> = []
      page.on("request", (r) => requested.push(r.url()))
      const session = await vault.session({ merchantId: "mer_page", returnUrl: `${shop.url}/return?order=7` })
      const response = await page.goto(`${vault.url}/fields?session=${session}`)
      assert.strictEqual(response?.status(), 200)
      const headers = response!.headers()
      assert.include(headers["content-security-policy"], "default-src 'none'")
      assert.include(headers["content-security-policy"], "frame-ancestors 'none'")
      assert.include(headers["content-security-policy"], `form-action 'self' ${shop.url}`)
      assert.strictEqual(headers["x-frame-options"], "DENY")
      assert.strictEqual(await page.getAttribute("html", "lang"), "pt")
      assert.strictEqual(await page.textContent("h1"), "Dados do cartão")
      assert.deepStrictEqual(await violations(page), [], "axe-core, the empty form")

      // The script groups the digits and names the brand as the buyer types.
      await page.fill("#holderName", "Ana Souza")
      await page.locator("#number").pressSequentially("41111111")
      assert.strictEqual(await page.inputValue("#number"), "4111 1111")
      assert.strictEqual(await page.textContent("#brand"), "Visa")
      await page.fill("#number", "4111 1111 1111 1112")
      await page.fill("#expMonth", "12")
      await page.fill("#expYear", "2031")
      await page.fill("#securityCode", "123")
      await Promise.all([page.waitForLoadState("load"), page.click("button[type=submit]")])
      assert.strictEqual(await page.textContent("#number-error"), "Informe um número de cartão válido.")
      assert.strictEqual(await page.getAttribute("#number", "aria-invalid"), "true")
      assert.strictEqual(await page.inputValue("#holderName"), "Ana Souza", "what the buyer typed stays")
      assert.strictEqual(await page.inputValue("#number"), "", "the number is never sent back")
      assert.deepStrictEqual(await violations(page), [], "axe-core, with an error shown")

      await page.fill("#number", cards.mastercard)
      await page.fill("#securityCode", "123")
      await Promise.all([page.waitForURL(/\/return\?/), page.click("button[type=submit]")])
      const landed = new URL(page.url())
      assert.strictEqual(landed.origin, shop.url)
      assert.strictEqual(landed.searchParams.get("order"), "7")
      const token = landed.searchParams.get("card_token") ?? ""
      assert.match(token, /^card_[0-9A-Za-z]{24}$/)
      const described = await fetch(`${vault.url}/v1/cards/${token}?merchantId=mer_page`, { headers: { authorization: `Bearer ${vault.engineKey}` } })
      const card = await described.json()
      assert.deepStrictEqual([card.brand, card.last4, card.holderName, card.securityCodeHeld], ["mastercard", "4444", "Ana Souza", true])
      assert.deepStrictEqual(requested.filter((url) => !url.startsWith(vault.url) && !url.startsWith(shop.url)), [], "nothing from another host")
      await context.close()
    })
  }

  it("works without script, in Spanish by Accept-Language, and refuses a bad session", async () => {
    const context = await chromium.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { "accept-language": "es-MX,es;q=0.9,en;q=0.5" } })
    const page = await context.newPage()
    const session = await vault.session({ merchantId: "mer_page2", returnUrl: `${shop.url}/back` })
    await page.goto(`${vault.url}/fields?session=${session}`)
    assert.strictEqual(await page.textContent("h1"), "Datos de la tarjeta")
    await page.fill("#holderName", "Luis Pérez")
    await page.fill("#number", cards.amex)
    await page.fill("#expMonth", "1")
    await page.fill("#expYear", "2020")
    await page.fill("#securityCode", "1234")
    await Promise.all([page.waitForLoadState("load"), page.click("button[type=submit]")])
    assert.strictEqual(await page.textContent("#expMonth-error"), "Esta tarjeta está vencida.")
    await page.fill("#number", cards.amex)
    await page.fill("#expYear", "2032")
    await page.fill("#securityCode", "1234")
    await Promise.all([page.waitForURL(/\/back\?card_token=card_/), page.click("button[type=submit]")])

    const bad = await page.goto(`${vault.url}/fields?session=not-a-jwt&lang=en`)
    assert.strictEqual(bad?.status(), 401)
    assert.include(await page.textContent("p") ?? "", "expired")
    const engineSigned = await fetch(`${vault.url}/fields?session=${await vault.session({ merchantId: "m", ttlSeconds: -60 })}`)
    assert.strictEqual(engineSigned.status, 401, "an expired session")
    await context.close()
  })
})
