#!/usr/bin/env node
/**
 * `payment-engine-conformance <folder>` (the package's `bin`; `npm run conformance -- <folder>` in
 * this repository): runs the conformance kit wherever the folder calls it, its `*.conformance.ts`
 * files (each `providerConformance(name, harness)` or `payoutConformance(name, harness)` from
 * `payment-orchestration-engine/providers/conformance`), and prints `N passed, N failed` last.
 *
 * It runs the provider project's own `vitest` and `@effect/vitest` (dev dependencies of that
 * project, found from the folder upwards), never a copy of its own: the suites register their tests
 * with the `vitest` the test files import, so there must be exactly one. The vitest settings are
 * the kit's (generous timeouts, forked workers); the project's own vitest configuration is not read.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const usage = "usage: payment-engine-conformance <provider folder>   (npx payment-engine-conformance src)"

/** The nearest folder from `start` upwards that has a package.json: the provider's project. */
const projectOf = (start: string): string | undefined => {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir
    if (dirname(dir) === dir) return undefined
  }
}

/** Where `name` is installed as seen from `project`, or none. */
const installed = (project: string, name: string): string | undefined => {
  try {
    return dirname(createRequire(join(project, "package.json")).resolve(`${name}/package.json`))
  } catch {
    return undefined
  }
}

// The kit's vitest settings. Vitest 5's reporter calls Map.groupBy, which Node 20 lacks.
const configSource = (include: string) => `
if (typeof Map.groupBy !== "function") {
  Object.defineProperty(Map, "groupBy", { value: (items, key) => {
    const groups = new Map(); let i = 0
    for (const item of items) { const k = key(item, i++); const g = groups.get(k); if (g === undefined) groups.set(k, [item]); else g.push(item) }
    return groups
  } })
}
export default { test: { include: [${JSON.stringify(include)}], exclude: ["**/node_modules/**", "**/dist/**"], testTimeout: 60000, hookTimeout: 120000, pool: "forks", maxWorkers: 2 } }
`

/** Runs the kit on `folderArg`; answers the process exit code (0: every test passed). */
export const runConformance = (folderArg: string | undefined): number => {
  const summary = (passed: number, failed: number) => console.log(`${passed} passed, ${failed} failed`)
  if (folderArg === undefined || !existsSync(folderArg) || !statSync(folderArg).isDirectory()) {
    console.error(usage)
    summary(0, 1)
    return 2
  }
  const folder = resolve(folderArg)
  const project = projectOf(folder)
  const vitest = project === undefined ? undefined : installed(project, "vitest")
  const effectVitest = project === undefined ? undefined : installed(project, "@effect/vitest")
  if (project === undefined || vitest === undefined || effectVitest === undefined) {
    console.error(
      `the conformance suites run on your project's own vitest and @effect/vitest, and ${project ?? folder} has ` +
        `${vitest === undefined ? "no vitest" : "no @effect/vitest"}: npm install --save-dev vitest @effect/vitest`
    )
    summary(0, 1)
    return 2
  }
  const bin = (JSON.parse(readFileSync(join(vitest, "package.json"), "utf8")) as { bin: Record<string, string> }).bin["vitest"]!
  const out = mkdtempSync(join(tmpdir(), "conformance-"))
  try {
    const config = join(out, "conformance.config.mjs")
    const within = relative(project, folder).split("\\").join("/")
    writeFileSync(config, configSource(within === "" ? "**/*.conformance.ts" : `${within}/**/*.conformance.ts`))
    const report = join(out, "report.json")
    const env = { ...process.env }
    for (const name of Object.keys(env)) if (name.startsWith("VITEST")) delete env[name]
    const run = spawnSync(
      process.execPath,
      [join(vitest, bin), "run", "--root", project, "--config", config, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
      { cwd: project, stdio: "inherit", env }
    )
    let passed = 0
    let failed = run.status === 0 ? 0 : 1
    if (existsSync(report)) {
      const result = JSON.parse(readFileSync(report, "utf8")) as { numPassedTests: number; numFailedTests: number; numTotalTests: number }
      passed = result.numPassedTests
      failed = result.numFailedTests + (result.numTotalTests === 0 ? 1 : 0)
    }
    summary(passed, failed)
    return failed === 0 && run.status === 0 ? 0 : 1
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

// Run as a program (also through npm's `node_modules/.bin` symlink), not when imported.
if (process.argv[1] !== undefined && existsSync(process.argv[1]) && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) {
  process.exit(runConformance(process.argv[2]))
}
