/**
 * The reference page and the error codes page in Chromium: `/docs` renders the API
 * reference with every request it makes going to the host's own origin (no CDN, no fonts or
 * proxies elsewhere), no menu of the renderer's cloud, curl samples that send `Authorization:
 * Bearer`, amounts with their real bounds, and a page that a second visit gets almost entirely
 * from the cache; `/docs/errors` fits a 390 px phone screen without horizontal scrolling and
 * without breaking a code inside a word, and passes axe-core.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath, violations } from "../support/Browser.ts"
import { baseUrl, reachableHost } from "../support/Host.ts"

/** Bytes received from the network while `load` runs (Chrome's encodedDataLength: 0 for what the cache served). */
const transferred = async (page: Page, load: () => Promise<unknown>) => {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("Network.enable")
  let bytes = 0
  cdp.on("Network.loadingFinished", (event) => void (bytes += event.encodedDataLength))
  await load()
  await cdp.detach()
  return bytes
}

const openPayments = async (page: Page, base: string) => {
  const response = await page.goto(`${base}/docs#tag/payments/POST/api/v1/payments`, { waitUntil: "networkidle" })
  assert.strictEqual(response?.status(), 200)
  await page.waitForSelector("text=Request Example for", { timeout: 30_000 })
}

describe.skipIf(chromiumPath === undefined)("docs pages in Chromium", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("/docs renders the reference and asks nothing of another host", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const chromium = yield* browser
        const page = yield* Effect.promise(() => chromium.newPage())
        const requested: Array<string> = []
        page.on("request", (request) => void requested.push(request.url()))
        yield* Effect.promise(async () => {
          const response = await page.goto(`${base}/docs`, { waitUntil: "networkidle" })
          assert.strictEqual(response?.status(), 200)
          await page.waitForSelector("text=Payment Orchestration API", { timeout: 30_000 })
          await page.screenshot({ path: "/tmp/docs-page.png" })
        })
        const origin = new URL(base).origin
        const foreign = requested.filter((url) => !url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== origin)
        assert.deepStrictEqual(foreign, [], "every request goes to the host itself")
        assert.isAbove(requested.length, 0)
      }))

    it.effect("the curl sample of POST /payments sends `Authorization: Bearer`, and the amount shows its real bounds", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const chromium = yield* browser
        const page = yield* Effect.promise(() => chromium.newPage())
        const text = yield* Effect.promise(async () => {
          await openPayments(page, base)
          return page.evaluate(() => document.body.innerText)
        })
        const sample = /Request Example for\s+POST\s*\/api\/v1\/payments\s+([\s\S]*?)Test Request/.exec(text)?.[1] ?? ""
        assert.match(sample, /^curl /m, "a curl sample")
        assert.include(sample, "--header 'Authorization: Bearer ", `the sample sends ${/Authorization[^\n]*/.exec(sample)?.[0]}`)
        assert.notInclude(sample, "Basic")
        const amount = /amount\s+Copy link to amount\s+([\s\S]{0,200}?)required/.exec(text)?.[1] ?? ""
        assert.match(amount, /greater than:\s*0\s/, amount)
        assert.match(amount, /max:\s*1000000000000\s/, amount)
        assert.notInclude(amount, "-1000000000000")
        // The 201 example is a real payment, not placeholders.
        assert.match(text, /"transactionId": "TXN-[0-9A-Z]{26}"/)
      }))

    it.effect("no menu or link of the renderer's cloud is shown", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const chromium = yield* browser
        const page = yield* Effect.promise(() => chromium.newPage())
        const shown = yield* Effect.promise(async () => {
          await openPayments(page, base)
          const menus = await page.getByText(/Generate SDKs|Developer Tools|Powered by Scalar|Open in API Client|Register/i).all()
          const buttons = await page.getByRole("button", { name: /^(Share|Deploy|Generate)/i }).all()
          const visible = [] as Array<string>
          for (const element of [...menus, ...buttons]) {
            if (await element.isVisible()) visible.push(await element.innerText())
          }
          const links = await page.evaluate(() =>
            [...document.querySelectorAll("a[href]")]
              .filter((a) => a.checkVisibility())
              .map((a) => (a as HTMLAnchorElement).href)
              .filter((href) => new URL(href).origin !== location.origin)
          )
          return { visible, links }
        })
        assert.deepStrictEqual(shown.visible, [], "no cloud menu")
        assert.deepStrictEqual(shown.links, [], "no link to another host")
      }))

    it.effect("a first visit transfers under 1 MB and a second one under 100 KB (the script is cached)", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const chromium = yield* browser
        const context = yield* Effect.promise(() => chromium.newContext())
        const visit = () =>
          Effect.promise(async () => {
            const page = await context.newPage()
            const bytes = await transferred(page, () => openPayments(page, base))
            await page.close()
            return bytes
          })
        const first = yield* visit()
        const second = yield* visit()
        yield* Effect.promise(() => context.close())
        console.log(`/docs transferred: first visit ${first} bytes, second ${second} bytes`)
        assert.isBelow(first, 1_000_000, `first visit: ${first} bytes`)
        assert.isBelow(second, 100_000, `second visit: ${second} bytes`)
      }))

    it.effect("/docs/errors fits a 390 px screen, breaks no code inside a word, and passes axe-core", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const chromium = yield* browser
        const context = yield* Effect.promise(() => chromium.newContext({ viewport: { width: 390, height: 844 }, isMobile: true }))
        const page = yield* Effect.promise(() => context.newPage())
        const measured = yield* Effect.promise(async () => {
          assert.strictEqual((await page.goto(`${base}/docs/errors`))?.status(), 200)
          await page.screenshot({ path: "/tmp/docs-errors.png", fullPage: true })
          const layout = await page.evaluate(() => ({
            scroll: document.documentElement.scrollWidth,
            client: document.documentElement.clientWidth,
            // An inline element broken across lines has one box per line: a code without a space
            // in more than one box was broken inside a word.
            broken: [...document.querySelectorAll("code")]
              .filter((code) => code.closest("pre") === null && !/\s/.test(code.textContent ?? "") && code.getClientRects().length > 1)
              .map((code) => code.textContent),
            codes: document.querySelectorAll("section[id]").length
          }))
          return { ...layout, violations: await violations(page) }
        })
        assert.isAtMost(measured.scroll, measured.client, `the page is ${measured.scroll} px wide on a ${measured.client} px screen`)
        assert.deepStrictEqual(measured.broken, [], "codes broken across lines")
        assert.isAbove(measured.codes, 30)
        assert.deepStrictEqual(measured.violations, [])
      }))
  })
})
