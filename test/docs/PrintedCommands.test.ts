/**
 * The connector guide's "Run a simulator on its own" recipe, run exactly as printed: its bash block is
 * taken from `docs/connectors.md` and run from the repository's folder (the Mercado Pago simulator on
 * 12111, the host by `npm start` on 8080). Only the shell's environment is the test's: the host's
 * embedded store in a temporary folder, and bash's trace with timestamps to see each step.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { connect, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const repo = resolve(import.meta.dirname, "../..")

const recipe = () => {
  const readme = readFileSync(join(repo, "docs/connectors.md"), "utf8")
  const section = readme.slice(readme.indexOf("**Run a simulator on its own.**"))
  const block = /```bash\n([\s\S]*?)```/.exec(section)
  assert.isNotNull(block, "the recipe's bash block")
  return block![1]!
}

/** A merchant's shell: without what vitest adds to the environment (`BASE_URL=/` would be the host's). */
const shellEnvironment = () => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "" }
  for (const name of Object.keys(env)) {
    // Nor the suite's own DATABASE_URL (CI sets one): the recipe's host runs on its embedded store.
    if (/^(VITEST|VITE_)/.test(name) || ["BASE_URL", "MODE", "DEV", "PROD", "SSR", "TEST", "NODE_ENV", "DATABASE_URL"].includes(name)) delete env[name]
  }
  return env
}

/** Nothing answers on the port (a host left running would answer the recipe's calls) and it can be bound. */
const portFree = (port: number) =>
  new Promise<boolean>((resolveFree) => {
    const probe = connect(port, "127.0.0.1")
    probe.once("connect", () => {
      probe.destroy()
      resolveFree(false)
    })
    probe.once("error", () => {
      const server = createServer().once("error", () => resolveFree(false))
      server.listen(port, () => server.close(() => resolveFree(true)))
    })
  })

describe("the connector guide's simulator recipe", () => {
  it("runs as pasted: the payment completes and the refund settles from the simulator's notifications", async () => {
    for (const port of [8080, 12111]) assert.isTrue(await portFree(port), `port ${port}, which the recipe uses, is taken`)
    const dataDir = mkdtempSync(join(tmpdir(), "recipe-"))
    // Its own process group, so that the simulator and the host it starts in the background end with it.
    // Traced with timestamps (bash, run as root, takes no PS4 from the environment).
    const shell = spawn("bash", ["-c", `PS4='+ $EPOCHREALTIME '; set -x\n${recipe()}`], {
      cwd: repo,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...shellEnvironment(), DATA_DIR: dataDir, LOG_LEVEL: "Warn" }
    })
    let output = ""
    shell.stdout.on("data", (chunk) => void (output += chunk))
    shell.stderr.on("data", (chunk) => void (output += chunk))
    try {
      const code = await new Promise<number | null>((resolveExit) => {
        const timer = setTimeout(() => resolveExit(null), 150_000)
        shell.on("exit", (exitCode) => {
          clearTimeout(timer)
          resolveExit(exitCode)
        })
      })
      // The trace without the polling of the `until` lines.
      const trace = output.split("\n").filter((l) => !/sleep 0\.|grep -q|openapi\.json -o|^\+ [\d.]+ curl -s localhost:8080\/api\/v1\/(payments|claims)\/[^/ ]+ -H/.test(l)).join("\n")
      writeFileSync(join(tmpdir(), "simulator-recipe.log"), output)
      assert.strictEqual(code, 0, `the recipe did not finish (all of it in ${join(tmpdir(), "simulator-recipe.log")}):\n${trace.slice(-6000)}`)
      for (const answer of ['{"refundsPending":true}', '"notifications":{"drop":false,"delayMs":5000,"repeat":2}']) {
        assert.include(output, answer)
      }
      assert.notMatch(output, /"error":\{"code"/, "no call of the recipe is refused")
      // The refund is settled from the simulator's notification, not at the engine's follow-up a minute later.
      const at = (pattern: RegExp) => {
        const line = output.split("\n").find((l) => pattern.test(l))
        assert.isDefined(line, `${pattern} in the trace`)
        return Number(/^\+ (\d+\.\d+) /.exec(line!)![1])
      }
      const settled = at(/_simulator\/refunds\/\d+\/settle/)
      const learned = at(/_simulator\/notifications/)
      assert.isBelow(learned - settled, 15, "seconds from the settle to the engine's settled refund")
    } finally {
      try {
        process.kill(-shell.pid!, "SIGKILL")
      } catch {
        // already gone
      }
      rmSync(join(repo, "sim.env"), { force: true })
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 180_000)
})
