/**
 * Headless Chromium for page tests: Debian's `chromium` driven by playwright-core. Where the
 * binary is missing the page tests skip and say why (CI installs it, so CI never skips them).
 */
import { execSync } from "node:child_process"
import { Effect } from "effect"
import { type Browser, chromium } from "playwright-core"

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
