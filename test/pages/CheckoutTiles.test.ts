/**
 * The buyer's method tiles on a phone (390 px): one tile per rail (a sandbox shop's test method
 * `sbx_*` is not shown beside the real rail it mirrors, yet a session opened for one still shows
 * it), a long group folded after its first five, and the details form within reach: for a
 * Brazilian sandbox session it began 2,297 px down the page (32 tiles), it begins under 1,300 px.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath, violations } from "../support/Browser.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"

/** What the page shows before the details form: tiles, their names, and where the form starts. */
const measure = (page: Page) =>
  page.evaluate(() => {
    const tiles = [...document.querySelectorAll<HTMLInputElement>("input[name=paymentMethodId]")]
    const details = [...document.querySelectorAll<HTMLElement>("#checkout h2")][1]!
    return {
      ids: tiles.map((t) => t.value),
      names: tiles.map((t) => (t.closest("label")!.querySelector("span")!.firstChild?.textContent ?? "").trim()),
      visible: tiles.filter((t) => t.closest("label")!.checkVisibility()).map((t) => t.value),
      detailsTop: Math.round(details.getBoundingClientRect().top + window.scrollY)
    }
  })

/** Every tile and label of the page that is wider inside than it shows. */
const overflowing = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>(".methods label, .methods span, summary, legend, h1, h2, button, label")]
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => `${e.tagName} "${(e.textContent ?? "").trim().slice(0, 40)}" ${e.scrollWidth}>${e.clientWidth}`)
      .concat(document.documentElement.scrollWidth > document.documentElement.clientWidth ? ["the page scrolls sideways"] : []))

describe.skipIf(chromiumPath === undefined)("the method tiles on a phone", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("one tile per rail, the long group folded, the details form within reach at 390 px; a folded method can be paid with", () =>
      Effect.gen(function*() {
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const base = yield* baseUrl
        const chromium = yield* browser
        const open = (body: Record<string, unknown>) =>
          Effect.gen(function*() {
            const created = yield* call("POST", "/api/v1/checkout/sessions", { bearer: sk, body: { amount: 50, ...body } })
            assert.strictEqual(created.status, 201, JSON.stringify(created.body))
            return yield* Effect.promise(async () => {
              const context = await chromium.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, locale: "en-US" })
              const page = await context.newPage()
              assert.strictEqual((await page.goto(base + new URL(created.body.checkoutUrl).pathname))?.status(), 200)
              return page
            })
          })

        const page = yield* open({ country: "BR", merchantOrderId: "tiles-1", customer: { firstName: "Ana", lastName: "Souza", email: "ana@example.com" } })
        yield* Effect.promise(async () => {
          const m = await measure(page)
          console.log(`390 px, BR sandbox session: ${m.ids.length} tiles (${m.visible.length} unfolded), details form at ${m.detailsTop} px`)
          await page.screenshot({ path: "/tmp/checkout-tiles-br.png", fullPage: true })
          // One tile per rail: the test PIX and test card are not shown beside PIX and the cards.
          assert.includeMembers(m.ids, ["1001", "1004", "1005"])
          assert.notInclude(m.ids, "sbx_pix")
          assert.notInclude(m.ids, "sbx_card")
          assert.deepStrictEqual(m.names.filter((n) => n.includes("sandbox")), [])
          assert.strictEqual(new Set(m.names).size, m.names.length, "no two tiles read the same")
          // Compact: the long group shows five and folds the rest.
          assert.isAtMost(m.visible.length, 13)
          assert.isBelow(m.detailsTop, 1300)
          assert.deepStrictEqual(await overflowing(page), [])
          assert.deepStrictEqual(await violations(page), [])

          // The folded methods open and can be chosen.
          const summary = page.locator("details.more > summary").first()
          const foldedCount = await page.locator("details.more").first().locator("input[name=paymentMethodId]").count()
          assert.isAbove(foldedCount, 0)
          assert.strictEqual((await summary.textContent())?.trim(), `Show ${foldedCount} more`)
          await summary.click()
          const folded = page.locator("details.more input[name=paymentMethodId][data-requires='']").first()
          assert.isTrue(await folded.isVisible())
          const chosen = await folded.getAttribute("value")
          await folded.check()
          assert.deepStrictEqual(await overflowing(page), [])
          assert.deepStrictEqual(await violations(page), [], "axe-core, the folded group open")
          await page.fill("#documentId", "52998224725")
          await Promise.all([page.waitForURL(/\/sandbox\/pay\//), page.click("button[type=submit]")])
          const list = await (await fetch(`${base}/api/v1/payments?merchantOrderId=tiles-1`, { headers: { authorization: `Bearer ${sk}` } })).json()
          assert.strictEqual(list.data[0].paymentMethodId, chosen)
        })

        // A session opened for a sandbox test method offers it, and the page shows it.
        const oneShot = yield* open({ country: "BR", paymentMethodId: "sbx_pix" })
        yield* Effect.promise(async () => {
          assert.deepStrictEqual((await measure(oneShot)).ids, ["sbx_pix"])
        })

        // Without a country every country's rails are offered: each group still shows five.
        const everywhere = yield* open({})
        yield* Effect.promise(async () => {
          const m = await measure(everywhere)
          console.log(`390 px, sandbox session without a country: ${m.ids.length} tiles (${m.visible.length} unfolded), details form at ${m.detailsTop} px`)
          assert.isAtMost(m.visible.length, 15)
          assert.isBelow(m.detailsTop, 1700)
          assert.deepStrictEqual(m.names.filter((n) => n.includes("sandbox")), [])
        })
      }))
  })
})
