/**
 * The reference page and the error codes page in Chromium: `/docs` renders the API reference with
 * every request it makes going to the host's own origin (no CDN, no fonts or proxies elsewhere),
 * and `/docs/errors` fits a 390 px phone screen without horizontal scrolling.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { baseUrl, reachableHost } from "../support/Host.ts"

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

    it.effect("/docs/errors fits a 390 px screen", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const chromium = yield* browser
        const context = yield* Effect.promise(() => chromium.newContext({ viewport: { width: 390, height: 844 }, isMobile: true }))
        const page = yield* Effect.promise(() => context.newPage())
        const widths = yield* Effect.promise(async () => {
          assert.strictEqual((await page.goto(`${base}/docs/errors`))?.status(), 200)
          await page.screenshot({ path: "/tmp/docs-errors.png", fullPage: true })
          return await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }))
        })
        assert.isAtMost(widths.scroll, widths.client, `the page is ${widths.scroll} px wide on a ${widths.client} px screen`)
      }))
  })
})
