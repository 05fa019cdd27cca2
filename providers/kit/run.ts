/**
 * `npm run conformance -- <provider folder>`: runs the shared conformance kit wherever the folder
 * calls it (its `*.conformance.ts` files, each `providerConformance(name, harness)`), and prints
 * `N passed, N failed` last. A provider team outside this repository points it at its own folder.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../..", import.meta.url))
const folderArg = process.argv[2]
if (folderArg === undefined || !existsSync(folderArg)) {
  console.error("usage: npm run conformance -- <provider folder>")
  console.log("0 passed, 1 failed")
  process.exit(2)
}
const folder = relative(root, resolve(folderArg)) || "."
const out = mkdtempSync(join(tmpdir(), "conformance-"))
const report = join(out, "report.json")
const run = spawnSync(
  process.execPath,
  [join(root, "node_modules/vitest/vitest.mjs"), "run", "--config", "providers/kit/conformance.vitest.config.ts", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
  { cwd: root, stdio: "inherit", env: { ...process.env, CONFORMANCE_DIR: folder } }
)
let passed = 0
let failed = run.status === 0 ? 0 : 1
if (existsSync(report)) {
  const result = JSON.parse(readFileSync(report, "utf8")) as { numPassedTests: number; numFailedTests: number; numTotalTests: number }
  passed = result.numPassedTests
  failed = result.numFailedTests + (result.numTotalTests === 0 ? 1 : 0)
}
rmSync(out, { recursive: true, force: true })
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 && run.status === 0 ? 0 : 1)
