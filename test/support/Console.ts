/**
 * The console in a real browser: sign in as a merchant or an operator, check a page with axe, and
 * keep a screenshot of it at 1280 and 390 px (in /tmp/console-shots, out of the repository) for the
 * author to look at.
 */
import { mkdirSync } from "node:fs"
import { assert } from "@effect/vitest"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { violations } from "./Browser.ts"
import { adminToken } from "./Host.ts"

export const shots = "/tmp/console-shots"
mkdirSync(shots, { recursive: true })

/** A browser context that fails the test on any request to another host. */
export const localOnly = async (context: BrowserContext, base: string) => {
  const foreign: Array<string> = []
  await context.route("**/*", (route) => {
    const url = route.request().url()
    if (url.startsWith(base) || url.startsWith("data:")) return route.continue()
    foreign.push(url)
    return route.abort()
  })
  return foreign
}

/**
 * A desktop-sized context whose requests to other hosts are refused and listed. It bypasses the
 * console's Content-Security-Policy only so that axe-core can be injected (the policy itself is
 * asserted on the response headers).
 */
export const consoleContext = async (chromium: Browser, base: string) => {
  const context = await chromium.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true })
  const foreign = await localOnly(context, base)
  const page = await context.newPage()
  return { context, page, foreign }
}

export const signInMerchant = async (page: Page, base: string, keys: { publishableKey: string; secretKey: string }, next = "") => {
  await page.goto(`${base}/console/sign-in${next === "" ? "" : `?next=${encodeURIComponent(next)}`}`)
  await page.fill("#apiKey", keys.publishableKey)
  await page.fill("#secretKey", keys.secretKey)
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/console/sign-in")), page.click("#merchant-heading ~ form button[type=submit]")])
}

export const signInOperator = async (page: Page, base: string, token = adminToken) => {
  await page.goto(`${base}/console/sign-in`)
  await page.fill("#adminToken", token)
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/console/sign-in")), page.click("#operator-heading ~ form button[type=submit]")])
}

/** axe-core finds nothing, and a screenshot at the page's current width and at 390 px is kept. */
export const looked = async (page: Page, name: string) => {
  assert.deepStrictEqual(await violations(page), [], `axe-core on ${name}`)
  const size = page.viewportSize() ?? { width: 1280, height: 900 }
  await page.screenshot({ path: `${shots}/${name}-${size.width}.png`, fullPage: true })
  await page.setViewportSize({ width: 390, height: 844 })
  assert.deepStrictEqual(await violations(page), [], `axe-core on ${name} at 390 px`)
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  assert.isAtMost(overflow, 0, `${name} fits 390 px without scrolling the page sideways`)
  await page.screenshot({ path: `${shots}/${name}-390.png`, fullPage: true })
  await page.setViewportSize(size)
}
