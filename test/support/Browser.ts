/**
 * Headless Chromium for page tests: Debian's `chromium` driven by playwright-core. Where the
 * binary is missing the page tests skip and say why (CI installs it, so CI never skips them).
 */
import { execSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { Effect } from "effect"
import { type Browser, chromium, type Page } from "playwright-core"

const find = (): string | undefined => {
  try {
    const path = execSync("command -v chromium", { stdio: ["ignore", "pipe", "ignore"], shell: "/bin/sh" }).toString().trim()
    return path === "" ? undefined : path
  } catch {
    return undefined
  }
}

export const chromiumPath = find()

if (chromiumPath === undefined) {
  console.log("SKIP page tests: no `chromium` on PATH (install Debian's chromium package; .ci/run does)")
}

/** A headless browser for the scope of one test. */
export const browser = Effect.acquireRelease(
  Effect.promise((): Promise<Browser> =>
    chromium.launch({
      executablePath: chromiumPath!,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync"
      ]
    })
  ),
  (b) => Effect.promise(() => b.close())
)

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/** axe-core's violations on the page as it stands, one line each (rule id and the nodes). */
export const violations = async (page: Page): Promise<ReadonlyArray<string>> => {
  // Evaluated by the driver, not added as a <script>: the pages' policy runs no inline script without its nonce.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource)
  return page.evaluate(async () => {
    const axe = (window as unknown as {
      axe: { run: (context: Document) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }> }
    }).axe
    const result = await axe.run(document)
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`)
  })
}
